/**
 * An order after it is placed: payment, expiry, cancellation, the back office's status changes, lines
 * back to the cart. Every change locks the order row and moves it with an UPDATE conditional on its
 * status, so doing anything twice (webhooks redelivered, two clicks) changes it once; stock goes back
 * exactly once, with its stock_movements rows. See docs/decisions/0013-checkout-and-orders.md.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import { addLinesToCart } from "#server/cart/cart.service.ts";
import { isPaidOnHandover } from "#server/checkout/checkout.ts";
import type { Db } from "#server/db/client.ts";
import { giveBackDiscountCodeUse, takeDiscountCodeUse } from "#server/gift-lists/gift-list-completion.service.ts";
import { recordGroupGiftPayment, releaseGroupGiftContribution, retakeGroupGiftPledge } from "#server/gift-lists/gift-list-group.service.ts";
import { recordGiftListPurchases } from "#server/gift-lists/gift-list-orders.service.ts";
import { orderLines, orders, orderStatusHistory, payments, products, productVariants, stockMovements } from "#server/db/schema.ts";
import { queueOrderMail, type OrderMailKind, type OrderMailLinks } from "./order-emails";
import { canChangeStatus, returnsStockOn, type OrderStatus } from "./order-status";

// The back office still imports these from here (server/admin/orders-admin.service.ts, app/routes/admin/order-lines-table.tsx).
export { getOrderView, type OrderView } from "./order-view.service";

type LockedOrder = typeof orders.$inferSelect;

async function lockOrder(tx: Db, orderId: string): Promise<LockedOrder | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orderId)) return null;
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  return order ?? null;
}

/** The order's units per variant, in id order (the lock order placeOrder uses too). */
async function unitsPerVariant(tx: Db, orderId: string): Promise<[variantId: number, quantity: number][]> {
  const rows = await tx
    .select({ variantId: orderLines.variantId, quantity: sql<number>`sum(${orderLines.quantity})`.mapWith(Number) })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.variantId} is not null`))
    .groupBy(orderLines.variantId)
    .orderBy(asc(orderLines.variantId));
  return rows.map((row) => [row.variantId!, row.quantity]);
}

async function returnStock(tx: Db, order: LockedOrder, reason: string, actorUserId: string | null, now: Date) {
  const units = await unitsPerVariant(tx, order.id);
  for (const [variantId, quantity] of units) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${quantity}` })
      .where(eq(productVariants.id, variantId));
  }
  if (units.length > 0) {
    await tx.insert(stockMovements).values(units.map(([variantId, quantity]) => ({ variantId, delta: quantity, reason, orderId: order.id, actorUserId, createdAt: now })));
  }
}

/**
 * Moves a locked order from its current status to `to` with a conditional UPDATE, writes the history and
 * gives the stock back when the move calls for it. False when the order was not in that status any more.
 */
async function moveOrder(
  tx: Db,
  order: LockedOrder,
  to: OrderStatus,
  args: { now: Date; note: string | null; actorUserId: string | null; set?: Partial<typeof orders.$inferInsert> },
): Promise<boolean> {
  const moved = await tx
    .update(orders)
    .set({ ...args.set, status: to, updatedAt: args.now })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
    .returning({ id: orders.id });
  if (moved.length === 0) return false;
  await tx.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: order.status, toStatus: to, note: args.note, actorUserId: args.actorUserId, createdAt: args.now });
  if (returnsStockOn(order.status, to)) await returnStock(tx, order, `order-${to}`, args.actorUserId, args.now);
  if (to === "cancelled" || to === "expired") {
    await tx
      .update(payments)
      .set({ status: "expired", updatedAt: args.now })
      .where(and(eq(payments.orderId, order.id), eq(payments.status, "pending")));
    // A completion code spent on an order that is not kept can be used again (once: this move happens once).
    if (order.discountCodeId !== null) await giveBackDiscountCodeUse(tx, order.discountCodeId);
  }
  // A group-gift contribution that will not be kept frees its amount for the other guests.
  if (order.giftListId && (to === "cancelled" || to === "expired" || to === "refunded")) {
    await releaseGroupGiftContribution(tx, { orderId: order.id, wasPaid: order.paidAt !== null, now: args.now });
  }
  return true;
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
  await tx.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: order.status, toStatus: order.status, note: args.note, actorUserId: null, createdAt: args.now });
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
    await tx.insert(payments).values({ orderId: order.id, provider: args.provider, providerRef: args.providerRef, status: "succeeded", amountCents: args.amountCents });
  }
}

/** Takes the units of an expired or cancelled order again, if every variant still has them (locked in id order). */
async function retakeStock(tx: Db, order: LockedOrder, now: Date): Promise<boolean> {
  const units = await unitsPerVariant(tx, order.id);
  if (units.length === 0) return true;
  const locked = await tx
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(
      inArray(
        productVariants.id,
        units.map(([variantId]) => variantId),
      ),
    )
    .orderBy(asc(productVariants.id))
    .for("update");
  const stockOf = new Map(locked.map((row) => [row.id, row.stock]));
  if (units.some(([variantId, quantity]) => (stockOf.get(variantId) ?? 0) < quantity)) return false;
  for (const [variantId, quantity] of units) {
    await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} - ${quantity}` })
      .where(eq(productVariants.id, variantId));
  }
  await tx.insert(stockMovements).values(units.map(([variantId, quantity]) => ({ variantId, delta: -quantity, reason: "order-paid-late", orderId: order.id, createdAt: now })));
  return true;
}

class HoldsGone extends Error {}

/**
 * A late payment takes back what the order gave up when it expired or was cancelled: its stock, its
 * completion code's use, its group-gift pledge. All or nothing (a savepoint): false when any is gone.
 */
async function retakeHolds(tx: Db, order: LockedOrder, now: Date): Promise<boolean> {
  try {
    await tx.transaction(async (savepoint) => {
      if (!(await retakeStock(savepoint, order, now))) throw new HoldsGone();
      if (order.discountCodeId !== null && !(await takeDiscountCodeUse(savepoint, order.discountCodeId))) throw new HoldsGone();
      if (order.giftListId && !(await retakeGroupGiftPledge(savepoint, { orderId: order.id }))) throw new HoldsGone();
    });
    return true;
  } catch (error) {
    if (error instanceof HoldsGone) return false;
    throw error;
  }
}

/**
 * A paid gift-list order raises the list's bought quantities (once: a repeated call changes nothing) and
 * mails the owner. Units paid beyond what the list still needed (two guests paid for the last one) leave
 * the order as it is, with a history note for the staff: refund them or keep them as an extra gift
 * (docs/decisions/0016-gift-lists.md).
 */
async function recordGiftListPayment(tx: Db, order: LockedOrder, args: { now: Date; links: OrderMailLinks | null; actorUserId: string | null; status: OrderStatus }) {
  if (!order.giftListId) return;
  // A contribution toward a group gift: counted once, and the one completing the price funds the gift.
  await recordGroupGiftPayment(tx, { order, now: args.now, publicUrl: args.links?.publicUrl ?? null });
  const { overflow } = await recordGiftListPurchases(tx, { order, now: args.now, publicUrl: args.links?.publicUrl ?? null });
  if (overflow.length === 0) return;
  const units = overflow.reduce((sum, item) => sum + item.quantity, 0);
  await tx.insert(orderStatusHistory).values({
    orderId: order.id,
    fromStatus: args.status,
    toStatus: args.status,
    // For the staff, in the back office's language: the code first, then what to do.
    note: `gift-list-overflow:${units} · ${units} pz. pagati oltre quanto la lista chiedeva ancora: chiedere a chi regala se rimborsarli o tenerli come regalo in più`,
    actorUserId: args.actorUserId,
    createdAt: args.now,
  });
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
        await moveOrder(tx, order, "paid", { now: args.now, note: `${paidNote}:after-${order.status}`, actorUserId, set: { paidAt: args.now, paymentDueAt: null } });
        await recordGiftListPayment(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: "paid" });
        if (mail) await queueOrderMail(tx, { orderId: order.id, kind: mail, links: args.links ?? null });
        return { changed: true, status: "paid" };
      }
      await tx.update(orders).set({ paidAt: args.now, updatedAt: args.now }).where(eq(orders.id, order.id));
      await tx.insert(orderStatusHistory).values({
        orderId: order.id,
        fromStatus: order.status,
        toStatus: order.status,
        note: `${paidNote}:after-${order.status}:refund-needed`,
        actorUserId,
        createdAt: args.now,
      });
      return { changed: true, status: order.status, needsRefund: true };
    }

    await recordPayment(tx, order, args);
    if (order.status === "awaiting_payment") {
      await moveOrder(tx, order, "paid", { now: args.now, note: paidNote, actorUserId, set: { paidAt: args.now, paymentDueAt: null } });
      await recordGiftListPayment(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: "paid" });
      if (mail) await queueOrderMail(tx, { orderId: order.id, kind: mail, links: args.links ?? null });
      return { changed: true, status: "paid" };
    }
    // Paid on handover: the order is already on its way (or done); the money is recorded, the status stays.
    await tx.update(orders).set({ paidAt: args.now, updatedAt: args.now }).where(eq(orders.id, order.id));
    await tx.insert(orderStatusHistory).values({ orderId: order.id, fromStatus: order.status, toStatus: order.status, note: paidNote, actorUserId, createdAt: args.now });
    await recordGiftListPayment(tx, order, { now: args.now, links: args.links ?? null, actorUserId, status: order.status });
    return { changed: true, status: order.status };
  });
}

/** Awaiting payment -> expired, stock back once; the bank-transfer customer is told. */
export async function expireOrder(db: Db, args: { orderId: string; now: Date; reason: string; links?: OrderMailLinks | null }): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order || order.status !== "awaiting_payment") return { changed: false };
    const changed = await moveOrder(tx, order, "expired", { now: args.now, note: args.reason, actorUserId: null, set: { paymentDueAt: null } });
    if (changed && order.paymentMethod === "bank_transfer") await queueOrderMail(tx, { orderId: order.id, kind: "expired", links: args.links ?? null });
    return { changed };
  });
}

/** Cancels an order the workflow lets cancel (not once shipped); stock back once. A paid order needs refunding. */
export async function cancelOrder(db: Db, args: { orderId: string; now: Date; actorUserId: string | null; note: string }): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order || !canChangeStatus(order.status, "cancelled", order)) return { changed: false };
    return { changed: await moveOrder(tx, order, "cancelled", { now: args.now, note: args.note, actorUserId: args.actorUserId }) };
  });
}

/**
 * Puts an order's lines back in a cart (the customer left the card payment): every cart rule applies,
 * so only what is in stock now comes back. Personalisation texts are matched to the product's fields
 * by their label (the snapshot keeps labels).
 */
export async function restoreOrderToCart(db: Db, args: { orderId: string; cartId: string | null }): Promise<{ cartId: string }> {
  const lines = await db
    .select({ variantId: orderLines.variantId, quantity: orderLines.quantity, personalisation: orderLines.personalisation, fields: products.personalisationFields })
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
    const [order] = await db.select({ status: orders.status, paymentMethod: orders.paymentMethod, totalCents: orders.totalCents }).from(orders).where(eq(orders.id, args.orderId));
    if (!order) return { ok: false, error: "not-found" };
    if (order.status !== "awaiting_payment") return { ok: false, error: "transition-not-allowed" };
    const paid = await markOrderPaid(db, { orderId: args.orderId, provider: order.paymentMethod, providerRef: null, amountCents: order.totalCents, now: args.now, actorUserId: args.actorUserId, links });
    return paid.changed ? { ok: true } : { ok: false, error: "transition-not-allowed" };
  }
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, args.orderId);
    if (!order) return { ok: false, error: "not-found" };
    if (!canChangeStatus(order.status, args.to, order)) return { ok: false, error: "transition-not-allowed" };
    const set: Partial<typeof orders.$inferInsert> = {};
    if (args.to === "shipped") {
      set.carrier = args.carrier?.trim() || null;
      set.trackingNumber = args.trackingNumber?.trim() || null;
    }
    const completesUnpaidHandover = args.to === "completed" && !order.paidAt && isPaidOnHandover(order.paymentMethod);
    if (completesUnpaidHandover) set.paidAt = args.now;
    if (!(await moveOrder(tx, order, args.to, { now: args.now, note: args.note ?? null, actorUserId: args.actorUserId, set }))) {
      return { ok: false, error: "transition-not-allowed" };
    }
    if (completesUnpaidHandover) {
      await recordPayment(tx, order, { provider: order.paymentMethod, providerRef: null, amountCents: order.totalCents, now: args.now });
      await recordGiftListPayment(tx, order, { now: args.now, links, actorUserId: args.actorUserId, status: args.to });
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
