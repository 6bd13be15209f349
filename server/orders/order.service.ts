/**
 * An order after it is placed: payment, expiry, cancellation, the back office's status changes, lines
 * back to the cart. The one door for status changes is moveOrder: it checks the move against the
 * workflow (order-status.ts) and moves the locked order with an UPDATE conditional on its status, so
 * doing anything twice (webhooks redelivered, two clicks) changes it once; it writes the history and
 * gives the stock back, exactly once, through the stock ledger. History rows are written only here
 * (and by createOrder, the first). Gift lists react through order-effects.ts, in the same transaction.
 * See docs/decisions/0013-checkout-and-orders.md and 0047-one-owner-orders-stock.md.
 */
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { addLinesToCart } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, orderStatusHistory, payments, products } from "#server/db/schema.ts";
import type { StockLine } from "#server/stock/stock.ts";
import { giveBackStock, recordTakenStock, takeStock } from "#server/stock/stock-ledger.ts";
import { orderEffects } from "./order-effects";
import { queueOrderMail, type OrderMailKind, type OrderMailLinks } from "./order-emails";
import { isPaidOnHandover } from "./order-methods";
import { canMove, returnsStockOn, type OrderMove, type OrderStatus } from "./order-status";

// The back office still imports these from here (server/admin/orders-admin.service.ts, app/routes/admin/order-lines-table.tsx).
export { getOrderView, type OrderView } from "./order-view.service";

type LockedOrder = typeof orders.$inferSelect;

async function lockOrder(tx: Db, orderId: string): Promise<LockedOrder | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return null;
  // NO KEY UPDATE: status changes still queue behind each other, but rows that only reference the order (a
  // webhook's payment event, a history row) are not blocked, so two such transactions cannot deadlock on it.
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
  return order ?? null;
}

/** The units the order's lines hold (a line without a variant, like a group-gift contribution, holds none). */
async function unitsOf(tx: Db, orderId: string): Promise<StockLine[]> {
  const rows = await tx
    .select({ variantId: orderLines.variantId, quantity: orderLines.quantity })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.variantId} is not null`));
  return rows.map((row) => ({ variantId: row.variantId!, quantity: row.quantity }));
}

/** One history row: a status change, or (from = to) a note that moves nothing. */
async function writeHistory(
  tx: Db,
  row: { orderId: string; from: OrderStatus; to: OrderStatus; note: string | null; actorUserId: string | null; now: Date },
) {
  await tx
    .insert(orderStatusHistory)
    .values({ orderId: row.orderId, fromStatus: row.from, toStatus: row.to, note: row.note, actorUserId: row.actorUserId, createdAt: row.now });
}

type MoveArgs = { move: OrderMove; now: Date; note: string | null; actorUserId: string | null; set?: Partial<typeof orders.$inferInsert> };

/**
 * The door: moves a locked order from its current status to `to` when the workflow allows that move,
 * with a conditional UPDATE, writes the history, gives the stock back when the move calls for it and
 * lets go of what the order held. False when the move is not allowed or the order was not in that
 * status any more.
 */
async function moveOrder(tx: Db, order: LockedOrder, to: OrderStatus, args: MoveArgs): Promise<boolean> {
  if (!canMove(order.status, to, order, args.move)) return false;
  const moved = await tx
    .update(orders)
    .set({ ...args.set, status: to, updatedAt: args.now })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning({ id: orders.id });
  if (moved.length === 0) return false;
  await writeHistory(tx, { orderId: order.id, from: order.status, to, note: args.note, actorUserId: args.actorUserId, now: args.now });
  if (returnsStockOn(order.status, to)) {
    await giveBackStock(tx, await unitsOf(tx, order.id), { reason: `order-${to}`, orderId: order.id, actorUserId: args.actorUserId, now: args.now });
  }
  if (to === "cancelled" || to === "expired") {
    await tx
      .update(payments)
      .set({ status: "expired", updatedAt: args.now })
      .where(and(eq(payments.orderId, order.id), eq(payments.status, "pending")));
  }
  if (to === "cancelled" || to === "expired" || to === "refunded") await orderEffects().released(tx, { order, to, now: args.now });
  return true;
}

/**
 * The door for another domain's move (a funded group gift completing its contributions): locks the
 * order and moves it when the workflow allows. Money goes through markOrderPaid, which records it.
 */
export async function moveOrderStatus(
  tx: Db,
  args: {
    orderId: string;
    to: OrderStatus;
    move: Exclude<OrderMove, "paid" | "paid-late">;
    note: string | null;
    actorUserId: string | null;
    now: Date;
  },
): Promise<boolean> {
  const order = await lockOrder(tx, args.orderId);
  return order !== null && (await moveOrder(tx, order, args.to, args));
}

/**
 * A note in the order's history that moves nothing (the status stays), once: the same note twice adds
 * nothing. Returns the locked order when the note was added now, null when it was there already (or no order).
 */
export async function addOrderNote(tx: Db, args: { orderId: string; note: string; now: Date }): Promise<LockedOrder | null> {
  const order = await lockOrder(tx, args.orderId);
  if (!order) return null;
  const [earlier] = await tx
    .select({ id: orderStatusHistory.id })
    .from(orderStatusHistory)
    .where(and(eq(orderStatusHistory.orderId, order.id), eq(orderStatusHistory.note, args.note)));
  if (earlier) return null;
  await writeHistory(tx, { orderId: order.id, from: order.status, to: order.status, note: args.note, actorUserId: null, now: args.now });
  return order;
}

/** Marks the payment row of this provider (and session) succeeded, or records one. */
async function recordPayment(tx: Db, order: LockedOrder, args: { provider: string; providerRef: string | null; amountCents: number; now: Date }) {
  const match = args.providerRef
    ? and(eq(payments.orderId, order.id), eq(payments.providerRef, args.providerRef))
    : and(eq(payments.orderId, order.id), eq(payments.provider, args.provider), inArray(payments.status, ["pending", "expired"]));
  const updated = await tx
    .update(payments)
    .set({ status: "succeeded", amountCents: args.amountCents, updatedAt: args.now })
    .where(match)
    .returning({ id: payments.id });
  if (updated.length === 0) {
    await tx
      .insert(payments)
      .values({ orderId: order.id, provider: args.provider, providerRef: args.providerRef, status: "succeeded", amountCents: args.amountCents });
  }
}

/** Money for an order whose status stays (paid on handover, or arrived too late): paidAt and a history note. */
async function notePaidInPlace(tx: Db, order: LockedOrder, args: { note: string; actorUserId: string | null; now: Date }) {
  await tx.update(orders).set({ paidAt: args.now, updatedAt: args.now }).where(eq(orders.id, order.id));
  await writeHistory(tx, { orderId: order.id, from: order.status, to: order.status, note: args.note, actorUserId: args.actorUserId, now: args.now });
}

class HoldsGone extends Error {}

/**
 * A late payment takes back what the order gave up when it expired or was cancelled: its stock (if
 * every variant still has it), then what the other domains held for it (a completion code's use, a
 * group-gift pledge). All or nothing (a savepoint): false when any is gone.
 */
async function retakeHolds(tx: Db, order: LockedOrder, now: Date): Promise<boolean> {
  try {
    await tx.transaction(async (savepoint) => {
      const stock = await takeStock(savepoint, await unitsOf(savepoint, order.id));
      if (!stock.ok) throw new HoldsGone();
      await recordTakenStock(savepoint, stock.taken, { reason: "order-paid-late", orderId: order.id, now });
      if (!(await orderEffects().retaken(savepoint, { order }))) throw new HoldsGone();
    });
    return true;
  } catch (error) {
    if (error instanceof HoldsGone) return false;
    throw error;
  }
}

/**
 * What a paid order means to the other domains (a gift list's purchases, a group gift's contribution),
 * once; a note they ask for goes into the history for the staff, beside the status it now has.
 */
async function applyPaidEffects(
  tx: Db,
  order: LockedOrder,
  args: { now: Date; links: OrderMailLinks | null; actorUserId: string | null; status: OrderStatus },
) {
  const { note } = await orderEffects().paid(tx, {
    order,
    now: args.now,
    publicUrl: args.links?.publicUrl ?? null,
    secret: args.links?.secret ?? null,
  });
  if (note) await writeHistory(tx, { orderId: order.id, from: args.status, to: args.status, note, actorUserId: args.actorUserId, now: args.now });
}

export type MarkOrderPaidResult = {
  changed: boolean;
  status: OrderStatus;
  /** The money arrived for an order that had expired or been cancelled and whose stock is gone meanwhile: refund it. */
  needsRefund?: boolean;
};

export type MarkOrderPaidArgs = {
  orderId: string;
  /** "stripe", "test", or the payment method for money taken by the shop ("bank_transfer", "cash_on_delivery", "in_shop"). */
  provider: string;
  providerRef: string | null;
  amountCents: number;
  now: Date;
  actorUserId?: string | null;
  /** For the link in the "payment received" e-mail; without it the mail goes without its button. */
  links?: OrderMailLinks | null;
};

/**
 * Records that the order is paid; idempotent (a second call changes nothing). Awaiting payment -> paid,
 * with the "payment received" mail for card and bank transfer. Cash on delivery or in shop orders already
 * on their way keep their status and only record the payment. A late payment of an expired or cancelled
 * order takes its stock (and its discount code's use, its group-gift pledge) again when all are still there
 * (-> paid), else it stays as it was, flagged for refund.
 */
export async function markOrderPaid(db: Db, args: MarkOrderPaidArgs): Promise<MarkOrderPaidResult> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order) throw new Error(`markOrderPaid: no order ${args.orderId}`);
    const actorUserId = args.actorUserId ?? null;
    if (order.paidAt || order.status === "refunded") return { changed: false, status: order.status };
    const paidNote = `paid:${args.provider}`;
    const mail: OrderMailKind | null = isPaidOnHandover(order.paymentMethod) ? null : "paid";

    if (order.status === "expired" || order.status === "cancelled") {
      await recordPayment(tx, order, args);
      if (await retakeHolds(tx, order, args.now)) {
        await moveOrder(tx, order, "paid", {
          move: "paid-late",
          now: args.now,
          note: `${paidNote}:after-${order.status}`,
          actorUserId,
          set: { paidAt: args.now, paymentDueAt: null },
        });
        await applyPaidEffects(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: "paid" });
        if (mail) await queueOrderMail(tx, { orderId: order.id, kind: mail, links: args.links ?? null });
        return { changed: true, status: "paid" };
      }
      await notePaidInPlace(tx, order, { note: `${paidNote}:after-${order.status}:refund-needed`, actorUserId, now: args.now });
      return { changed: true, status: order.status, needsRefund: true };
    }

    await recordPayment(tx, order, args);
    if (order.status === "awaiting_payment") {
      await moveOrder(tx, order, "paid", { move: "paid", now: args.now, note: paidNote, actorUserId, set: { paidAt: args.now, paymentDueAt: null } });
      await applyPaidEffects(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: "paid" });
      if (mail) await queueOrderMail(tx, { orderId: order.id, kind: mail, links: args.links ?? null });
      return { changed: true, status: "paid" };
    }
    // Paid on handover: the order is already on its way (or done); the money is recorded, the status stays.
    await notePaidInPlace(tx, order, { note: paidNote, actorUserId, now: args.now });
    await applyPaidEffects(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: order.status });
    return { changed: true, status: order.status };
  });
}

/**
 * A payment the provider confirms later: the order keeps awaiting it, its stock held, until `until` at
 * the latest (never shortened), with a history row "payment-processing" (status unchanged) and a mail.
 */
export async function holdOrderForPayment(tx: Db, args: { orderId: string; until: Date; now: Date; links: OrderMailLinks | null }): Promise<boolean> {
  const held = await tx
    .update(orders)
    .set({ paymentDueAt: args.until, updatedAt: args.now })
    .where(
      and(eq(orders.id, args.orderId), eq(orders.status, "awaiting_payment"), or(isNull(orders.paymentDueAt), lt(orders.paymentDueAt, args.until))),
    )
    .returning({ id: orders.id });
  if (held.length === 0) return false;
  await writeHistory(tx, {
    orderId: args.orderId,
    from: "awaiting_payment",
    to: "awaiting_payment",
    note: "payment-processing",
    actorUserId: null,
    now: args.now,
  });
  // The customer hears that the payment is being verified, and until when the items wait (once per order).
  await queueOrderMail(tx, { orderId: args.orderId, kind: "paymentProcessing", links: args.links });
  return true;
}

/** Awaiting payment -> expired, stock back once; the bank-transfer customer is told, and the one whose online payment was refused. */
export async function expireOrder(
  db: Db,
  args: { orderId: string; now: Date; reason: string; links?: OrderMailLinks | null },
): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order) return { changed: false };
    const changed = await moveOrder(tx, order, "expired", {
      move: "expired",
      now: args.now,
      note: args.reason,
      actorUserId: null,
      set: { paymentDueAt: null },
    });
    if (changed && order.paymentMethod === "bank_transfer")
      await queueOrderMail(tx, { orderId: order.id, kind: "expired", links: args.links ?? null });
    // Card refusals happen on the provider's page, in front of the customer; a later refusal must be told.
    if (changed && args.reason === "online-payment-failed")
      await queueOrderMail(tx, { orderId: order.id, kind: "paymentFailed", links: args.links ?? null });
    return { changed };
  });
}

/** Cancels an order the workflow lets cancel (not once shipped); stock back once. A paid order needs refunding. */
export async function cancelOrder(
  db: Db,
  args: { orderId: string; now: Date; actorUserId: string | null; note: string },
): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order) return { changed: false };
    return { changed: await moveOrder(tx, order, "cancelled", { move: "workflow", now: args.now, note: args.note, actorUserId: args.actorUserId }) };
  });
}

/**
 * Puts an order's lines back in a cart (the customer left the card payment): every cart rule applies,
 * so only what is in stock now comes back. Personalisation texts are matched to the product's fields
 * by their label (the snapshot keeps labels).
 */
export async function restoreOrderToCart(db: Db, args: { orderId: string; cartId: string | null }): Promise<{ cartId: string }> {
  const lines = await db
    .select({
      variantId: orderLines.variantId,
      quantity: orderLines.quantity,
      personalisation: orderLines.personalisation,
      fields: products.personalisationFields,
    })
    .from(orderLines)
    .leftJoin(products, eq(products.id, orderLines.productId))
    .where(eq(orderLines.orderId, args.orderId))
    .orderBy(asc(orderLines.sku), asc(orderLines.id));
  const incoming = lines.flatMap((line) => {
    if (line.variantId === null) return [];
    const personalisation: Record<string, string> = {};
    (line.fields ?? []).forEach((field, index) => {
      const text = line.personalisation[field.labelIt] ?? line.personalisation[field.labelEn];
      if (text) personalisation[String(index)] = text;
    });
    return [{ variantId: line.variantId, quantity: line.quantity, personalisation, giftList: null }];
  });
  const { cartId } = await addLinesToCart(db, { cartId: args.cartId, lines: incoming });
  return { cartId };
}

export type ChangeOrderStatusResult = { ok: true } | { ok: false; error: "transition-not-allowed" | "not-found" };

/**
 * The back office moves an order along the workflow (order-status.ts). Paid records the payment; shipped
 * stores carrier and tracking and tells the customer; ready for collection tells the customer; completing
 * an order paid on handover records that payment.
 */
export async function changeOrderStatus(
  db: Db,
  args: {
    orderId: string;
    to: OrderStatus;
    actorUserId: string | null;
    note?: string;
    carrier?: string;
    trackingNumber?: string;
    now: Date;
    links?: OrderMailLinks | null;
  },
): Promise<ChangeOrderStatusResult> {
  const links = args.links ?? null;
  if (args.to === "paid") {
    const [order] = await db
      .select({ status: orders.status, paymentMethod: orders.paymentMethod, totalCents: orders.totalCents, giftCardCents: orders.giftCardCents })
      .from(orders)
      .where(eq(orders.id, args.orderId));
    if (!order) return { ok: false, error: "not-found" };
    if (order.status !== "awaiting_payment") return { ok: false, error: "transition-not-allowed" };
    const paid = await markOrderPaid(db, {
      orderId: args.orderId,
      provider: order.paymentMethod,
      providerRef: null,
      amountCents: order.totalCents - order.giftCardCents,
      now: args.now,
      actorUserId: args.actorUserId,
      links,
    });
    return paid.changed ? { ok: true } : { ok: false, error: "transition-not-allowed" };
  }
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order) return { ok: false, error: "not-found" };
    const set: Partial<typeof orders.$inferInsert> = {};
    if (args.to === "shipped") {
      set.carrier = args.carrier?.trim() || null;
      set.trackingNumber = args.trackingNumber?.trim() || null;
    }
    const completesUnpaidHandover = args.to === "completed" && !order.paidAt && isPaidOnHandover(order.paymentMethod);
    if (completesUnpaidHandover) set.paidAt = args.now;
    if (!(await moveOrder(tx, order, args.to, { move: "workflow", now: args.now, note: args.note ?? null, actorUserId: args.actorUserId, set }))) {
      return { ok: false, error: "transition-not-allowed" };
    }
    if (completesUnpaidHandover) {
      await recordPayment(tx, order, {
        provider: order.paymentMethod,
        providerRef: null,
        amountCents: order.totalCents - order.giftCardCents,
        now: args.now,
      });
      await applyPaidEffects(tx, order, { now: args.now, links, actorUserId: args.actorUserId, status: args.to });
    }
    if (args.to === "shipped") await queueOrderMail(tx, { orderId: order.id, kind: "shipped", links });
    if (args.to === "ready_for_collection") await queueOrderMail(tx, { orderId: order.id, kind: "ready", links });
    return { ok: true };
  });
}

/**
 * Bank-transfer orders unpaid past their due date expire and give their stock back. Card orders are left
 * to the payments module, which asks the provider first; cash on delivery and in-shop orders never expire.
 */
export async function expireOverdueOrders(db: Db, now: Date, links: OrderMailLinks | null = null): Promise<number> {
  const due = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, "awaiting_payment"), eq(orders.paymentMethod, "bank_transfer"), lte(orders.paymentDueAt, now)))
    .orderBy(asc(orders.paymentDueAt))
    .limit(500);
  let expired = 0;
  for (const { id } of due) {
    if ((await expireOrder(db, { orderId: id, now, reason: "bank-transfer-not-received", links })).changed) expired += 1;
  }
  return expired;
}
