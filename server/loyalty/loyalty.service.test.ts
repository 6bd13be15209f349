import { and, asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { authoriseReturn, openFaultyReturn, receiveReturn } from "#server/after-sales/returns.service.ts";
import { refundReturn } from "#server/after-sales/refunds.service.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { loyaltyCards, loyaltyEntries, orderLines, orders, outboxEmails, products } from "#server/db/schema.ts";
import { orderFactsOf } from "#server/invoices/invoice.service.ts";
import { cancelOrder } from "#server/orders/order.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { createTestPaymentProvider } from "#server/payments/test-payment.ts";
import { createTestDb } from "#tests/db.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { customerWithPoints } from "#tests/fixtures/loyalty.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder, testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { normaliseCardNumber } from "./loyalty";
import { runLoyaltyJob } from "./loyalty-job";
import { addCounterPoints, getCardOfUser, joinLoyaltyCard, redeemAtCounter } from "./loyalty.service";
import { findCardsForCounter, getLoyaltyCardView } from "./loyalty-view.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-11-20T10:00:00Z");
const days = (count: number, from = now) => new Date(from.getTime() + count * 86_400_000);

async function balanceOf(db: Db, cardId: number) {
  const [card] = await db.select({ balance: loyaltyCards.balance }).from(loyaltyCards).where(eq(loyaltyCards.id, cardId));
  return card!.balance;
}

test("joining is her choice: without consent nothing is made; the card's number carries a check digit; once only", async () => {
  const db = await openDb();
  const userId = await createUser(db);
  expect(await joinLoyaltyCard(db, { userId, consent: false, now })).toEqual({ ok: false, error: "consent-needed" });
  expect(await getCardOfUser(db, userId)).toBeNull();
  const joined = await joinLoyaltyCard(db, { userId, consent: true, now });
  if (!joined.ok) throw new Error(joined.error);
  expect(normaliseCardNumber(joined.card.number)).toBe(joined.card.number);
  expect(joined.card).toMatchObject({ balance: 0, consentVersion: "2026-11" });
  expect(await joinLoyaltyCard(db, { userId, consent: true, now })).toEqual({ ok: false, error: "already-joined" });
  expect(await getLoyaltyCardView(db, userId)).toMatchObject({ number: joined.card.number, balance: 0, history: [] });
});

test("at the counter: a receipt earns its points once, points are redeemed in steps, never below zero; staff find the card", async () => {
  const db = await openDb();
  const { cardId, staffId, number, userId } = await customerWithPoints(db, 0, days(-1));
  const receipt = { cardId, receiptNumber: "SC-0042", receiptCents: 12_490, actorUserId: staffId, now };
  expect(await addCounterPoints(db, receipt)).toEqual({ ok: true, points: 124 });
  expect(await addCounterPoints(db, receipt)).toEqual({ ok: false, error: "receipt-already-counted" });
  expect(await addCounterPoints(db, { ...receipt, receiptNumber: "SC-0043", receiptCents: 60 })).toEqual({ ok: false, error: "nothing-to-earn" });
  await addCounterPoints(db, { ...receipt, receiptNumber: "SC-0044", receiptCents: 40_000 });
  expect(await balanceOf(db, cardId)).toBe(524);
  expect(await redeemAtCounter(db, { cardId, points: 300, actorUserId: staffId, now, note: null })).toEqual({ ok: false, error: "not-a-step" });
  expect(await redeemAtCounter(db, { cardId, points: 500, actorUserId: staffId, now, note: "cassa 1" })).toEqual({ ok: true, discountCents: 500 });
  expect(await redeemAtCounter(db, { cardId, points: 500, actorUserId: staffId, now, note: null })).toEqual({
    ok: false,
    error: "not-enough-points",
  });
  expect(await balanceOf(db, cardId)).toBe(24);
  const entries = await db.select().from(loyaltyEntries).where(eq(loyaltyEntries.cardId, cardId)).orderBy(asc(loyaltyEntries.id));
  expect(entries.map((entry) => [entry.kind, entry.points, entry.actorKind, entry.actorUserId])).toEqual([
    ["counter-earned", 124, "staff", staffId],
    ["counter-earned", 400, "staff", staffId],
    ["counter-redeemed", -500, "staff", staffId],
  ]);
  // The oldest points went first.
  expect(entries.map((entry) => entry.remaining)).toEqual([0, 24, 0]);
  expect((await findCardsForCounter(db, number.replace(/(.{4})/g, "$1 "))).map((row) => row.cardId)).toEqual([cardId]);
  expect((await findCardsForCounter(db, `${userId}@example.com`)).map((row) => row.cardId)).toEqual([cardId]);
  expect(await findCardsForCounter(db, "270000000071")).toEqual([]);
});

test("at checkout: points are a discount on the goods, shared over the lines, never on infant formula; the card pays once", async () => {
  const db = await openDb();
  const { userId, cardId } = await customerWithPoints(db, 1800, days(-1));
  const stroller = await createProduct(db, { priceCents: 2000 });
  const formula = await createProduct(db, { priceCents: 2390, vatRatePercent: 10 });
  const bib = await createProduct(db, { priceCents: 1000 });
  await db.update(products).set({ isLoyaltyExcluded: true }).where(eq(products.id, formula.productId));
  const cartId = await cartWith(db, [
    { variantId: stroller.variantId, quantity: 1 },
    { variantId: formula.variantId, quantity: 1 },
    { variantId: bib.variantId, quantity: 1 },
  ]);
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now, userId, loyaltyPoints: 1000 });
  expect(summary.loyalty).toMatchObject({ balance: 1800, maxSteps: 3, points: 1000, discountCents: 1000, hasExcludedLines: true });
  expect(summary.summary.lines).toContainEqual({ kind: "loyalty-points", cents: -1000, points: 1000 });
  expect(summary.summary.totalCents).toBe(2000 + 2390 + 1000 - 1000);
  // Asking more than the goods allow, or not a step, changes nothing and says why.
  const tooMany = await getCheckoutSummary(db, { cartId, locale: "it", now, userId, loyaltyPoints: 3500 });
  expect([tooMany.loyaltyError, tooMany.totalCents]).toEqual(["not-enough-points", 5390]);
  expect((await getCheckoutSummary(db, { cartId, locale: "it", now, userId: null, loyaltyPoints: 500 })).loyaltyError).toBe("no-card");

  const refused = await placeTestOrder(db, { cartId, userId, input: checkoutInput({ loyaltyPoints: "700" }), now });
  expect(refused).toEqual({ ok: false, error: "loyalty-points", loyaltyError: "not-a-step" });
  const guest = await placeTestOrder(db, { cartId, userId: null, input: checkoutInput({ loyaltyPoints: "500" }), now });
  expect(guest).toEqual({ ok: false, error: "loyalty-points", loyaltyError: "no-card" });
  const placed = await placeTestOrder(db, { cartId, userId, input: checkoutInput({ loyaltyPoints: "1000", paymentMethod: "bank_transfer" }), now });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  expect(order).toMatchObject({ loyaltyPointsRedeemed: 1000, loyaltyDiscountCents: 1000, subtotalCents: 5390 - 1000 });
  expect(order!.totalCents).toBe(4390 + order!.shippingCents + order!.paymentFeeCents);
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId));
  const lineOf = (productId: number) => lines.find((line) => line.productId === productId)!;
  expect(
    [lineOf(stroller.productId), lineOf(formula.productId), lineOf(bib.productId)].map((line) => [line.loyaltyDiscountCents, line.isLoyaltyExcluded]),
  ).toEqual([
    [667, false],
    [0, true],
    [333, false],
  ]);
  // The invoice bills each line at what was paid: the points reduce the VAT base of the goods they paid for.
  const facts = orderFactsOf(order!, lines);
  expect(facts.lines.reduce((sum, line) => sum + line.lineTotalCents, 0) + facts.shippingCents + facts.paymentFeeCents).toBe(order!.totalCents);
  const view = await getOrderView(db, { orderId: placed.orderId, locale: "it" });
  expect(view!.summary.lines).toContainEqual({ kind: "loyalty-points", cents: -1000, points: 1000 });
  expect(view!.summary.totalCents).toBe(order!.totalCents);
  expect(await balanceOf(db, cardId)).toBe(800);

  // Cancelled before it was paid: the points come back, once.
  await cancelOrder(db, { orderId: placed.orderId, now: days(1), actorUserId: null, note: "test" });
  await cancelOrder(db, { orderId: placed.orderId, now: days(1), actorUserId: null, note: "test" });
  expect(await balanceOf(db, cardId)).toBe(1800);
  const kinds = await db
    .select({ kind: loyaltyEntries.kind, points: loyaltyEntries.points })
    .from(loyaltyEntries)
    .where(eq(loyaltyEntries.orderId, placed.orderId));
  expect(kinds).toEqual([
    { kind: "order-redeemed", points: -1000 },
    { kind: "order-returned", points: 1000 },
  ]);
});

test("an online order earns its points when the withdrawal period ends; a refund after that takes back its share", async () => {
  const db = await openDb();
  // Joined before ordering: only orders placed after joining earn points.
  const { userId, cardId } = await customerWithPoints(db, 0, days(-60));
  const placedAt = days(-40);
  const order = await deliveredOrder(db, { userId, placedAt, deliveredAt: days(-39) });
  // Goods paid: 2 bibs 20 EUR, blanket 25 EUR, towel 12 + 3 EUR name = 60 EUR.
  const early = await runLoyaltyJob(db, { now: days(-30), publicUrl: testPublicUrl });
  expect(early.credited).toBe(0);
  const settled = await runLoyaltyJob(db, { now, publicUrl: testPublicUrl });
  expect(settled.credited).toBe(60);
  expect((await runLoyaltyJob(db, { now, publicUrl: testPublicUrl })).credited).toBe(0);
  expect(await balanceOf(db, cardId)).toBe(60);

  const opened = await openFaultyReturn(db, {
    orderId: order.orderId,
    lines: [{ orderLineId: order.blanket.id, quantity: 1 }],
    refundIban: "IT60X0542811101000000123456",
    now,
  });
  if (!opened.ok) throw new Error(opened.error);
  await authoriseReturn(db, { returnId: opened.returnId, now, links: null });
  await receiveReturn(db, {
    returnId: opened.returnId,
    lines: [{ orderLineId: order.blanket.id, restocked: 1, damaged: 0, damageReason: null }],
    actorUserId: null,
    now,
  });
  const provider = createTestPaymentProvider(db, testPublicUrl);
  const refunded = await refundReturn(
    { db, provider: () => provider, links: afterSalesLinks },
    {
      returnId: opened.returnId,
      lines: [{ orderLineId: order.blanket.id, amountCents: 2500 }],
      includeDelivery: false,
      actorUserId: null,
      now: days(1),
    },
  );
  expect(refunded.ok).toBe(true);
  expect((await runLoyaltyJob(db, { now: days(2), publicUrl: testPublicUrl })).takenBack).toBe(25);
  expect((await runLoyaltyJob(db, { now: days(3), publicUrl: testPublicUrl })).takenBack).toBe(0);
  expect(await balanceOf(db, cardId)).toBe(35);
  const history = (await getLoyaltyCardView(db, userId))!.history;
  expect(history.map((row) => [row.kind, row.points, row.orderNumber, row.actorKind])).toEqual([
    ["refund-taken-back", -25, order.orderNumber, "job"],
    ["order-earned", 60, order.orderNumber, "job"],
  ]);
});

test("points about to expire get one statement mail per expiry; then they expire with an entry", async () => {
  const db = await openDb();
  const { userId, cardId, staffId } = await customerWithPoints(db, 0, days(-1));
  await addCounterPoints(db, { cardId, receiptNumber: "SC-1", receiptCents: 5000, actorUserId: staffId, now });
  const [lot] = await db.select({ expiresAt: loyaltyEntries.expiresAt }).from(loyaltyEntries).where(eq(loyaltyEntries.cardId, cardId));
  const expiresAt = lot!.expiresAt!;
  expect((await runLoyaltyJob(db, { now: days(-40, expiresAt), publicUrl: testPublicUrl })).statements).toBe(0);
  expect((await runLoyaltyJob(db, { now: days(-20, expiresAt), publicUrl: testPublicUrl })).statements).toBe(1);
  expect((await runLoyaltyJob(db, { now: days(-10, expiresAt), publicUrl: testPublicUrl })).statements).toBe(0);
  const mails = await db
    .select()
    .from(outboxEmails)
    .where(and(eq(outboxEmails.toAddress, `${userId}@example.com`), eq(outboxEmails.kind, "loyalty-statement")));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toContain("50 punti della tua carta scadono il 30 novembre 2028");
  expect(mails[0]!.textBody).toContain(`${testPublicUrl}/carta-fedelta`);
  const expired = await runLoyaltyJob(db, { now: days(1, expiresAt), publicUrl: testPublicUrl });
  expect(expired.expired).toBe(50);
  expect(await balanceOf(db, cardId)).toBe(0);
  expect((await getLoyaltyCardView(db, userId))!.history[0]).toMatchObject({ kind: "expired", points: -50, actorKind: "job" });
});
