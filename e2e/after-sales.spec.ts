import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { formatMoney } from "../common/format";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, longJourneyLocales, test, type Role, type SignedInAccount } from "./fixtures";
import { addToCart, variantIdOf } from "./shop-helpers";
import { deliverOrder, placeHomeDeliveryOrder } from "./checkout-steps";

// Issue 21, after the sale: a customer withdraws from two of three lines of a delivered card order (the
// personalised third cannot be withdrawn), the acknowledgement is in the outbox with its time, the staff
// authorise, receive (back in stock) and refund part of it; a cash-on-delivery order's withdrawal asks
// for an IBAN and its refund waits in the staff's "to pay back" list.
// Each run buys products no other journey buys, so the stock movements it checks are its own.

const expect = baseExpect.configure({ timeout: 15_000 });
// Bad input (a wrong IBAN) is answered 400, which Chromium may log.
test.use({ allowedBrowserErrors: [/status of 400/] });

const texts = {
  it: {
    panel: "Diritto di recesso",
    withdraw: "Recedi dal contratto",
    personalised: /Non si può recedere: articolo personalizzato/,
    review: "Continua",
    step2: "Passo 2 di 2: conferma",
    confirm: "Conferma il recesso",
    received: /Abbiamo ricevuto la tua dichiarazione di recesso il .+\d{2}:\d{2}:\d{2}/,
    iban: "IBAN per il rimborso",
    badIban: "IBAN non valido: controlla le cifre.",
    ackSubject: (number: string) => `Recesso ricevuto: ordine n. ${number}`,
    authorisedSubject: (number: string) => new RegExp(`Reso n. \\d+ autorizzato: ordine n. ${number}`),
    refundSubject: (number: string) => `Rimborso eseguito: ordine n. ${number}`,
    statement: "Ricevuta il",
    countdown: /Rimborso entro .+: mancano 14 giorni\./,
    authorise: "Autorizza e invia le istruzioni",
    receive: "Registra il reso ricevuto",
    refundCard: "Rimborsa sulla carta",
    refundBank: "Registra il rimborso con bonifico",
    refundedCard: (amount: string) => `Rimborso di ${amount} eseguito sulla carta il`,
    amountFor: /^Importo per /,
    toPayBack: /Da restituire con bonifico: .+ su IBAN IT60X0542811101000000123456/,
    toPayBackTitle: "Rimborsi da fare con bonifico",
    markPaid: "Segna il bonifico come fatto",
    paidBack: "Bonifico segnato come fatto.",
    history: (amount: string) => `Rimborso di ${amount} eseguito (sulla carta)`,
    status: "Stato: Completato",
    movements: "Storico movimenti",
  },
  en: {
    panel: "Right of withdrawal",
    withdraw: "Withdraw from contract",
    personalised: /No withdrawal: the item was personalised at your request/,
    review: "Continue",
    step2: "Step 2 of 2: confirm",
    confirm: "Confirm withdrawal",
    received: /We received your withdrawal statement on .+\d{2}:\d{2}:\d{2}/,
    iban: "IBAN for the refund",
    badIban: "Invalid IBAN: check the digits.",
    ackSubject: (number: string) => `Withdrawal received: order no. ${number}`,
    authorisedSubject: (number: string) => new RegExp(`Return no. \\d+ authorised: order no. ${number}`),
    refundSubject: (number: string) => `Refund made: order no. ${number}`,
    statement: "Received on",
    countdown: /Refund by .+: 14 days left\./,
    authorise: "Authorise and send the instructions",
    receive: "Record the return as received",
    refundCard: "Refund to the card",
    refundBank: "Record the refund by bank transfer",
    refundedCard: (amount: string) => `Refund of ${amount} made to the card on`,
    amountFor: /^Amount for /,
    toPayBack: /To pay back by bank transfer: .+ to IBAN IT60X0542811101000000123456/,
    toPayBackTitle: "Refunds to pay by bank transfer",
    markPaid: "Mark the transfer as made",
    paidBack: "Transfer marked as made.",
    history: (amount: string) => `Refund of ${amount} made (to the card)`,
    status: "Status: Completed",
    movements: "Stock movements",
  },
} as const;
type Locale = keyof typeof texts;

/** Products only this journey buys, per language and screen (the runs go in parallel). */
const productsOf: Record<string, { gym: number; toy: number; cod: number }> = {
  "it desktop": { gym: 158, toy: 152, cod: 169 },
  "en desktop": { gym: 157, toy: 156, cod: 170 },
  "it phone": { gym: 154, toy: 151, cod: 189 },
  "en phone": { gym: 164, toy: 166, cod: 193 },
};
// 111: the wooden frame with an engraved name (two personalisation fields)
const frame = 111;

const newEmail = () => `recesso-${crypto.randomBytes(4).toString("hex")}@example.com`;

async function staffPage(browser: Browser, signInAs: (context: BrowserContext, role: Role) => Promise<SignedInAccount>, page: Page) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: page.viewportSize() });
  await signInAs(context, "backOffice");
  return context.newPage();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${page.viewportSize()?.width}.png`), fullPage: true });
}

for (const locale of longJourneyLocales) {
  const t = texts[locale];

  test(`a customer withdraws from two of three lines; the staff authorise, restock and refund part (${locale})`, async ({
    page,
    browser,
    signInAs,
    expectNoAxeViolations,
  }) => {
    test.setTimeout(180_000);
    const products = productsOf[`${locale} ${test.info().project.name}`]!;
    await addToCart(page, variantIdOf(products.gym), 2);
    await addToCart(page, variantIdOf(products.toy), 1);
    await addToCart(page, variantIdOf(frame), 1, { personalisation: { "personalisation.0": "Luca", "personalisation.1": "12 maggio 2025" } });
    const order = await placeHomeDeliveryOrder(page, locale, { email: newEmail(), payment: "card" });
    const staff = await staffPage(browser, signInAs, page);
    await deliverOrder(staff, locale, order.id);

    // The order page offers the withdrawal; the personalised frame cannot be withdrawn, and says why.
    await page.goto(order.url);
    await expect(page.getByRole("heading", { name: t.panel })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: t.withdraw }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.withdraw })).toBeVisible();
    const lines = page.getByTestId("withdrawal-line");
    await expect(lines).toHaveCount(3);
    await expect(lines.filter({ hasText: t.personalised })).toHaveCount(1);
    const quantities = page.getByRole("spinbutton");
    await expect(quantities).toHaveCount(2);
    await quantities.nth(0).fill("1");
    await quantities.nth(1).fill("1");
    await expectNoAxeViolations(page);
    await shot(page, `withdrawal-step1-${locale}`);
    await page.getByRole("button", { name: t.review }).click();
    await expect(page.getByRole("heading", { name: t.step2 })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: t.confirm }).click();
    await expect(page.getByTestId("withdrawal-received")).toHaveText(t.received);
    await expectNoAxeViolations(page);
    await shot(page, `withdrawal-received-${locale}`);

    // The acknowledgement went out at once: the outbox has it, with the time it was queued.
    await staff.goto(localizedHref("/admin/posta", locale));
    const ack = staff.getByRole("row").filter({ hasText: t.ackSubject(order.number) });
    await expect(ack).toHaveCount(1);
    await expect(ack).toContainText(/\d{1,2}:\d{2}/);

    // The statement as received, the return's countdown; authorise, receive back on the shelf, refund part.
    await staff.goto(localizedHref(`/admin/ordini/${order.id}`, locale));
    await expect(staff.getByTestId("withdrawal-statement")).toContainText(t.statement);
    await expect(staff.getByTestId("refund-countdown")).toHaveText(t.countdown);
    await staff.getByRole("button", { name: t.authorise }).click();
    await staff.getByRole("button", { name: t.receive }).click();
    await expectNoAxeViolations(staff);
    await shot(staff, `admin-return-received-${locale}`);
    // Part of it: the first line as proposed (its share of what was paid), 10 euros for the other.
    const amounts = staff.getByRole("textbox", { name: t.amountFor });
    await expect(amounts).toHaveCount(2);
    const firstCents = Math.round(Number((await amounts.nth(0).inputValue()).replace(",", ".")) * 100);
    await amounts.nth(1).fill("10,00");
    const refunded = formatMoney(firstCents + 1000, locale);
    await staff.getByRole("button", { name: t.refundCard }).click();
    await expect(staff.getByTestId("refund-state")).toContainText(t.refundedCard(refunded));
    await expect(staff.getByTestId("refund-countdown")).toHaveCount(0);
    await expect(staff.getByText(t.status)).toBeVisible();
    await staff.goto(localizedHref("/admin/posta", locale));
    await expect(staff.getByRole("row").filter({ hasText: t.authorisedSubject(order.number) })).toHaveCount(1);
    await expect(staff.getByRole("row").filter({ hasText: t.refundSubject(order.number) })).toHaveCount(1);
    // One unit of each withdrawn product is back in stock.
    for (const productId of [products.gym, products.toy]) {
      await staff.goto(localizedHref(`/admin/prodotti/${productId}`, locale));
      await expect(staff.getByRole("listitem").filter({ hasText: "return-received" }).first()).toContainText("+1");
    }

    // The customer's order page tells every step, the refund with its amount; the second unit of the first line may still go back.
    await page.goto(order.url);
    await expect(page.getByText(t.history(refunded))).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: t.withdraw })).toBeVisible();
    await expectNoAxeViolations(page);
    await staff.context().close();
  });
}

// The file's second long journey in English (longJourneyLocales).
for (const locale of ["en"] as readonly Locale[]) {
  const t = texts[locale];

  // Desktop only: the same withdrawal form as the journey above, which runs on the phone.
  test(
    `a cash-on-delivery withdrawal asks for an IBAN; its refund waits in the list to pay back (${locale})`,
    { tag: "@desktop-only" },
    async ({ page, browser, signInAs, expectNoAxeViolations }) => {
      test.setTimeout(180_000);
      const products = productsOf[`${locale} ${test.info().project.name}`]!;
      await addToCart(page, variantIdOf(products.cod), 1);
      const order = await placeHomeDeliveryOrder(page, locale, { email: newEmail(), payment: "cod" });
      const staff = await staffPage(browser, signInAs, page);
      await deliverOrder(staff, locale, order.id);

      await page.goto(order.url);
      await page.getByRole("main").getByRole("link", { name: t.withdraw }).click();
      await page.getByRole("spinbutton").fill("1");
      await page.getByRole("textbox", { name: t.iban }).fill("IT60 X054 2811 1010 0000 0123 457");
      await page.getByRole("button", { name: t.review }).click();
      await expect(page.getByText(t.badIban)).toBeVisible();
      await expectNoAxeViolations(page);
      await page.getByRole("textbox", { name: t.iban }).fill("IT60 X054 2811 1010 0000 0123 456");
      await page.getByRole("button", { name: t.review }).click();
      await page.getByRole("button", { name: t.confirm }).click();
      await expect(page.getByTestId("withdrawal-received")).toHaveText(t.received);

      await staff.goto(localizedHref(`/admin/ordini/${order.id}`, locale));
      await staff.getByRole("button", { name: t.authorise }).click();
      await staff.getByRole("button", { name: t.receive }).click();
      await expect(staff.getByRole("textbox", { name: /IBAN/ })).toHaveValue("IT60X0542811101000000123456");
      await staff.getByRole("button", { name: t.refundBank }).click();
      await expect(staff.getByTestId("refund-state")).toHaveText(t.toPayBack);
      await staff.goto(localizedHref("/admin/rimborsi", locale));
      const row = staff.getByRole("row").filter({ hasText: order.number });
      await expect(row).toContainText("IT60X0542811101000000123456");
      await expectNoAxeViolations(staff);
      await shot(staff, `admin-to-pay-back-${locale}`);
      await row.getByRole("button", { name: t.markPaid }).click();
      await expect(staff.getByText(t.paidBack)).toBeVisible();
      await staff.goto(localizedHref("/admin/posta", locale));
      await expect(staff.getByRole("row").filter({ hasText: t.refundSubject(order.number) })).toHaveCount(1);
      await staff.context().close();
    },
  );
}
