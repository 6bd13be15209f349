import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, test, type Role, type SignedInAccount } from "./fixtures";
import { addToCart, variantIdOf } from "./shop-helpers";
import { deliverOrder, placeHomeDeliveryOrder } from "./checkout-steps";

// Issue 41, exchanges: a customer sends back a size for another of the same product; the other size is
// set aside at once; the staff authorise and receive the parcel, and a replacement order at no charge
// appears for both. Each run buys a product no other journey buys, so the sizes it takes are its own.

const expect = baseExpect.configure({ timeout: 15_000 });

const texts = {
  it: {
    withdraw: "Recedi dal contratto",
    choice: /^Rimborso o cambio per /,
    review: "Continua",
    reviewLine: /Cambio con .+: nessun rimborso per questi pezzi\./,
    confirm: "Conferma il recesso",
    received: /Abbiamo ricevuto la tua dichiarazione di recesso/,
    reserved: "messo da parte",
    fulfilled: "in spedizione",
    authorise: "Autorizza e invia le istruzioni",
    receive: "Registra il reso ricevuto",
    nothingToRefund: "Tutti gli articoli di questo reso sono stati cambiati: nessun rimborso.",
    replacement: /Ordine di sostituzione n. \d+/,
    replacementOf: (number: string) => new RegExp(`Cambio dell'ordine n. ${number}`),
    noWithdrawal: /^Questo ordine è il cambio di un ordine precedente: il recesso l'hai già esercitato/,
  },
  en: {
    withdraw: "Withdraw from contract",
    choice: /^Refund or exchange for /,
    review: "Continue",
    reviewLine: /Exchange for .+: no refund for these items\./,
    confirm: "Confirm withdrawal",
    received: /We received your withdrawal statement/,
    reserved: "set aside",
    fulfilled: "being sent",
    authorise: "Authorise and send the instructions",
    receive: "Record the return as received",
    nothingToRefund: "Every item of this return was exchanged: no refund.",
    replacement: /Replacement order no. \d+/,
    replacementOf: (number: string) => new RegExp(`Exchange for order no. ${number}`),
    noWithdrawal: /^This order is the exchange of an earlier order: you already withdrew/,
  },
} as const;
type Locale = keyof typeof texts;

/** Per language and screen (the runs go in parallel): a product with sizes, the size bought and the one asked for. */
const sizesOf: Record<string, { product: number; colour: string; bought: string; wanted: RegExp }> = {
  "it desktop": { product: 186, colour: "white", bought: "m", wanted: /Bianco · XL$/ },
  "en desktop": { product: 181, colour: "white", bought: "3 mesi", wanted: /White · 6 mesi$/ },
  "it phone": { product: 183, colour: "blue", bought: "0-6 mesi", wanted: /Blu · 18mesi \+$/ },
};

/** A delivered order of one unit of the run's size, and the back office's page that delivered it. */
async function deliveredOrder(
  page: Page,
  browser: Browser,
  signInAs: (context: BrowserContext, role: Role) => Promise<SignedInAccount>,
  locale: Locale,
) {
  const sizes = sizesOf[`${locale} ${test.info().project.name}`]!;
  await addToCart(page, variantIdOf(sizes.product, { colour: sizes.colour, size: sizes.bought }), 1);
  const order = await placeHomeDeliveryOrder(page, locale, { email: `cambio-${crypto.randomBytes(4).toString("hex")}@example.com`, payment: "card" });
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: page.viewportSize() });
  await signInAs(context, "backOffice");
  const staff = await context.newPage();
  await deliverOrder(staff, locale, order.id);
  return { order, staff, wanted: sizes.wanted };
}

/** The customer asks for the other size instead of a refund, reviews and confirms. */
async function askExchange(page: Page, locale: Locale, orderUrl: string, wanted: RegExp, check: (page: Page) => Promise<void>) {
  const t = texts[locale];
  await page.goto(orderUrl);
  await page.getByRole("main").getByRole("link", { name: t.withdraw }).click();
  await page.getByRole("spinbutton").fill("1");
  const choice = page.getByRole("combobox", { name: t.choice });
  const option = choice.getByRole("option", { name: wanted });
  await choice.selectOption({ label: (await option.textContent())! });
  await check(page);
  await page.getByRole("button", { name: t.review }).click();
  await expect(page.getByTestId("exchange-review")).toHaveText(t.reviewLine);
  await check(page);
  await page.getByRole("button", { name: t.confirm }).click();
  await expect(page.getByTestId("withdrawal-received")).toHaveText(t.received);
}

test(
  "a customer exchanges a size; the staff receive the parcel and a replacement order appears for both",
  { tag: "@desktop-only" }, // the staff's screens and the whole flow; the phone has the customer's form below
  async ({ page, browser, signInAs, expectNoAxeViolations }) => {
    test.setTimeout(180_000);
    const t = texts.it;
    const { order, staff, wanted } = await deliveredOrder(page, browser, signInAs, "it");
    await askExchange(page, "it", order.url, wanted, expectNoAxeViolations);
    await expectNoAxeViolations(page);

    // The back office sees the exchange set aside; authorising and receiving makes the replacement order.
    await staff.goto(localizedHref(`/admin/ordini/${order.id}`, "it"));
    await expect(staff.getByTestId("exchange-status")).toHaveText(t.reserved);
    await staff.getByRole("button", { name: t.authorise }).click();
    await staff.getByRole("button", { name: t.receive }).click();
    await expect(staff.getByTestId("exchange-status")).toHaveText(t.fulfilled);
    await expect(staff.getByText(t.nothingToRefund)).toBeVisible();
    await expectNoAxeViolations(staff);
    await staff.getByTestId("replacement-link").click();
    await expect(staff.getByTestId("exchange-of")).toHaveText(t.replacementOf(order.number));
    await expectNoAxeViolations(staff);

    // The customer's order page shows the exchange and its replacement order, which names the original.
    await page.goto(order.url);
    await expect(page.getByTestId("replacement-link")).toHaveText(t.replacement);
    await expectNoAxeViolations(page);
    await page.getByTestId("replacement-link").click();
    await expect(page.getByTestId("exchange-of")).toHaveText(t.replacementOf(order.number));
    // Her right was exercised on the original: the replacement offers no withdrawal, nor another exchange.
    await expect(page.getByText(t.noWithdrawal)).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: t.withdraw })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await staff.context().close();
  },
);

test("a customer exchanges a size; it is set aside (en)", async ({ page, browser, signInAs, expectNoAxeViolations }) => {
  test.setTimeout(120_000);
  const { order, staff, wanted } = await deliveredOrder(page, browser, signInAs, "en");
  await askExchange(page, "en", order.url, wanted, async () => {});
  await page.goto(order.url);
  await expect(page.getByTestId("exchange-status")).toHaveText(texts.en.reserved);
  await expectNoAxeViolations(page);
  await staff.context().close();
});

test(
  "the customer's exchange form on a phone",
  { tag: "@phone-only" }, // the desktop journey above covers the same form
  async ({ page, browser, signInAs, expectNoAxeViolations }) => {
    test.setTimeout(120_000);
    const { order, staff, wanted } = await deliveredOrder(page, browser, signInAs, "it");
    await staff.context().close();
    await askExchange(page, "it", order.url, wanted, expectNoAxeViolations);
  },
);
