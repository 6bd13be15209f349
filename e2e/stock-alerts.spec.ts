import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { localizedHref, type Locale } from "../common/locale";
import { hasBackOfficeAccount } from "./back-office-account";
import { expect, test } from "./fixtures";
import { linkInOutboxMail, openHydrated as open, variantIdOf } from "./shop-helpers";

// "Avvisami quando torna disponibile": a guest asks on a sold-out colour and size, confirms from the mail,
// the staff restock it, and the mail that follows opens the product on that colour and size.
// Product 190 (a bathrobe, blue, sizes X, M, XL, XXL) is sold out in the sample catalogue and no other
// journey uses it; each run takes its own size, so the runs in parallel never touch the same stock.
const productId = 190;
const productName = { it: "Accappatoio in spugna di bambù", en: "Bamboo terry bathrobe" } as const;

const texts = {
  it: {
    title: "Avvisami quando torna disponibile",
    field: "La tua e-mail",
    submit: "Avvisami",
    required: "Scrivi il tuo indirizzo e-mail.",
    sent: /^Quasi fatto!/,
    confirmSubject: `Conferma l'avviso per «${productName.it}»`,
    confirm: "Conferma l'avviso",
    confirmed: /^Avviso confermato\./,
    sizes: "Taglie e scorte",
    waiting: "1 in attesa",
    adjust: "Rettifica scorte",
    variant: "Taglia",
    delta: "Quantità da aggiungere o togliere",
    reason: "Motivo",
    record: "Registra rettifica",
    backSubject: `È tornato disponibile: ${productName.it}`,
    sent1: "1 inviato",
    size: /^Taglia/,
    addToCart: "Aggiungi al carrello",
  },
  en: {
    title: "Tell me when it's back",
    field: "Your e-mail",
    submit: "Notify me",
    required: "Please enter your e-mail address.",
    sent: /^Almost done!/,
    confirmSubject: `Confirm your alert for “${productName.en}”`,
    confirm: "Confirm the alert",
    confirmed: /^Alert confirmed\./,
    sizes: "Sizes and stock",
    waiting: "1 waiting",
    adjust: "Stock adjustment",
    variant: "Size",
    delta: "Quantity to add or remove",
    reason: "Reason",
    record: "Record adjustment",
    backSubject: `Back in stock: ${productName.en}`,
    sent1: "1 sent",
    size: /^Size/,
    addToCart: "Add to cart",
  },
} as const;

/** The staff's browser, signed in to the back office. */
async function staffPage(browser: Browser, signInAs: (context: import("@playwright/test").BrowserContext, role: "backOffice") => Promise<unknown>) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInAs(context, "backOffice");
  return context.newPage();
}

/** The back office's stock adjustment form: `delta` units of the variant, with a reason. */
async function adjustStock(staff: Page, locale: Locale, variantId: number, delta: number) {
  const t = texts[locale];
  const form = staff.getByRole("form", { name: t.adjust });
  await form.getByLabel(t.variant).selectOption(String(variantId));
  await form.getByLabel(t.delta).fill(String(delta));
  await form.getByLabel(t.reason).fill(delta > 0 ? "Arrivo merce" : "Inventario");
  await form.getByRole("button", { name: t.record }).click();
  await expect(staff).toHaveURL(/done=stockAdjusted/);
}

/** The variant's stock as the adjustment form's choice shows it: "blue · m · PIC-00190-BL-M (0)". */
async function stockShown(staff: Page, locale: Locale, variantId: number): Promise<number> {
  const option = staff.getByRole("form", { name: texts[locale].adjust }).locator(`option[value="${variantId}"]`);
  return Number(/\((\d+)\)$/.exec((await option.textContent()) ?? "")![1]);
}

async function journey(page: Page, staff: Page, locale: Locale, size: string, expectNoAxeViolations: (page: Page) => Promise<void>) {
  const t = texts[locale];
  const variantId = variantIdOf(productId, { colour: "blue", size });
  const email = `alert-${locale}-${size}-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const productPath = `${localizedHref(`/product/${productId}`, locale)}?colour=blue&size=${size}`;

  // Sold out to start with (a run before may have restocked it).
  await open(staff, localizedHref(`/admin/prodotti/${productId}`, locale));
  const left = await stockShown(staff, locale, variantId);
  if (left > 0) await adjustStock(staff, locale, variantId, -left);

  // The guest asks on the sold-out size; the answer comes without leaving the page.
  await open(page, productPath);
  const alert = page.locator("main section").filter({ has: page.getByRole("heading", { name: t.title }) });
  await expect(alert).toBeVisible();
  await expectNoAxeViolations(page);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await alert.getByRole("button", { name: t.submit }).click();
  await expect(alert.getByRole("alert")).toHaveText(t.required);
  await expect(alert.getByLabel(t.field)).toHaveAccessibleDescription(t.required);
  await alert.getByLabel(t.field).fill(email);
  await alert.getByRole("button", { name: t.submit }).click();
  await expect(alert.getByRole("status")).toHaveText(t.sent);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expectNoAxeViolations(page);

  // The confirmation mail waits in the outbox; its link opens the confirmation page.
  const confirmLink = await linkInOutboxMail(staff, locale, {
    to: email,
    subject: t.confirmSubject,
    link: /\/avviso-disponibilita\/conferma\?token=/,
  });
  await expectNoAxeViolations(staff);
  await open(page, confirmLink);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: t.confirm }).click();
  await expect(page.getByRole("status").filter({ hasText: t.confirmed })).toBeVisible();

  // The staff see the waiting alert on the size's row, and restock it.
  await open(staff, localizedHref(`/admin/prodotti/${productId}`, locale));
  const sizeRow = staff
    .getByRole("table", { name: t.sizes })
    .getByRole("row")
    .filter({ has: staff.getByRole("cell", { name: `PIC-00190-BL-${size.toUpperCase()}`, exact: true }) });
  await expect(sizeRow).toContainText(t.waiting);
  await expectNoAxeViolations(staff);
  await adjustStock(staff, locale, variantId, 3);
  await expect(sizeRow).toContainText(t.sent1);

  // The mail that follows links to the product on that colour and size, now in stock.
  const productLink = await linkInOutboxMail(staff, locale, { to: email, subject: t.backSubject, link: /\/product\/190\?colour=blue&size=/ });
  expect(productLink).toMatch(new RegExp(`${productPath.replace(/[?]/g, "\\?")}$`));
  await staff.context().close();
  await open(page, productLink);
  const sizeGroup = page.locator("main").getByRole("group", { name: t.size });
  await expect(sizeGroup.getByRole("link", { name: new RegExp(`^${size}\\b`, "i") })).toHaveAttribute("aria-current", "true");
  await expect(page.locator("main").getByRole("button", { name: t.addToCart, exact: true })).toBeEnabled();
  await expect(page.locator("main").getByRole("heading", { name: t.title })).toHaveCount(0);
  await expectNoAxeViolations(page);
}

test.describe("back-in-stock alerts", () => {
  // A refused address is answered 400 (bad input), which Chromium logs as a failed resource.
  test.use({ allowedBrowserErrors: [/status of 400 \(Bad Request\)/] });
  test.skip(!hasBackOfficeAccount(), "the server under test has no back-office account");

  test("a guest asks on a sold-out size, confirms by mail, and the restock's mail opens that size", async ({
    page,
    browser,
    signInAs,
    expectNoAxeViolations,
  }, testInfo) => {
    test.setTimeout(180_000);
    const staff = await staffPage(browser, signInAs);
    await journey(page, staff, "it", testInfo.project.name === "phone" ? "x" : "m", expectNoAxeViolations);
  });
});

test.describe("back-in-stock alerts, signed in", () => {
  // The back-office account has a verified address, as a customer who confirmed theirs: no mail round trip.
  test.use({ signedInAs: "backOffice" });
  test.skip(!hasBackOfficeAccount(), "the server under test has no back-office account");

  // One size of its own, left sold out; the phone runs the guest's journey above.
  test(
    "a customer's click is the confirmation, at the account's address",
    { tag: "@desktop-only" },
    async ({ page, signedIn, expectNoAxeViolations }) => {
      await open(page, `/product/${productId}?colour=blue&size=xxl`);
      const alert = page.locator("main section").filter({ has: page.getByRole("heading", { name: texts.it.title }) });
      await expect(alert).toContainText(`Ti scriviamo a ${signedIn!.email} appena torna`);
      await expect(alert.getByLabel(texts.it.field)).toHaveCount(0);
      await alert.getByRole("button", { name: texts.it.submit }).click();
      await expect(alert.getByRole("status")).toHaveText(`Fatto! Ti scriveremo a ${signedIn!.email} appena torna disponibile.`);
      await expectNoAxeViolations(page);
    },
  );
});
