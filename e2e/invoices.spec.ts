import crypto from "node:crypto";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, test } from "./fixtures";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";
import { checkoutLabels, fillGuestDelivery } from "./checkout-steps";

// Issue 21, invoices: a customer asks for a private person's invoice at checkout (a wrong codice fiscale is
// refused, the right one accepted), pays, and the staff issue the invoice, print it and download its XML.
// Products of the sample catalogue used by no other journey:
// 155 Libro morbido in stoffa: 12,90 €, stock 40 (the whole journey, desktop)
// 142 Zanzariera per culla e lettino da campeggio: 14,90 €, stock 41 (the checkout's choice on a phone)

const expect = baseExpect.configure({ timeout: 15_000 });
// The refused form answers 400, which Chromium logs as a failed resource.
test.use({ allowedBrowserErrors: [/status of 400/] });
test.describe.configure({ timeout: 180_000 });

const wrongCode = "RSSMRA85T10A562T";
const rightCode = "RSSMRA85T10A562S";

const texts = {
  it: {
    ...checkoutLabels.it,
    privateInvoice: "Sì, come privato (con il codice fiscale)",
    fiscalCode: "Codice fiscale",
    badCode: "Il codice fiscale non è valido: controlla le 16 lettere e cifre (l'ultima è un carattere di controllo).",
    pending: "Hai chiesto la fattura: la emettiamo dopo il pagamento e la trovi qui.",
    requested: `Il cliente chiede la fattura come privato: Giulia Esposito, codice fiscale ${rightCode}.`,
    issue: "Emetti la fattura",
    issued: /Fattura n\. (\d{4}\/\d{4}) emessa\./,
    view: "Vedi e stampa",
    heading: (number: string) => `Fattura n. ${number}`,
    buyer: "Cliente",
    downloadXml: "Scarica l'XML",
    customerIssued: (number: string) => new RegExp(`^Fattura n\\. ${number.replace("/", "\\/")} del `),
    total: "Totale documento: 19,80 €",
    monthTitle: "Fatture del mese",
    downloadMonth: "Scarica zip del mese (XML e CSV)",
  },
  en: {
    ...checkoutLabels.en,
    privateInvoice: "Yes, as a private person (with my codice fiscale)",
    fiscalCode: "Codice fiscale (Italian tax code)",
    badCode: "This codice fiscale is not valid: check its 16 letters and digits (the last one is a check character).",
    pending: "You asked for an invoice: we issue it after payment and you find it here.",
    requested: `The customer asks for an invoice as a private person: Giulia Esposito, codice fiscale ${rightCode}.`,
    issue: "Issue the invoice",
    issued: /Invoice no\. (\d{4}\/\d{4}) issued\./,
    view: "View and print",
    heading: (number: string) => `Invoice no. ${number}`,
    buyer: "Customer",
    downloadXml: "Download the XML",
    customerIssued: (number: string) => new RegExp(`^Invoice no\\. ${number.replace("/", "\\/")} of `),
    total: "Document total: €19.80",
    monthTitle: "Invoices of the month",
    downloadMonth: "Download the month's zip (XML and CSV)",
  },
} as const;
type Locale = keyof typeof texts;

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/invoices-${name}-${test.info().project.name}.png`, fullPage: true });
}

/** A guest's checkout for standard delivery to Rome paying by card, up to the invoice choice. */
async function fillCheckout(page: Page, locale: Locale, productId: number) {
  const t = texts[locale];
  await addToCart(page, variantIdOf(productId));
  await open(page, localizedHref("/checkout", locale));
  const field = (name: string) => page.getByRole("textbox", { name, exact: true });
  await fillGuestDelivery(page, locale, { contact: { email: `fattura-${crypto.randomBytes(4).toString("hex")}@example.com` }, payment: t.card });
  // The codice fiscale shows only once a private person's invoice is chosen (CSS alone).
  await expect(field(t.fiscalCode)).toBeHidden();
  await page.getByRole("radio", { name: t.privateInvoice, exact: true }).check();
  await expect(field(t.fiscalCode)).toBeVisible();
  return field(t.fiscalCode);
}

/** A wrong check character is refused next to the field and in the summary, in the page's language. */
async function refuseWrongCode(page: Page, locale: Locale) {
  const t = texts[locale];
  const code = page.getByRole("textbox", { name: t.fiscalCode, exact: true });
  await code.fill(wrongCode);
  await page.getByRole("checkbox", { name: t.terms }).check();
  await page.getByRole("button", { name: t.place }).click();
  await expect(page.locator("#checkout-fiscalCode-error")).toHaveText(t.badCode);
  await expect(page.getByRole("link", { name: t.badCode })).toBeVisible();
  // The choice and what was typed come back, so only the code needs fixing.
  await expect(page.getByRole("radio", { name: t.privateInvoice, exact: true })).toBeChecked();
  await expect(code).toHaveValue(wrongCode);
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  // The staff's part is the back office on the shop's computer; the phone's part, the checkout's choice, is below.
  test(
    `a private customer's invoice: wrong then right codice fiscale, paid, issued, printed and downloaded (${locale})`,
    {
      tag: "@desktop-only",
    },
    async ({ page, browser, signInAs, expectNoAxeViolations }) => {
      await fillCheckout(page, locale, 155);
      await refuseWrongCode(page, locale);
      await shoot(page, `checkout-refused-${locale}`);
      await expectNoAxeViolations(page);

      await page.getByRole("textbox", { name: t.fiscalCode, exact: true }).fill(rightCode.toLowerCase());
      await page.getByRole("checkbox", { name: t.terms }).check();
      await page.getByRole("button", { name: t.place }).click();
      await expect(page).toHaveURL(/\/pagamento-di-prova\//);
      await page.getByRole("button", { name: t.testPay }).click();
      const heading = page.getByRole("heading", { level: 1, name: t.thanks });
      await expect(heading).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("order-status")).toHaveText(t.paid, { timeout: 20_000 });
      await expect(page.getByText(t.pending)).toBeVisible();
      const orderUrl = page.url();
      const orderId = /\/ordine\/([0-9a-f-]{36})/.exec(orderUrl)![1]!;

      const staff = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
      const staffPage = await staff.newPage();
      await signInAs(staff, "backOffice");
      await open(staffPage, localizedHref(`/admin/ordini/${orderId}`, locale));
      await expect(staffPage.getByText(t.requested)).toBeVisible();
      await staffPage.getByRole("button", { name: t.issue }).click();
      const notice = staffPage.getByText(t.issued);
      await expect(notice).toBeVisible();
      const number = t.issued.exec((await notice.textContent()) ?? "")![1]!;
      await expect(staffPage.getByRole("button", { name: t.issue })).toHaveCount(0);
      await shoot(staffPage, `admin-order-${locale}`);
      await expectNoAxeViolations(staffPage);

      const printable = await staffPage.getByRole("link", { name: t.view }).getAttribute("href");
      await staffPage.goto(printable!);
      await expect(staffPage.getByRole("heading", { level: 1, name: t.heading(number) })).toBeVisible();
      await expect(staffPage.getByRole("region", { name: t.buyer })).toContainText(rightCode);
      await expect(staffPage.getByText(t.total)).toBeVisible();
      await shoot(staffPage, `printable-${locale}`);
      await expectNoAxeViolations(staffPage);

      const [download] = await Promise.all([staffPage.waitForEvent("download"), staffPage.getByRole("link", { name: t.downloadXml }).click()]);
      expect(download.suggestedFilename()).toMatch(/^IT07412580636_[0-9A-Z]F[0-9A-Z]{3}\.xml$/);
      const xml = fs.readFileSync(await download.path(), "utf8");
      expect(xml).toContain('versione="FPR12"');
      expect(xml).toContain(`<CodiceFiscale>${rightCode}</CodiceFiscale>`);
      expect(xml).toContain(`<Numero>${number}</Numero>`);
      expect(xml).toContain("<ImportoTotaleDocumento>19.80</ImportoTotaleDocumento>");

      // The month's list for the accountant has it, and its zip holds the files and the summary.
      await open(staffPage, localizedHref("/admin/fatture", locale));
      const row = staffPage.getByRole("table", { name: t.monthTitle }).getByRole("row").filter({ hasText: number });
      await expect(row).toContainText("Giulia Esposito");
      await shoot(staffPage, `month-${locale}`);
      await expectNoAxeViolations(staffPage);
      const [archive] = await Promise.all([staffPage.waitForEvent("download"), staffPage.getByRole("link", { name: t.downloadMonth }).click()]);
      expect(archive.suggestedFilename()).toMatch(/^fatture-\d{4}-\d{2}\.zip$/);
      const zip = fs.readFileSync(await archive.path());
      expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");
      expect(zip.toString("latin1")).toContain(download.suggestedFilename());
      await staff.close();

      // The customer finds it on the order page, through the same link as before.
      await open(page, orderUrl);
      await expect(page.getByText(t.customerIssued(number))).toBeVisible();
      await page.getByRole("link", { name: t.view }).click();
      await expect(page.getByRole("heading", { level: 1, name: t.heading(number) })).toBeVisible();
      await expectNoAxeViolations(page);
    },
  );
}

// The shop's fiscal data sit in the settings; a refused save changes nothing, so the shared shop stays as it was.
test(
  "the fiscal data are in the settings, and a partita IVA with a wrong check digit is refused",
  { tag: "@desktop-only" },
  async ({ page, signInAs, expectNoAxeViolations }) => {
    await signInAs(page.context(), "backOffice");
    await open(page, "/admin/impostazioni");
    const fiscal = page.locator("form#fiscal");
    await expect(fiscal.getByRole("heading", { name: "Dati fiscali per le fatture" })).toBeVisible();
    await expect(fiscal.getByLabel("Regime fiscale")).toHaveValue("RF01");
    await fiscal.getByLabel("Partita IVA").fill("07412580631");
    await fiscal.getByRole("button", { name: "Salva «Dati fiscali per le fatture»" }).click();
    await expect(fiscal.getByText("La partita IVA ha 11 cifre e l'ultima è di controllo: non torna.")).toBeVisible({ timeout: 20_000 });
    await fiscal.screenshot({ path: `/tmp/invoices-settings-${test.info().project.name}.png` });
    await expectNoAxeViolations(page);
  },
);

// The choice on a phone's screen: the right fields for each answer, and the refusal readable at 375 px.
test(
  "on a phone the invoice choice shows the codice fiscale and refuses a wrong one",
  { tag: "@phone-only" },
  async ({ page, expectNoAxeViolations }) => {
    await fillCheckout(page, "it", 142);
    await shoot(page, "checkout-choice-it");
    await refuseWrongCode(page, "it");
    await shoot(page, "checkout-refused-it");
    await page
      .getByRole("group", { name: "Fattura", exact: true })
      .screenshot({ path: `/tmp/invoices-checkout-section-it-${test.info().project.name}.png` });
    await expectNoAxeViolations(page);

    // Collected in the shop, an invoice still needs the buyer's address; without one the address goes away.
    const postcode = page.getByRole("textbox", { name: "CAP", exact: true });
    await page.getByRole("radio", { name: /^Ritiro in negozio/ }).check();
    await expect(postcode).toBeVisible();
    await expect(page.getByText("Per la fattura serve il tuo indirizzo: compilalo anche se ritiri in negozio.")).toBeVisible();
    await page.getByRole("radio", { name: "No, grazie", exact: true }).check();
    await expect(postcode).toBeHidden();
    await expect(page.getByText("Per la fattura serve il tuo indirizzo: compilalo anche se ritiri in negozio.")).toBeHidden();
  },
);
