import { and, asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, outboxEmails, returnExchanges, returns, stockMovements, withdrawals } from "#server/db/schema.ts";
import { issueInvoice } from "#server/invoices/invoice.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { changeOrderStatus } from "#server/orders/order.service.ts";
import { afterSalesLinks, deliveredOrder, type DeliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { exchangeHoldDays } from "./exchange";
import { exchangeOriginOf, expireExchangeReservations, listExchangesOfOrder } from "./exchanges.service";
import { proposeRefund } from "./refunds.service";
import { authoriseReturn, receiveReturn, refuseReturn } from "./returns.service";
import { getWithdrawalOptions, submitWithdrawal } from "./withdrawal.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** A delivered order whose bib (size 3M, bought twice) has sizes 6M (stock `sixMonths`) and 12M (none on the shelf). */
function orderWithSizes(db: Db, sixMonths = 5, options: Parameters<typeof deliveredOrder>[1] = {}) {
  return deliveredOrder(db, {
    ...options,
    bibVariants: [
      { size: "3M", stock: 10 },
      { size: "6M", stock: sixMonths },
      { size: "12M", stock: 0 },
    ],
  });
}

/** The customer sends back both bibs for size 6M and, when asked, the blanket for a refund. */
function askExchange(db: Db, order: DeliveredOrder, options: { withBlanket?: boolean; variantId?: number; iban?: string | null } = {}) {
  return submitWithdrawal(db, {
    orderId: order.orderId,
    access: { hasOrderLink: true, userId: null },
    input: {
      submissionKey: crypto.randomUUID(),
      name: "Maria Rossi",
      iban: options.iban ?? null,
      lines: [{ orderLineId: order.bib.id, quantity: 2 }, ...(options.withBlanket ? [{ orderLineId: order.blanket.id, quantity: 1 }] : [])],
      exchanges: [{ orderLineId: order.bib.id, variantId: options.variantId ?? order.bibVariantIds[1]! }],
    },
    locale: "it",
    now: new Date(),
    links: afterSalesLinks,
  });
}

async function returnOf(db: Db, orderId: string) {
  const [row] = await db.select().from(returns).where(eq(returns.orderId, orderId));
  return row!;
}

const received = (order: DeliveredOrder, withBlanket = false) => [
  { orderLineId: order.bib.id, restocked: 2, damaged: 0, damageReason: null },
  ...(withBlanket ? [{ orderLineId: order.blanket.id, restocked: 1, damaged: 0, damageReason: null }] : []),
];

test("the form offers the product's other sizes; the replacement is set aside when the request is confirmed", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db);
  const options = await getWithdrawalOptions(db, { orderId: order.orderId, now: new Date() });
  const bib = options!.lines.find((line) => line.id === order.bib.id)!;
  expect(bib.exchangeTo.map((option) => [option.size, option.stock])).toEqual([
    ["6M", 5],
    ["12M", 0],
  ]);
  // a product with one variant, and a personalised line, have nothing to swap for
  expect(options!.lines.find((line) => line.id === order.blanket.id)!.exchangeTo).toEqual([]);
  expect(options!.lines.find((line) => line.id === order.towel.id)!.exchangeTo).toEqual([]);

  const done = await askExchange(db, order);
  expect(done.ok).toBe(true);
  expect(await stockOf(db, order.bibVariantIds[1]!)).toBe(3);
  const [movement] = await db.select().from(stockMovements).where(eq(stockMovements.reason, "exchange-reserved"));
  expect(movement).toMatchObject({ variantId: order.bibVariantIds[1], delta: -2, orderId: order.orderId });
  const [exchange] = await listExchangesOfOrder(db, order.orderId);
  expect(exchange).toMatchObject({ quantity: 2, status: "reserved", from: { size: "3M" }, to: { size: "6M" }, replacement: null });
});

test("not enough of the chosen size: refused, and nothing is written", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db, 1);
  expect(await askExchange(db, order)).toEqual({ ok: false, error: "exchange-unavailable" });
  expect(await askExchange(db, order, { variantId: order.bibVariantIds[2]! })).toEqual({ ok: false, error: "exchange-unavailable" });
  // another product's variant is not offered at all
  expect(await askExchange(db, order, { variantId: order.blanket.variantId })).toEqual({ ok: false, error: "exchange-not-offered" });
  expect(await stockOf(db, order.bibVariantIds[1]!)).toBe(1);
  expect(await db.select().from(withdrawals)).toEqual([]);
  expect(await db.select().from(returns)).toEqual([]);
  expect(await db.select().from(returnExchanges)).toEqual([]);
});

test("a refused return gives the reserved units back, once", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db);
  await askExchange(db, order);
  const opened = await returnOf(db, order.orderId);
  const now = new Date();
  expect(await refuseReturn(db, { returnId: opened.id, reason: "Fuori tempo", now })).toEqual({ ok: true });
  expect(await refuseReturn(db, { returnId: opened.id, reason: "Fuori tempo", now })).toEqual({ ok: false, error: "not-allowed" });
  expect(await stockOf(db, order.bibVariantIds[1]!)).toBe(5);
  expect((await listExchangesOfOrder(db, order.orderId))[0]!.status).toBe("released");
  const view = await getOrderView(db, { orderId: order.orderId, locale: null });
  expect(view!.history.at(-1)!.note).toBe(`exchange-released:${opened.number}`);
});

test("goods not back within the hold: the reservation is released, the return stays open for a refund", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db);
  await askExchange(db, order);
  expect(await expireExchangeReservations(db, new Date())).toBe(0);
  expect(await expireExchangeReservations(db, new Date(Date.now() + (exchangeHoldDays + 1) * 86_400_000))).toBe(1);
  expect(await stockOf(db, order.bibVariantIds[1]!)).toBe(5);
  expect((await returnOf(db, order.orderId)).status).toBe("requested");
});

test("received: one replacement order at no charge, ready to ship, mailed; received again changes nothing", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db, 5, { invoice: { invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" } });
  await askExchange(db, order);
  const opened = await returnOf(db, order.orderId);
  const now = new Date();
  await authoriseReturn(db, { returnId: opened.id, now, links: null });
  const lines = received(order);
  expect(await receiveReturn(db, { returnId: opened.id, lines, actorUserId: null, now, links: afterSalesLinks })).toEqual({ ok: true });
  expect(await receiveReturn(db, { returnId: opened.id, lines, actorUserId: null, now, links: afterSalesLinks })).toEqual({
    ok: false,
    error: "not-allowed",
  });

  const replacements = await db
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, `exchange:${opened.id}`));
  expect(replacements).toHaveLength(1);
  const replacement = replacements[0]!;
  expect(replacement).toMatchObject({ status: "preparing", totalCents: 0, invoiceKind: "none", paidAt: null, city: expect.any(String) });
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, replacement.id));
  expect(line).toMatchObject({ variantId: order.bibVariantIds[1], size: "6M", quantity: 2, unitPriceCents: 0, lineTotalCents: 0 });
  // the units set aside are now the replacement's: the shelf is unchanged, the returned 3M are back on it
  expect(await stockOf(db, order.bibVariantIds[1]!)).toBe(3);
  expect(await stockOf(db, order.bibVariantIds[0]!)).toBe(10);
  const moved = await db
    .select({ delta: stockMovements.delta, orderId: stockMovements.orderId, reason: stockMovements.reason })
    .from(stockMovements)
    .where(eq(stockMovements.variantId, order.bibVariantIds[1]!))
    .orderBy(asc(stockMovements.id));
  expect(moved.slice(-2)).toEqual([
    { delta: 2, orderId: order.orderId, reason: "exchange-reserved" },
    { delta: -2, orderId: replacement.id, reason: "exchange-order" },
  ]);
  expect(await exchangeOriginOf(db, replacement.id)).toEqual({ orderId: order.orderId, orderNumber: order.orderNumber, returnNumber: opened.number });
  expect((await listExchangesOfOrder(db, order.orderId))[0]!.replacement).toEqual({ id: replacement.id, number: replacement.number });
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "exchange-shipped"));
  expect(mail!.subject).toBe(`Il tuo cambio è in arrivo: ordine n. ${replacement.number}`);
  // nothing to refund, and no invoice of goods at 0 for the replacement
  expect((await proposeRefund(db, opened.id))!.lines).toEqual([]);
  expect(await issueInvoice(db, { orderId: replacement.id, actorUserId: null, now })).toEqual({ ok: false, error: "no-invoice-requested" });
});

test("the replacement order offers no withdrawal, no exchange and no withdrawal mail; a statement on it is refused", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db);
  await askExchange(db, order);
  const opened = await returnOf(db, order.orderId);
  const now = new Date();
  await authoriseReturn(db, { returnId: opened.id, now, links: null });
  await receiveReturn(db, { returnId: opened.id, lines: received(order), actorUserId: null, now, links: afterSalesLinks });
  const [replacement] = await db
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, `exchange:${opened.id}`));
  // Shipped and delivered: an ordinary order's period would be open now.
  for (const to of ["shipped", "completed"] as const) {
    expect(
      await changeOrderStatus(db, {
        orderId: replacement!.id,
        to,
        actorUserId: null,
        now,
        carrier: "GLS",
        trackingNumber: "GLS2",
        links: afterSalesLinks,
      }),
    ).toMatchObject({ ok: true });
  }
  const options = await getWithdrawalOptions(db, { orderId: replacement!.id, now });
  expect(options).toMatchObject({ isReplacement: true, isOffered: false, window: { state: "open" } });
  expect(options!.lines.every((line) => line.exchangeTo.length === 0)).toBe(true);
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, replacement!.id));
  const refused = await submitWithdrawal(db, {
    orderId: replacement!.id,
    access: { hasOrderLink: true, userId: null },
    input: { submissionKey: crypto.randomUUID(), name: "Maria Rossi", iban: null, lines: [{ orderLineId: line!.id, quantity: 1 }], exchanges: [] },
    locale: "it",
    now,
    links: afterSalesLinks,
  });
  expect(refused).toEqual({ ok: false, error: "replacement-order" });
  expect(await db.select().from(withdrawals).where(eq(withdrawals.orderId, replacement!.id))).toEqual([]);
  // Its shipped mail carries no withdrawal information (the original's did).
  const shippedOf = async (orderId: string) =>
    (
      await db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.dedupeKey, `order-shipped:${orderId}`))
    )[0]!.textBody;
  expect(await shippedOf(order.orderId)).toMatch(/diritto di recesso/i);
  expect(await shippedOf(replacement!.id)).not.toMatch(/recesso|recedere/i);
});

test("a mixed return: the exchanged line gets a replacement, the other line alone is proposed for a refund", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db);
  expect((await askExchange(db, order, { withBlanket: true })).ok).toBe(true);
  const opened = await returnOf(db, order.orderId);
  const now = new Date();
  await authoriseReturn(db, { returnId: opened.id, now, links: null });
  expect(await receiveReturn(db, { returnId: opened.id, lines: received(order, true), actorUserId: null, now, links: null })).toEqual({ ok: true });
  const proposal = await proposeRefund(db, opened.id);
  expect(proposal!.lines.map((line) => line.orderLineId)).toEqual([order.blanket.id]);
  expect(proposal!.deliveryRefundable).toBe(false);
  const replacement = await db
    .select()
    .from(orders)
    .where(and(eq(orders.idempotencyKey, `exchange:${opened.id}`)));
  expect(replacement).toHaveLength(1);
});

test("cash on delivery: an exchange of every returned line needs no IBAN; a refunded line still does", async () => {
  const db = await openDb();
  const order = await orderWithSizes(db, 5, { paymentMethod: "cash_on_delivery" });
  expect(await askExchange(db, order, { withBlanket: true })).toEqual({ ok: false, error: "iban-required" });
  expect((await askExchange(db, order)).ok).toBe(true);
});
