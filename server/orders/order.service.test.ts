import { asc, count, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { cartWith, checkoutInput, placeTestOrder, stockOf, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import { orders, orderStatusHistory, outboxEmails, payments, stockMovements } from "#server/db/schema.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { createTestDb } from "#tests/db.ts";
import { cancelOrder, changeOrderStatus, expireOrder, expireOverdueOrders, markOrderPaid, restoreOrderToCart } from "./order.service";
import { getOrderView } from "./order-view.service";

const links = { publicUrl: testPublicUrl, secret: testSecret };

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

async function statusOf(db: Db, orderId: string) {
  const [row] = await db.select({ status: orders.status, paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId));
  return row!;
}

async function mailKinds(db: Db) {
  return (await db.select({ kind: outboxEmails.kind }).from(outboxEmails).orderBy(asc(outboxEmails.id))).map((row) => row.kind);
}

async function mailText(db: Db, kind: string) {
  const [row] = await db.select({ text: outboxEmails.textBody, subject: outboxEmails.subject }).from(outboxEmails).where(eq(outboxEmails.kind, kind));
  return { subject: row!.subject, text: row!.text.replace(/[\u00a0\u202f]/g, " ") };
}

/** An order of `quantity` units of a fresh product with stock `stock`. */
async function anOrder(db: Db, options: { stock?: number; quantity?: number; fields?: Record<string, string>; now?: Date } = {}) {
  const { variantId } = await createProduct(db, { priceCents: 1500, variants: [{ stock: options.stock ?? 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: options.quantity ?? 2 }]);
  const result = await placeTestOrder(db, { cartId, input: checkoutInput(options.fields), now: options.now ?? new Date() });
  if (!result.ok) throw new Error(result.error);
  return { ...result, variantId, cartId };
}

test("expiring an unpaid order gives its stock back once, however often it is asked", async () => {
  const db = await openDb();
  const order = await anOrder(db, { stock: 5, quantity: 2 });
  expect(await stockOf(db, order.variantId)).toBe(3);
  const now = new Date();
  expect(await expireOrder(db, { orderId: order.orderId, now, reason: "card-payment-expired" })).toEqual({ changed: true });
  expect(await expireOrder(db, { orderId: order.orderId, now, reason: "card-payment-expired" })).toEqual({ changed: false });
  expect(await cancelOrder(db, { orderId: order.orderId, now, actorUserId: null, note: "late" })).toEqual({ changed: false });
  expect(await stockOf(db, order.variantId)).toBe(5);
  const movements = await db
    .select({ delta: stockMovements.delta, reason: stockMovements.reason })
    .from(stockMovements)
    .orderBy(asc(stockMovements.id));
  expect(movements).toEqual([
    { delta: -2, reason: "order-placed" },
    { delta: 2, reason: "order-expired" },
  ]);
  expect((await statusOf(db, order.orderId)).status).toBe("expired");
});

test("cancelling gives the stock back once; a shipped order cannot be cancelled", async () => {
  const db = await openDb();
  const now = new Date();
  const order = await anOrder(db, { stock: 4, quantity: 3, fields: { paymentMethod: "bank_transfer" } });
  expect(await cancelOrder(db, { orderId: order.orderId, now, actorUserId: null, note: "customer asked" })).toEqual({ changed: true });
  expect(await cancelOrder(db, { orderId: order.orderId, now, actorUserId: null, note: "customer asked" })).toEqual({ changed: false });
  expect(await stockOf(db, order.variantId)).toBe(4);
  expect(await db.select({ status: payments.status }).from(payments)).toEqual([{ status: "expired" }]);

  const shipped = await anOrder(db, { stock: 4, quantity: 1 });
  await markOrderPaid(db, { orderId: shipped.orderId, provider: "test", providerRef: "sess_1", amountCents: 2190, now });
  expect(await changeOrderStatus(db, { orderId: shipped.orderId, to: "preparing", actorUserId: null, now })).toEqual({ ok: true });
  expect(
    await changeOrderStatus(db, { orderId: shipped.orderId, to: "shipped", actorUserId: null, now, carrier: "GLS", trackingNumber: "GLS123" }),
  ).toEqual({ ok: true });
  expect(await cancelOrder(db, { orderId: shipped.orderId, now, actorUserId: null, note: "too late" })).toEqual({ changed: false });
  expect(await stockOf(db, shipped.variantId)).toBe(3);
});

test("a card payment recorded twice changes the order once and sends one mail", async () => {
  const db = await openDb();
  const order = await anOrder(db);
  const now = new Date();
  const args = { orderId: order.orderId, provider: "test", providerRef: "sess_A", amountCents: 3690, now, links };
  const [first, second] = [await markOrderPaid(db, args), await markOrderPaid(db, args)];
  expect(first).toEqual({ changed: true, status: "paid" });
  expect(second).toEqual({ changed: false, status: "paid" });
  expect(await mailKinds(db)).toEqual(["order-paid"]);
  const mail = await mailText(db, "order-paid");
  expect(mail.subject).toBe(`Pagamento ricevuto: ordine ${order.orderNumber} confermato - Bimbi Felici`);
  expect(mail.text).toContain("36,90 €");
  expect(await db.select({ provider: payments.provider, ref: payments.providerRef, status: payments.status }).from(payments)).toEqual([
    { provider: "test", ref: "sess_A", status: "succeeded" },
  ]);
  const history = await db
    .select({ from: orderStatusHistory.fromStatus, to: orderStatusHistory.toStatus })
    .from(orderStatusHistory)
    .orderBy(asc(orderStatusHistory.id));
  expect(history).toEqual([
    { from: null, to: "awaiting_payment" },
    { from: "awaiting_payment", to: "paid" },
  ]);
});

test("a card payment arriving after expiry takes the stock again when there is some, else is flagged for refund", async () => {
  const db = await openDb();
  const now = new Date();
  const lucky = await anOrder(db, { stock: 5, quantity: 2 });
  await expireOrder(db, { orderId: lucky.orderId, now, reason: "card-payment-expired" });
  expect(await markOrderPaid(db, { orderId: lucky.orderId, provider: "test", providerRef: "s1", amountCents: 3690, now })).toEqual({
    changed: true,
    status: "paid",
  });
  expect(await stockOf(db, lucky.variantId)).toBe(3);

  const unlucky = await anOrder(db, { stock: 2, quantity: 2 });
  await expireOrder(db, { orderId: unlucky.orderId, now, reason: "card-payment-expired" });
  await setStockTo(db, { variantId: unlucky.variantId, stock: 1 }, { reason: "Venduto in negozio" });
  const late = await markOrderPaid(db, { orderId: unlucky.orderId, provider: "test", providerRef: "s2", amountCents: 3690, now });
  expect(late).toEqual({ changed: true, status: "expired", needsRefund: true });
  expect(await stockOf(db, unlucky.variantId)).toBe(1);
  expect(await markOrderPaid(db, { orderId: unlucky.orderId, provider: "test", providerRef: "s2", amountCents: 3690, now })).toEqual({
    changed: false,
    status: "expired",
  });
  const view = await getOrderView(db, { orderId: unlucky.orderId, locale: "it" });
  expect(view!.history.at(-1)!.note).toBe("paid:test:after-expired:refund-needed");
});

test("the back office workflow: preparing, shipped with carrier and tracking (mailed), completed; wrong moves refused", async () => {
  const db = await openDb();
  const now = new Date();
  const order = await anOrder(db, { fields: { paymentMethod: "bank_transfer" } });
  expect(await changeOrderStatus(db, { orderId: order.orderId, to: "shipped", actorUserId: null, now })).toEqual({
    ok: false,
    error: "transition-not-allowed",
  });
  expect(await changeOrderStatus(db, { orderId: order.orderId, to: "paid", actorUserId: null, now, links })).toEqual({ ok: true });
  expect(await db.select({ provider: payments.provider, status: payments.status }).from(payments)).toEqual([
    { provider: "bank_transfer", status: "succeeded" },
  ]);
  expect(await changeOrderStatus(db, { orderId: order.orderId, to: "preparing", actorUserId: null, now })).toEqual({ ok: true });
  expect(await changeOrderStatus(db, { orderId: order.orderId, to: "ready_for_collection", actorUserId: null, now })).toEqual({
    ok: false,
    error: "transition-not-allowed",
  });
  expect(
    await changeOrderStatus(db, {
      orderId: order.orderId,
      to: "shipped",
      actorUserId: null,
      now,
      carrier: "Poste Italiane",
      trackingNumber: "RR123456789IT",
      links,
    }),
  ).toEqual({ ok: true });
  const shipped = await mailText(db, "order-shipped");
  expect(shipped.text).toContain("Corriere: Poste Italiane");
  expect(shipped.text).toContain("Numero di tracciamento: RR123456789IT");
  expect(await changeOrderStatus(db, { orderId: order.orderId, to: "completed", actorUserId: null, now })).toEqual({ ok: true });
  expect(await changeOrderStatus(db, { orderId: "6f1c1f1e-2b5a-4c8e-9a43-0d2f6c1b7e55", to: "paid", actorUserId: null, now })).toEqual({
    ok: false,
    error: "not-found",
  });
  const view = await getOrderView(db, { orderId: order.orderId, locale: "it" });
  expect(view!.history.map((entry) => entry.status)).toEqual(["awaiting_payment", "paid", "preparing", "shipped", "completed"]);
  expect(view!.delivery).toMatchObject({ carrier: "Poste Italiane", trackingNumber: "RR123456789IT" });
  expect(await mailKinds(db)).toEqual(["order-confirmation", "order-paid", "order-shipped"]);
});

test("cash on delivery: prepared and shipped while awaiting payment; completing it records the payment", async () => {
  const db = await openDb();
  const now = new Date();
  const order = await anOrder(db, {
    fields: { deliveryMethod: "local_delivery", paymentMethod: "cash_on_delivery", postcode: "80013", province: "NA" },
  });
  for (const to of ["preparing", "shipped", "completed"] as const) {
    expect(await changeOrderStatus(db, { orderId: order.orderId, to, actorUserId: null, now })).toEqual({ ok: true });
  }
  expect((await statusOf(db, order.orderId)).paidAt).toEqual(now);
  expect(await db.select({ provider: payments.provider, status: payments.status }).from(payments)).toEqual([
    { provider: "cash_on_delivery", status: "succeeded" },
  ]);
});

test("bank transfers unpaid past their due date expire (stock back, customer told); card and cash orders are left alone", async () => {
  const db = await openDb();
  const placedAt = new Date("2026-03-02T10:00:00Z");
  const transfer = await anOrder(db, { fields: { paymentMethod: "bank_transfer" }, now: placedAt });
  const card = await anOrder(db, { now: placedAt });
  const cash = await anOrder(db, { fields: { paymentMethod: "cash_on_delivery" }, now: placedAt });
  expect(await expireOverdueOrders(db, new Date("2026-03-07T09:59:00Z"), links)).toBe(0);
  expect(await expireOverdueOrders(db, new Date("2026-03-07T10:00:00Z"), links)).toBe(1);
  expect(await expireOverdueOrders(db, new Date("2026-03-08T10:00:00Z"), links)).toBe(0);
  expect((await statusOf(db, transfer.orderId)).status).toBe("expired");
  expect((await statusOf(db, card.orderId)).status).toBe("awaiting_payment");
  expect((await statusOf(db, cash.orderId)).status).toBe("awaiting_payment");
  expect(await stockOf(db, transfer.variantId)).toBe(5);
  expect((await mailText(db, "order-expired")).subject).toBe(`Ordine ${transfer.orderNumber} annullato: pagamento non ricevuto - Bimbi Felici`);
});

test("an abandoned card order's lines come back to the cart, personalisation included", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, {
    personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 20 }],
    personalisationCostCents: 200,
    variants: [{ stock: 3 }],
  });
  const cartId = await cartWith(db, [{ variantId, quantity: 2, personalisation: { "0": "Giulia" } }]);
  const placed = await placeTestOrder(db, { cartId });
  if (!placed.ok) throw new Error(placed.error);
  expect((await getCartView(db, { cartId, locale: "it", now: new Date() })).lines).toEqual([]);
  await cancelOrder(db, { orderId: placed.orderId, now: new Date(), actorUserId: null, note: "card-payment-abandoned" });
  const restored = await restoreOrderToCart(db, { orderId: placed.orderId, cartId });
  expect(restored.cartId).toBe(cartId);
  const cart = await getCartView(db, { cartId, locale: "it", now: new Date() });
  expect(cart.lines.map((line) => ({ quantity: line.quantity, personalisation: line.personalisation, status: line.status }))).toEqual([
    { quantity: 2, personalisation: [{ label: "Nome", text: "Giulia" }], status: "ok" },
  ]);
});

test("the order view: lines, totals, bank-transfer instructions while waiting, history", async () => {
  const db = await openDb();
  const order = await anOrder(db, { fields: { paymentMethod: "bank_transfer" } });
  const view = await getOrderView(db, { orderId: order.orderId, locale: "it" });
  expect(view).toMatchObject({
    number: order.orderNumber,
    status: "awaiting_payment",
    totals: { subtotalCents: 3000, shippingCents: 690, totalCents: 3690 },
    delivery: { method: "standard", address: { street: "Via Roma", postcode: "20121", province: "MI" } },
    payment: {
      method: "bank_transfer",
      status: "pending",
      bankTransfer: { iban: "IT60X0542811101000000123456", reason: `Ordine ${order.orderNumber}`, amountCents: 3690 },
    },
    history: [{ status: "awaiting_payment" }],
  });
  expect(view!.lines).toMatchObject([{ quantity: 2, unitCents: 1500, lineTotalCents: 3000 }]);
  expect(await getOrderView(db, { orderId: "not-a-uuid", locale: "it" })).toBeNull();
  const [{ n }] = (await db.select({ n: count() }).from(orders)) as [{ n: number }];
  expect(n).toBe(1);
});
