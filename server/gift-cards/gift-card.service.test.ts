import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { giftCardMovements, giftCards, orders, payments } from "#server/db/schema.ts";
import { cancelOrder, changeOrderStatus, expireOrder, markOrderPaid } from "#server/orders/order.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import {
  checkGiftCardBalance,
  deactivateGiftCard,
  expireGiftCards,
  getGiftCard,
  giftCardLookupRule,
  issueGiftCard,
  listGiftCards,
} from "./gift-card.service";
import { newGiftCardCode } from "./gift-card";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-11-20T10:00:00Z");

async function balanceOf(db: Db, id: number) {
  const [row] = await db.select({ balanceCents: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, id));
  return row!.balanceCents;
}

async function kindsOf(db: Db, id: number) {
  const rows = await db
    .select({ kind: giftCardMovements.kind, amountCents: giftCardMovements.amountCents })
    .from(giftCardMovements)
    .where(eq(giftCardMovements.giftCardId, id))
    .orderBy(asc(giftCardMovements.id));
  return rows.map((row) => `${row.kind} ${row.amountCents}`);
}

/** A cart of one 89,90 € product (standard delivery 6,90 €: 96,80 € in all), placed by bank transfer with the card. */
async function orderWithCard(db: Db, code: string, priceCents = 8990) {
  const { variantId } = await createProduct(db, { priceCents, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const result = await placeTestOrder(db, { cartId, now, input: checkoutInput({ paymentMethod: "bank_transfer", giftCardCode: code }) });
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  return { result, order: order!, variantId };
}

test("a card sold at the counter: its code is shown once, only its hash is kept, and its balance can be checked", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 5000, now, actorUserId: null });
  expect(card.code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  const [row] = await db.select().from(giftCards).where(eq(giftCards.id, card.id));
  expect(row!.codeHash).not.toContain(card.code.replace(/-/g, ""));
  expect(row!.codeTail).toBe(card.code.slice(-4));
  // Two years by default.
  expect(row!.expiresAt).toEqual(new Date("2028-11-20T10:00:00Z"));
  const checked = await checkGiftCardBalance(db, { code: card.code.toLowerCase(), clientIp: "10.0.0.1", now });
  expect(checked).toMatchObject({ ok: true, balance: { balanceCents: 5000, initialCents: 5000, codeTail: card.code.slice(-4) } });
  expect(await listGiftCards(db, { search: card.code.slice(-4) })).toMatchObject([{ id: card.id, balanceCents: 5000, origin: "counter" }]);
  expect(await listGiftCards(db, { search: card.code })).toHaveLength(1);
});

test("typos are refused without counting; unknown codes count and the address is throttled past the limit", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 2500, now });
  const body = card.code.replace(/-/g, "");
  const typo = (body[0] === "A" ? "B" : "A") + body.slice(1);
  for (let i = 0; i < giftCardLookupRule.max + 5; i += 1) {
    expect(await checkGiftCardBalance(db, { code: typo, clientIp: "10.0.0.2", now })).toEqual({ ok: false, error: "invalid-code" });
  }
  // Well formed, never issued.
  const other = newGiftCardCode();
  for (let i = 0; i < giftCardLookupRule.max; i += 1) {
    expect(await checkGiftCardBalance(db, { code: other, clientIp: "10.0.0.3", now })).toEqual({ ok: false, error: "not-found" });
  }
  expect(await checkGiftCardBalance(db, { code: other, clientIp: "10.0.0.3", now })).toEqual({ ok: false, error: "throttled" });
  expect(await checkGiftCardBalance(db, { code: card.code, clientIp: "10.0.0.3", now })).toEqual({ ok: false, error: "throttled" });
  expect((await checkGiftCardBalance(db, { code: card.code, clientIp: "10.0.0.4", now })).ok).toBe(true);
});

test("a card paying part of an order: the total stays, 'paid with gift card' and 'still to pay' follow it, the transfer asks for the rest", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 5000, now });
  const { variantId } = await createProduct(db, { priceCents: 8990, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const summary = await getCheckoutSummary(db, {
    cartId,
    locale: "it",
    now,
    postcode: "20121",
    delivery: "standard",
    payment: "bank_transfer",
    giftCardCode: card.code,
  });
  expect(summary.totalCents).toBe(9680);
  expect(summary.summary.totalCents).toBe(9680);
  expect(summary.summary.payments).toEqual({ giftCardCents: 5000, stillToPayCents: 4680 });
  expect(summary.giftCard).toEqual({ codeTail: card.code.slice(-4), cents: 5000, balanceCents: 5000 });
  // Nothing is taken by the summary.
  expect(await balanceOf(db, card.id)).toBe(5000);

  const placed = await placeTestOrder(db, { cartId, now, input: checkoutInput({ paymentMethod: "bank_transfer", giftCardCode: card.code }) });
  expect(placed).toMatchObject({ ok: true, status: "awaiting_payment" });
  if (!placed.ok) return;
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  expect(order).toMatchObject({ totalCents: 9680, giftCardCents: 5000, subtotalCents: 8990, discountCents: 0 });
  expect(await db.select({ provider: payments.provider, amountCents: payments.amountCents }).from(payments)).toEqual([
    { provider: "bank_transfer", amountCents: 4680 },
  ]);
  expect(await balanceOf(db, card.id)).toBe(0);
  expect(await kindsOf(db, card.id)).toEqual(["issue 5000", "spend -5000"]);
  const view = await getOrderView(db, { orderId: placed.orderId, locale: "it" });
  expect(view!.summary.totalCents).toBe(9680);
  expect(view!.summary.payments).toEqual({ giftCardCents: 5000, stillToPayCents: 4680 });
  // Spent: a second order with it is refused, nothing placed.
  const again = await cartWith(db, [{ variantId, quantity: 1 }]);
  expect(await placeTestOrder(db, { cartId: again, now, input: checkoutInput({ giftCardCode: card.code }) })).toEqual({
    ok: false,
    error: "gift-card",
    giftCardError: "empty",
  });
});

test("a card paying the whole order: the order is paid at once, nothing else is asked, the rest of the card stays", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 20000, now });
  const { result, order } = await orderWithCard(db, card.code);
  expect(result.status).toBe("paid");
  expect(order).toMatchObject({ status: "paid", giftCardCents: 9680, totalCents: 9680 });
  expect(order.paidAt).toEqual(now);
  expect(await db.select({ provider: payments.provider, status: payments.status, amountCents: payments.amountCents }).from(payments)).toEqual([
    { provider: "gift_card", status: "succeeded", amountCents: 9680 },
  ]);
  expect(await balanceOf(db, card.id)).toBe(20000 - 9680);
});

test("an unpaid order cancelled or expired gives the card its share back; a late payment takes it again", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 3000, now });
  const first = await orderWithCard(db, card.code);
  expect(await balanceOf(db, card.id)).toBe(0);
  await cancelOrder(db, { orderId: first.order.id, now, actorUserId: null, note: "test" });
  expect(await balanceOf(db, card.id)).toBe(3000);
  // Cancelling again gives nothing more.
  await cancelOrder(db, { orderId: first.order.id, now, actorUserId: null, note: "test" });
  expect(await balanceOf(db, card.id)).toBe(3000);

  const second = await orderWithCard(db, card.code);
  await expireOrder(db, { orderId: second.order.id, now, reason: "payment-overdue" });
  expect(await balanceOf(db, card.id)).toBe(3000);
  // The transfer arrives late: the card share is taken again with the stock.
  const late = await markOrderPaid(db, { orderId: second.order.id, provider: "bank_transfer", providerRef: null, amountCents: 6680, now });
  expect(late.status).toBe("paid");
  expect(await balanceOf(db, card.id)).toBe(0);
  expect(await kindsOf(db, card.id)).toEqual(["issue 3000", "spend -3000", "give_back 3000", "spend -3000", "give_back 3000", "spend -3000"]);
});

test("a refunded order returns what the card paid to the card, never as cash", async () => {
  const db = await openDb();
  const card = await issueGiftCard(db, { origin: "counter", amountCents: 10000, now });
  const { order } = await orderWithCard(db, card.code);
  expect(await balanceOf(db, card.id)).toBe(10000 - 9680);
  expect(await changeOrderStatus(db, { orderId: order.id, to: "refunded", actorUserId: null, now })).toEqual({ ok: true });
  expect(await balanceOf(db, card.id)).toBe(10000);
  expect((await kindsOf(db, card.id)).at(-1)).toBe("refund 9680");
});

test("expired and deactivated cards are refused; expiry takes what is left with its movement", async () => {
  const db = await openDb();
  const expiring = await issueGiftCard(db, { origin: "counter", amountCents: 4000, now, expiresAt: new Date("2026-11-21T10:00:00Z") });
  const later = new Date("2026-11-22T10:00:00Z");
  expect(await checkGiftCardBalance(db, { code: expiring.code, clientIp: "10.0.0.5", now: later })).toEqual({ ok: false, error: "expired" });
  expect(await expireGiftCards(db, later)).toBe(1);
  expect(await expireGiftCards(db, later)).toBe(0);
  expect(await kindsOf(db, expiring.id)).toEqual(["issue 4000", "expiry -4000"]);

  const lost = await issueGiftCard(db, { origin: "counter", amountCents: 4000, now });
  expect(await deactivateGiftCard(db, { id: lost.id, actorUserId: null, now })).toBe(true);
  expect(await deactivateGiftCard(db, { id: lost.id, actorUserId: null, now })).toBe(false);
  const { variantId } = await createProduct(db, { priceCents: 1000 });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  expect(await placeTestOrder(db, { cartId, now, input: checkoutInput({ giftCardCode: lost.code }) })).toEqual({
    ok: false,
    error: "gift-card",
    giftCardError: "inactive",
  });
  expect((await getGiftCard(db, lost.id))!.movements.map((movement) => movement.kind)).toEqual(["issue", "deactivation"]);
});
