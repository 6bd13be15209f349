import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, orderStatusHistory, payments } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createOrder, type OrderDraft } from "./order-creation";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-05-04T09:00:00Z");

function draft(fields: Partial<OrderDraft> = {}): OrderDraft {
  return {
    idempotencyKey: crypto.randomUUID(),
    status: "awaiting_payment",
    email: "giulia@example.it",
    phone: "+39 333 765 4321",
    firstName: "Giulia",
    lastName: "Esposito",
    deliveryMethod: "collection",
    paymentMethod: "bank_transfer",
    subtotalCents: 2990,
    totalCents: 2990,
    paymentDueAt: new Date("2026-05-09T09:00:00Z"),
    createdAt: now,
    lines: [{ sku: "BIB-1", name: "Biberon", quantity: 1, listPriceCents: 2990, unitPriceCents: 2990, lineTotalCents: 2990 }],
    placed: { note: "order-placed", actorUserId: null },
    ...fields,
  };
}

async function rowsOf(db: Db, orderId: string) {
  const history = await db
    .select({ from: orderStatusHistory.fromStatus, to: orderStatusHistory.toStatus, note: orderStatusHistory.note })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, orderId));
  const pending = await db
    .select({ provider: payments.provider, status: payments.status, amountCents: payments.amountCents, expiresAt: payments.expiresAt })
    .from(payments)
    .where(eq(payments.orderId, orderId));
  const lines = await db.select({ sku: orderLines.sku, quantity: orderLines.quantity }).from(orderLines).where(eq(orderLines.orderId, orderId));
  return { history, pending, lines };
}

test("an order comes with its lines, its first history row and, when the shop takes the money, its pending payment", async () => {
  const db = await openDb();
  const transfer = await createOrder(db, draft());
  expect(transfer).toMatchObject({ id: expect.any(String), number: expect.any(Number) });
  expect(await rowsOf(db, transfer!.id)).toEqual({
    history: [{ from: null, to: "awaiting_payment", note: "order-placed" }],
    pending: [{ provider: "bank_transfer", status: "pending", amountCents: 2990, expiresAt: new Date("2026-05-09T09:00:00Z") }],
    lines: [{ sku: "BIB-1", quantity: 1 }],
  });
  const [row] = await db.select({ createdAt: orders.createdAt, updatedAt: orders.updatedAt }).from(orders).where(eq(orders.id, transfer!.id));
  expect(row).toEqual({ createdAt: now, updatedAt: now });

  // A card order's payment rows are the payments module's, one per session; a paid order has none to wait for.
  const card = await createOrder(db, draft({ paymentMethod: "card" }));
  expect((await rowsOf(db, card!.id)).pending).toEqual([]);
  const paid = await createOrder(db, draft({ status: "paid", paidAt: now, placed: { note: "group-gift-funded:1001", actorUserId: null } }));
  expect(await rowsOf(db, paid!.id)).toMatchObject({ history: [{ from: null, to: "paid", note: "group-gift-funded:1001" }], pending: [] });
});

test("the same idempotency key twice makes one order: the second gets null and writes nothing", async () => {
  const db = await openDb();
  const first = draft();
  expect(await createOrder(db, first)).not.toBeNull();
  expect(await createOrder(db, { ...first, lines: [...first.lines, ...first.lines] })).toBeNull();
  expect(await db.select({ id: orders.id }).from(orders)).toHaveLength(1);
  expect(await db.select({ id: orderLines.id }).from(orderLines)).toHaveLength(1);
  expect(await db.select({ id: orderStatusHistory.id }).from(orderStatusHistory)).toHaveLength(1);
});
