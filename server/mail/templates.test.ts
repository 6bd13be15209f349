import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import { renderEmail, summariseOpeningHours, type EmailContent } from "./templates";

const shop = defaultSettings.shop;

const content: EmailContent = {
  locale: "it",
  shop,
  subject: "Conferma ordine n. 1042",
  preheader: "Abbiamo ricevuto il tuo ordine",
  heading: "Grazie, Maria!",
  paragraphs: ["Abbiamo ricevuto il tuo ordine.", "Ti scriveremo quando partirà.\nA presto."],
  detailsTitle: "Riepilogo",
  details: [
    ["Passeggino Trio", "1 × 349,00 €"],
    ["Totale", "349,00 €"],
  ],
  action: { label: "Vedi l'ordine", url: "https://www.bimbifelici.example/shopping?ordine=1042&x=1" },
  footnote: "Se non hai fatto tu questo ordine, scrivici.",
  siteUrl: "https://www.bimbifelici.example",
};

test("text and HTML carry the same content", () => {
  const mail = renderEmail(content);
  expect(mail.subject).toBe("Conferma ordine n. 1042");
  for (const piece of [
    "Grazie, Maria!",
    "Abbiamo ricevuto il tuo ordine.",
    "Riepilogo",
    "Passeggino Trio",
    "349,00 €",
    "Se non hai fatto tu questo ordine, scrivici.",
  ]) {
    expect(mail.text).toContain(piece);
    expect(mail.html).toContain(piece);
  }
  expect(mail.text).toContain("Vedi l'ordine:\nhttps://www.bimbifelici.example/shopping?ordine=1042&x=1");
  expect(mail.text).toContain("Totale: 349,00 €");
  expect(mail.text).toContain("Ti scriveremo quando partirà.\nA presto.");
  expect(mail.html).toContain("Ti scriveremo quando partirà.<br>A presto.");
  expect(mail.html).toContain('<a href="https://www.bimbifelici.example/shopping?ordine=1042&amp;x=1"');
  expect(mail.html).toContain("Vedi l&#39;ordine");
  expect(mail.html).toContain("Abbiamo ricevuto il tuo ordine</div>");
});

test("the footer shows the shop's address, VAT number, phone, e-mail and opening hours", () => {
  const mail = renderEmail(content);
  for (const body of [mail.text, mail.html]) {
    expect(body).toContain(shop.legalName.replace(/&/g, body === mail.html ? "&amp;" : "&"));
    expect(body).toContain("Via Nazionale delle Puglie, 112, 80013 Casalnuovo di Napoli (NA)");
    expect(body).toContain("P. IVA IT07412580636");
    expect(body).toContain("Tel. +39 081 842 1234");
    expect(body).toContain("info@bimbifelici.example");
    expect(body).toContain("Orari: Lunedì - Sabato 09:30-13:00, 16:30-20:00; Domenica chiuso");
  }
  expect(mail.html).toContain('href="tel:+390818421234"');
  expect(mail.html).toContain('href="mailto:info@bimbifelici.example"');
  expect(mail.text).toContain("\nhttps://www.bimbifelici.example\n");
  expect(mail.html).toContain('<a href="https://www.bimbifelici.example/" style="color:#4b5563">https://www.bimbifelici.example</a>');
});

test("English mails use English labels", () => {
  const mail = renderEmail({
    ...content,
    locale: "en",
    subject: "Order 1042 confirmed",
    heading: "Thank you, Maria!",
    paragraphs: ["We received your order."],
  });
  expect(mail.html).toContain('<html lang="en"');
  expect(mail.text).toContain("VAT no. IT07412580636");
  expect(mail.text).toContain("Opening hours: Monday - Saturday 09:30-13:00, 16:30-20:00; Sunday closed");
  expect(mail.text).toContain("See you soon,\nBimbi Felici");
  expect(mail.html).toContain("If the button does not work, copy this address into your browser:");
  expect(mail.text).not.toMatch(/Orari|Lunedì|A presto/);
});

test("Italian mails declare Italian and sign off in Italian", () => {
  const mail = renderEmail(content);
  expect(mail.html).toContain('<html lang="it"');
  expect(mail.text).toContain("A presto,\nBimbi Felici");
  expect(mail.html).toContain("Se il pulsante non funziona, copia questo indirizzo nel browser:");
});

test("every interpolated value is HTML-escaped", () => {
  const evil = `<script>alert("x")</script> & 'quote'`;
  const mail = renderEmail({
    ...content,
    subject: evil,
    preheader: evil,
    heading: evil,
    paragraphs: [evil],
    detailsTitle: evil,
    details: [[evil, evil]],
    action: { label: evil, url: 'https://example.com/?q="><script>' },
    footnote: evil,
    shop: { ...shop, name: evil, legalName: evil, street: evil, city: evil, phone: evil, email: 'a@b.it"><script>' },
  });
  expect(mail.html).not.toContain("<script>");
  expect(mail.html).not.toContain('"><script');
  expect(mail.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quote&#39;");
  // The text version is plain text: the value appears as written.
  expect(mail.text).toContain(evil);
});

test("links must be absolute http(s) URLs", () => {
  expect(() => renderEmail({ ...content, action: { label: "x", url: "javascript:alert(1)" } })).toThrow(/absolute http/);
  expect(() => renderEmail({ ...content, action: { label: "x", url: "/shopping" } })).toThrow(/absolute http/);
});

test("the subject is one line", () => {
  expect(renderEmail({ ...content, subject: " Ordine\r\nBcc: x@y.it " }).subject).toBe("Ordine Bcc: x@y.it");
});

test("the HTML loads nothing from outside and has a title, one h1 and a data table with row headers", () => {
  const { html } = renderEmail(content);
  expect(html).not.toMatch(/<img|<link|<script|@import|url\(/i);
  expect(html).toContain("<title>Conferma ordine n. 1042</title>");
  expect(html.match(/<h1/g)).toHaveLength(1);
  expect(html).toMatch(/<main>[\s\S]*<\/main>\s*<footer>[\s\S]*<\/footer>/);
  expect(html.match(/<th scope="row"/g)).toHaveLength(2);
});

test("optional parts can be left out", () => {
  const mail = renderEmail({ locale: "it", shop, subject: "Ciao", heading: "Ciao", paragraphs: ["Solo testo."] });
  expect(mail.html).not.toContain("<table style");
  expect(mail.html).not.toContain("display:none");
  expect(mail.text.startsWith("Ciao\n\nSolo testo.\n\nA presto,\nBimbi Felici\n\n-- \n")).toBe(true);
});

test("opening hours are summarised by ranges of days", () => {
  const hours = { ...shop.openingHours, 6: [{ opens: "09:30", closes: "13:00" }] };
  expect(summariseOpeningHours(hours, "it")).toBe("Lunedì - Venerdì 09:30-13:00, 16:30-20:00; Sabato 09:30-13:00; Domenica chiuso");
});
