/**
 * The one place orders come into being: the order row, its snapshot lines, its first status-history row
 * and, for an order waiting for money the shop takes itself, its pending payment row, in the caller's
 * transaction. Checkout, group gifts and the test fixtures give it a typed draft; it takes no stock
 * (that is the caller's, through server/stock/stock-ledger.ts). Later changes go through order.service.ts.
 */
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, orderStatusHistory, payments } from "#server/db/schema.ts";
import type { OrderStatus } from "./order-status";

type OrderRow = typeof orders.$inferInsert;

export type OrderLineDraft = Omit<typeof orderLines.$inferInsert, "id" | "orderId">;

export type OrderDraft = Omit<OrderRow, "id" | "number" | "status" | "createdAt" | "updatedAt"> & {
  /** The status it starts in: a placed order awaits payment, a funded group gift is paid already. */
  status: OrderStatus;
  /** When it was placed, also the time of its first history row. */
  createdAt: Date;
  lines: readonly OrderLineDraft[];
  /** Its first history row: why it exists and who placed it (null for a guest or the shop itself). */
  placed: { note: string; actorUserId: string | null };
};

export type CreatedOrder = { id: string; number: number };

/** The new order's id and number; null when an order with this idempotency key exists (the same form sent twice). */
export async function createOrder(tx: Db, draft: OrderDraft): Promise<CreatedOrder | null> {
  const { lines, placed, ...row } = draft;
  const [order] = await tx
    .insert(orders)
    .values({ ...row, updatedAt: row.createdAt })
    .onConflictDoNothing({ target: orders.idempotencyKey })
    .returning({ id: orders.id, number: orders.number });
  if (!order) return null;
  if (lines.length > 0) await tx.insert(orderLines).values(lines.map((line) => ({ ...line, orderId: order.id })));
  await tx.insert(orderStatusHistory).values({
    orderId: order.id,
    fromStatus: null,
    toStatus: draft.status,
    note: placed.note,
    actorUserId: placed.actorUserId,
    createdAt: draft.createdAt,
  });
  // Card payments get their row per provider session from the payments module (server/payments).
  // What a gift card pays is not asked again: the payment is for the rest (none when the card pays it all).
  const dueCents = draft.totalCents - (draft.giftCardCents ?? 0);
  if (draft.status === "awaiting_payment" && draft.paymentMethod !== "card" && dueCents > 0) {
    await tx.insert(payments).values({
      orderId: order.id,
      provider: draft.paymentMethod,
      status: "pending",
      amountCents: dueCents,
      expiresAt: draft.paymentDueAt ?? null,
    });
  }
  return order;
}
