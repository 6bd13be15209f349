/**
 * Every summary a customer reads adds up: the cart's, the checkout's, the order page's (and the back office's,
 * which shows the same lines), the order e-mail's and the invoice's, for each kind of discount and fee.
 */
import { desc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { summarizeCart, type OrderSummary } from "#common/order-summary.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import { checkDiscountCode } from "#server/coupons/coupon.service.ts";
import type { Db } from "#server/db/client.ts";
import { giftListItems, giftLists, orders, outboxEmails } from "#server/db/schema.ts";
import { getCompletionCodes } from "#server/gift-lists/gift-list-completion.service.ts";
import { issueInvoice } from "#server/invoices/invoice.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { newCoupon } from "#tests/fixtures/coupons.fixtures.ts";
import { getOrderView, markOrderPaid } from "./order.service";

const november = new Date("2026-11-26T10:00:00Z");
/** Each journey places, pays, mails and invoices an order: seconds on a busy machine. */
const slow = { timeout: 60_000 };
const privateInvoice = { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" };

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const sumOf = (summary: OrderSummary) => summary.lines.reduce((sum, line) => sum + line.cents, 0);

/** "−15,96 €" -> -1596, "Gratis" -> 0: an amount as the e-mail writes it. */
function centsOfMailText(value: string): number {
  if (value === "Gratis") return 0;
  const match = /^([−+]?)([\d.]+),(\d{2}) €$/.exec(value);
  if (!match) throw new Error(`not an amount: ${value}`);
  const cents = Number(match[2]!.replaceAll(".", "")) * 100 + Number(match[3]);
  return match[1] === "−" ? -cents : cents;
}

/** The e-mail's summary rows, from "Subtotale" to the total, as [label, cents]. */
async function latestMailSummary(db: Db): Promise<{ rows: [string, number][]; totalCents: number }> {
  const [mail] = await db.select().from(outboxEmails).orderBy(desc(outboxEmails.id)).limit(1);
  const text = mail!.textBody.replace(/[\u00a0\u202f]/g, " ").split("\n");
  const start = text.findIndex((line) => line.startsWith("Subtotale: "));
  const end = text.findIndex((line) => line.startsWith("Totale (IVA inclusa): "));
  expect(start).toBeGreaterThan(-1);
  const rows = text.slice(start, end).map((line): [string, number] => {
    const [label, value] = line.split(": ");
    return [label!, centsOfMailText(value!)];
  });
  return { rows, totalCents: centsOfMailText(text[end]!.split(": ")[1]!) };
}

/**
 * The cart (with the code typed there), then the checkout, the placed and paid order, its e-mail and its
 * invoice: each summary adds up to its total, and every one agrees with what the customer is charged.
 */
async function expectEverySummaryAddsUp(
  db: Db,
  args: { cartId: string; form: Record<string, string>; userId?: string | null; now?: Date },
): Promise<{ checkout: OrderSummary; order: OrderSummary }> {
  const now = args.now ?? november;
  const userId = args.userId ?? null;
  const cart = await getCartView(db, { cartId: args.cartId, locale: "it", now });
  const typed = args.form.discountCode ?? null;
  const checked = typed
    ? await checkDiscountCode(db, { typed, userId, email: null, isGiftListCart: false, shipsFree: null, now, lines: cart.lines })
    : null;
  if (checked && !checked.ok) throw new Error(`code refused: ${checked.error}`);
  const cartSummary = summarizeCart(cart.totals, checked?.applied ?? null);
  expect(sumOf(cartSummary)).toBe(cartSummary.totalCents);
  expect(cartSummary.totalCents).toBe(cart.totals.totalCents - (checked?.applied.discountCents ?? 0));

  const input = checkoutInput({ ...privateInvoice, ...args.form });
  const checkout = await getCheckoutSummary(db, {
    cartId: args.cartId,
    locale: "it",
    now,
    postcode: input.postcode ?? null,
    delivery: input.deliveryMethod,
    payment: input.paymentMethod,
    discountCode: typed,
    userId,
  });
  expect(sumOf(checkout.summary)).toBe(checkout.summary.totalCents);
  expect(checkout.summary.totalCents).toBe(checkout.totalCents);
  // The cart's lines are the checkout's before the delivery and the fee.
  expect(checkout.summary.lines.filter((line) => line.kind !== "shipping" && line.kind !== "payment-fee")).toEqual(cartSummary.lines);

  const placed = await placeTestOrder(db, { cartId: args.cartId, userId, input, now });
  if (!placed.ok) throw new Error(`refused: ${placed.error}`);
  const [stored] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  expect(stored!.totalCents).toBe(checkout.totalCents);
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: stored!.totalCents, now });

  const view = (await getOrderView(db, { orderId: placed.orderId, locale: "it" }))!;
  expect(sumOf(view.summary)).toBe(view.summary.totalCents);
  expect(view.summary).toEqual(checkout.summary);

  const mail = await latestMailSummary(db);
  expect(mail.rows.reduce((sum, [, cents]) => sum + cents, 0)).toBe(mail.totalCents);
  expect(mail.totalCents).toBe(stored!.totalCents);

  const invoice = await issueInvoice(db, { orderId: placed.orderId, actorUserId: null, now });
  if (!invoice.ok) throw new Error(invoice.error);
  const { document } = invoice.invoice;
  expect(document.lines.reduce((sum, line) => sum + line.grossCents, 0)).toBe(document.totalCents);
  expect(document.totalCents).toBe(stored!.totalCents);
  return { checkout: checkout.summary, order: view.summary };
}

test("a product on offer: the list price, the offer taken off, the delivery; the total is what is paid", slow, async () => {
  const db = await openDb();
  const sleepsuit = await createProduct(db, { priceCents: 3990, discountPercent: 40 });
  const cartId = await cartWith(db, [{ variantId: sleepsuit.variantId, quantity: 1 }]);
  const { checkout } = await expectEverySummaryAddsUp(db, { cartId, form: {} });
  expect(checkout).toEqual({
    lines: [
      { kind: "subtotal", cents: 3990 },
      { kind: "offers", cents: -1596 },
      { kind: "shipping", cents: 690, toChoose: false },
    ],
    totalCents: 2394 + 690,
  });
});

test("an offer and a percentage code together, paid by bank transfer", slow, async () => {
  const db = await openDb();
  await newCoupon(db);
  const onOffer = await createProduct(db, { priceCents: 2000, discountPercent: 25 });
  const plain = await createProduct(db, { priceCents: 4990 });
  const cartId = await cartWith(db, [
    { variantId: onOffer.variantId, quantity: 2 },
    { variantId: plain.variantId, quantity: 1 },
  ]);
  const { checkout } = await expectEverySummaryAddsUp(db, { cartId, form: { discountCode: "benvenuto-10", paymentMethod: "bank_transfer" } });
  // 10% of 2 × 15 € + 49,90 € = 7,99 €.
  expect(checkout.lines.map((line) => [line.kind, line.cents])).toEqual([
    ["subtotal", 8990],
    ["offers", -1000],
    ["discount-code", -799],
    ["shipping", 690],
  ]);
});

test("a fixed-amount code on a personalised product, with cash on delivery: its fee is a line of its own", slow, async () => {
  const db = await openDb();
  await newCoupon(db, { code: "meno5", kind: "fixed", percent: "", amount: "5,00" });
  const towel = await createProduct(db, {
    priceCents: 2490,
    discountPercent: 10,
    personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 12 }],
    personalisationCostCents: 500,
  });
  const cartId = await cartWith(db, [{ variantId: towel.variantId, quantity: 2, personalisation: { "0": "Sofia" } }]);
  const { checkout } = await expectEverySummaryAddsUp(db, { cartId, form: { discountCode: "meno5", paymentMethod: "cash_on_delivery" } });
  expect(checkout.lines.map((line) => line.kind)).toEqual(["subtotal", "offers", "discount-code", "personalisation", "shipping", "payment-fee"]);
  expect(checkout.lines.find((line) => line.kind === "discount-code")).toMatchObject({ cents: -500, code: "MENO5", percent: null });
});

test("a gift list's completion code, collected in the shop: delivery free, the list's units 10% off", slow, async () => {
  const db = await openDb();
  const afterEvent = new Date("2026-12-05T10:00:00Z");
  const bodysuit = await createProduct(db, { priceCents: 2000, discountPercent: 20 });
  const list = await createGiftList(db, [bodysuit.variantId]);
  await db.update(giftListItems).set({ quantityBought: 1 }).where(eq(giftListItems.id, list.itemIds[0]!));
  const [owner] = await db.select({ id: giftLists.ownerUserId }).from(giftLists).where(eq(giftLists.id, list.id));
  await getCompletionCodes(db, { userId: owner!.id, now: afterEvent });
  const cartId = await cartWith(db, [{ variantId: bodysuit.variantId, quantity: 2 }]);
  const { order } = await expectEverySummaryAddsUp(db, {
    cartId,
    userId: owner!.id,
    now: afterEvent,
    form: { discountCode: `GRAZIE${list.code}`, deliveryMethod: "collection", paymentMethod: "in_shop" },
  });
  // 2 × 16 € at list 20 €; 10% of the 2 units still wished = 3,20 €.
  expect(order.lines.map((line) => [line.kind, line.cents])).toEqual([
    ["subtotal", 4000],
    ["offers", -800],
    ["discount-code", -320],
    ["shipping", 0],
  ]);
  expect(order.totalCents).toBe(2880);
});

test("the checkout before a delivery is chosen: the delivery is to be chosen and adds nothing yet", async () => {
  const db = await openDb();
  const sleepsuit = await createProduct(db, { priceCents: 3990, discountPercent: 40 });
  const cartId = await cartWith(db, [{ variantId: sleepsuit.variantId, quantity: 1 }]);
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now: november, userId: await createUser(db) });
  expect(summary.summary).toEqual({
    lines: [
      { kind: "subtotal", cents: 3990 },
      { kind: "offers", cents: -1596 },
      { kind: "shipping", cents: 0, toChoose: true },
    ],
    totalCents: 2394,
  });
  expect(summary.totalCents).toBe(2394);
});
