import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { localizedHref, type Locale } from "../common/locale";
import { sampleCatalogue } from "../server/db/sample-catalogue";
import { expect, longJourneyLocales, test } from "./fixtures";
import { addToCart, openHydrated as open, postToCart, variantIdOf } from "./shop-helpers";
import { checkoutLabels, placeGuestOrder } from "./checkout-steps";

// GPSR (Regulation (EU) 2023/988): every product page shows its safety section (manufacturer, EU responsible
// person, identification, warnings); the staff recall a variant, its sale stops, every buyer is told once by
// mail and the product's page carries the notice. Products here are used by no other journey: 121 (an EU
// manufacturer's car seat), 122 (a non-EU manufacturer's, with its EU responsible person), and one recalled
// product per run: 43 (it), 160 (en), 105 (phone).

const nameOf = (productId: number, locale: Locale) => {
  const product = sampleCatalogue.find((entry) => entry.id === productId)!;
  return locale === "en" ? product.nameEn : product.nameIt;
};

test("it: the product page shows the safety section: manufacturer, identification and the label's warnings", async ({
  page,
  expectNoAxeViolations,
}) => {
  await open(page, "/product/121");
  const section = page.getByTestId("product-safety");
  await expect(section.getByRole("heading", { level: 2, name: "Sicurezza del prodotto" })).toBeVisible();
  await expect(section).toContainText("Nordwald Kindertechnik GmbH");
  await expect(section).toContainText("Am Hafen 4, 95030 Hof, Deutschland");
  await expect(section.getByRole("link", { name: "produktsicherheit@nordwald-kinder.example" })).toHaveAttribute(
    "href",
    "mailto:produktsicherheit@nordwald-kinder.example",
  );
  await expect(section).toContainText("Modello: CYB00121");
  await expect(section.getByRole("listitem").filter({ hasText: "Omologato ECE R129 (i-Size) per bambini da 45 a 87 cm." })).toHaveCount(1);
  await expect(section.getByRole("listitem").filter({ hasText: "Non lasciare mai il bambino incustodito." })).toHaveCount(1);
  // An EU manufacturer: no responsible person is named.
  await expect(section).not.toContainText("Persona responsabile nell'UE");
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("safety-it.png"), fullPage: false });
  await expectNoAxeViolations(page);
});

// Desktop only: English copy: the phone runs the Italian pages.
test(
  "the English page names the non-EU manufacturer's EU responsible person, warnings in English",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await open(page, "/en/product/122");
    const section = page.getByTestId("product-safety");
    await expect(section.getByRole("heading", { level: 2, name: "Product safety" })).toBeVisible();
    await expect(section).toContainText("Manufacturer");
    await expect(section).toContainText("Harbourline Nursery Ltd");
    await expect(section).toContainText("14 Quay Street, Manchester M3 3HN, United Kingdom");
    await expect(section).toContainText("EU responsible person");
    await expect(section).toContainText("EuroSafe Rappresentanze S.r.l.");
    await expect(section.getByRole("listitem").filter({ hasText: "Never fit rear-facing on a seat with an active frontal airbag." })).toHaveCount(1);
    await expect(section.getByRole("listitem").filter({ hasText: "Approved to ECE R129 (i-Size) for children from 40 to 105 cm." })).toHaveCount(1);
    // schema.org's manufacturer and model are in the page's structured data.
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(jsonLd.join("\n")).toContain('"manufacturer":{"@type":"Organization","name":"Harbourline Nursery Ltd"');
    expect(jsonLd.join("\n")).toContain('"model":"JOI00122"');
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("safety-en.png"), fullPage: false });
    await expectNoAxeViolations(page);
  },
);

const texts = {
  it: {
    ...checkoutLabels.it,
    title: "Richiami",
    variant: (colour: string) => new RegExp(`· ${colour}( \\(|$)`),
    colours: { black: "Nero", blue: "Blu", brown: "Marrone", white: "Bianco" },
    hazard: "Il pericolo (italiano)",
    submit: "Richiama e ferma la vendita",
    recalled: "Prodotto richiamato: la vendita è ferma.",
    twice: "Questo prodotto (o una delle varianti scelte) è già stato richiamato: nessuna modifica.",
    notYet: "Non ancora",
    send: "Invia l'avviso a chi non è ancora stato avvisato",
    sent: "Avviso messo in coda per 2 acquirenti; 0 erano già stati avvisati.",
    sentAgain: "Avviso messo in coda per 0 acquirenti; 2 erano già stati avvisati.",
    outbox: "Posta in uscita",
    subject: (name: string) => `Richiamo di sicurezza: ${name}`,
    notice: "Richiamo di sicurezza",
    notForSale: "Non più in vendita: richiamato per motivi di sicurezza.",
    refused: "Questo prodotto è stato richiamato per motivi di sicurezza e non è più in vendita.",
    hazardText: "La fibbia della cintura può aprirsi da sola: rischio di caduta.",
  },
  en: {
    ...checkoutLabels.en,
    title: "Recalls",
    variant: (colour: string) => new RegExp(`· ${colour}( \\(|$)`),
    colours: { black: "Black", blue: "Blue", brown: "Brown", white: "White" },
    hazard: "The hazard (Italian)",
    submit: "Recall and stop the sale",
    recalled: "Product recalled: its sale has stopped.",
    twice: "This product (or one of the chosen variants) has already been recalled: nothing was changed.",
    notYet: "Not yet",
    send: "Send the notice to everyone not yet told",
    sent: "Notice queued for 2 buyers; 0 had already been told.",
    sentAgain: "Notice queued for 0 buyers; 2 had already been told.",
    outbox: "Outgoing mail",
    subject: (name: string) => `Safety recall: ${name}`,
    notice: "Safety recall",
    notForSale: "No longer for sale: recalled for safety reasons.",
    refused: "This product has been recalled for safety reasons and is no longer for sale.",
    hazardText: "The harness buckle may open by itself: fall hazard.",
  },
} as const;

async function staffPage(browser: Browser, signInAs: (context: BrowserContext, role: "backOffice") => Promise<unknown>): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInAs(context, "backOffice");
  return context.newPage();
}

/** The recall form of the open page filled in both languages for the variant of `colour`, sent. */
async function recall(staff: Page, locale: Locale, colour: keyof (typeof texts)["it"]["colours"]) {
  const t = texts[locale];
  await staff.getByRole("checkbox", { name: t.variant(t.colours[colour]) }).check();
  const fill = async (label: string, value: string) => staff.getByRole("textbox", { name: label }).fill(value);
  await fill(t.hazard, "La fibbia della cintura può aprirsi da sola: rischio di caduta.");
  await fill(locale === "it" ? "Il pericolo (inglese)" : "The hazard (English)", "The harness buckle may open by itself: fall hazard.");
  await fill(locale === "it" ? "Cosa deve fare l'acquirente (italiano)" : "What the buyer should do (Italian)", "Smettere subito di usarlo.");
  await fill(locale === "it" ? "Cosa deve fare l'acquirente (inglese)" : "What the buyer should do (English)", "Stop using it at once.");
  await fill(locale === "it" ? "La soluzione offerta (italiano)" : "The remedy (Italian)", "Rimborso completo in negozio o per bonifico.");
  await fill(locale === "it" ? "La soluzione offerta (inglese)" : "The remedy (English)", "Full refund in the shop or by bank transfer.");
  await staff.getByRole("button", { name: t.submit }).click();
}

/** A guest's cash-on-delivery order of one unit of the variant; the guest's address. */
async function buy(page: Page, locale: Locale, variantId: number) {
  const email = `richiamo-${crypto.randomBytes(4).toString("hex")}@example.com`;
  await page.context().clearCookies();
  await addToCart(page, variantId, 1);
  await open(page, localizedHref("/checkout", locale));
  await placeGuestOrder(page, locale, { email, payment: texts[locale].cod });
  await expect(page.getByTestId("order-status")).toBeVisible({ timeout: 20_000 });
  return email;
}

for (const [locale, productId, colour] of [["it", 43, "black"]] as const satisfies [(typeof longJourneyLocales)[number], number, string][]) {
  // A long journey through two buyers, the staff and the outbox: the large screen (the phone's recalled page is below).
  test(`a recall from the back office stops the sale, tells each buyer once by mail and shows on the product page (${locale}) @desktop-only`, async ({
    page,
    browser,
    signInAs,
    expectNoAxeViolations,
  }) => {
    // Two checkouts, the staff's four posts and the outbox on a busy two-core machine.
    test.setTimeout(360_000);
    const t = texts[locale];
    const variantId = variantIdOf(productId, { colour });
    const buyers = [await buy(page, locale, variantId), await buy(page, locale, variantId)];

    const staff = await staffPage(browser, signInAs);
    await open(staff, localizedHref(`/admin/prodotti/${productId}/sicurezza`, locale));
    await recall(staff, locale, colour);
    // Each post loads the whole page again: slower than the 5 s default on a busy machine.
    await expect(staff.getByRole("status").filter({ hasText: t.recalled })).toBeVisible({ timeout: 20_000 });
    const article = staff.getByTestId("admin-recall");
    await expect(article).toContainText(t.hazardText);
    for (const email of buyers) await expect(article.getByTestId("recall-recipient").filter({ hasText: email })).toContainText(t.notYet);
    await expectNoAxeViolations(staff);

    await article.getByRole("button", { name: t.send }).click();
    await expect(staff.getByRole("status").filter({ hasText: t.sent })).toBeVisible({ timeout: 20_000 });
    await expect(article.getByTestId("recall-recipient").filter({ hasText: t.notYet })).toHaveCount(0);
    // Sent again: nobody is told twice.
    await staff.getByTestId("admin-recall").getByRole("button", { name: t.send }).click();
    await expect(staff.getByRole("status").filter({ hasText: t.sentAgain })).toBeVisible({ timeout: 20_000 });
    // Recalling the same variant again is refused with a message.
    await recall(staff, locale, colour);
    await expect(staff.getByRole("alert").filter({ hasText: t.twice })).toBeVisible({ timeout: 20_000 });
    await staff.screenshot({ path: test.info().outputPath(`recall-admin-${locale}.png`), fullPage: true });

    // The outbox holds one notice per buyer.
    await open(staff, localizedHref("/admin/posta", locale));
    const rows = staff
      .getByRole("table", { name: t.outbox })
      .getByRole("row")
      .filter({ hasText: t.subject(nameOf(productId, locale)) });
    for (const email of buyers) await expect(rows.filter({ hasText: email })).toHaveCount(1);
    await expectNoAxeViolations(staff);

    // The product's page carries the notice; the recalled colour is not sold, by the page or by a direct post.
    await open(page, `${localizedHref(`/product/${productId}`, locale)}?colour=${colour}`);
    const notice = page.getByTestId("recall-notice");
    await expect(notice.getByRole("heading", { level: 2, name: t.notice })).toBeVisible();
    await expect(notice).toContainText(t.hazardText);
    await expect(page.getByText(t.notForSale)).toBeVisible();
    const refused = await postToCart(page, { intent: "add", variantId, quantity: 1 });
    // The cart's post is the Italian path (/cart.data): its refusal speaks Italian.
    expect(refused.text).toContain(texts.it.refused);
    await page.screenshot({ path: test.info().outputPath(`recall-page-${locale}.png`) });
    await expectNoAxeViolations(page);
    await staff.context().close();
  });
}

// The recalled page as a customer sees it on the phone; the staff recall from their own (large) screen.
test("on the phone, a recalled product's page leads with the notice and offers nothing to buy @phone-only", async ({
  page,
  browser,
  signInAs,
  expectNoAxeViolations,
}) => {
  test.setTimeout(120_000);
  const staff = await staffPage(browser, signInAs);
  await open(staff, "/admin/prodotti/105/sicurezza");
  await recall(staff, "it", "white");
  await expect(staff.getByRole("status").filter({ hasText: texts.it.recalled })).toBeVisible({ timeout: 20_000 });
  await staff.context().close();

  await open(page, "/product/105?colour=white");
  const notice = page.getByTestId("recall-notice");
  await expect(notice).toBeInViewport();
  await expect(notice).toContainText(texts.it.hazardText);
  await expect(page.getByText(texts.it.notForSale)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("recall-phone.png") });
  await expectNoAxeViolations(page);
});
