/**
 * Returns: the owner of `returns` and `return_lines`. A return is opened for each withdrawal (or by the
 * staff for a faulty item) and moves requested -> authorised -> received -> refunded, or to refused with
 * a reason. Authorising mails the shipping instructions; receiving puts units back on the shelf through
 * the stock ledger (or writes them off as damaged, with a reason). Every step is a note in the order's
 * history, through the orders' door. The refund itself is refunds.service.ts's.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterSalesNote, type AfterSalesStep } from "#common/order-history.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, returnLines, returns } from "#server/db/schema.ts";
import type { OrderMailLinks } from "#server/orders/order-emails.ts";
import { orderEffects } from "#server/orders/order-effects.ts";
import { addOrderNote } from "#server/orders/order.service.ts";
import { giveBackStock } from "#server/stock/stock-ledger.ts";
import { queueReturnAuthorisedMail } from "./after-sales-emails";
import { fulfilExchanges, releaseExchanges } from "./exchanges.service";
import { lineExclusion, refundDeadline } from "./withdrawal";

export type ReturnStatus = (typeof returns.$inferSelect)["status"];
type ReturnRow = typeof returns.$inferSelect;

/** Opens a return in the caller's transaction; the caller checked the lines against the order. */
export async function openReturn(
  tx: Db,
  args: {
    orderId: string;
    withdrawalId: string | null;
    reason: "withdrawal" | "faulty";
    lines: readonly { orderLineId: string; quantity: number }[];
    refundDueAt: Date;
    refundIban: string | null;
    now: Date;
  },
): Promise<{ id: string; number: number }> {
  const [opened] = await tx
    .insert(returns)
    .values({
      orderId: args.orderId,
      withdrawalId: args.withdrawalId,
      reason: args.reason,
      refundDueAt: args.refundDueAt,
      refundIban: args.refundIban,
      createdAt: args.now,
      updatedAt: args.now,
    })
    .returning({ id: returns.id, number: returns.number });
  await tx.insert(returnLines).values(args.lines.map((line) => ({ returnId: opened!.id, orderLineId: line.orderLineId, quantity: line.quantity })));
  return opened!;
}

async function lockReturn(tx: Db, returnId: string): Promise<ReturnRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(returnId)) return null;
  const [row] = await tx.select().from(returns).where(eq(returns.id, returnId)).for("update");
  return row ?? null;
}

/** Moves a locked return when it is in one of `from`, with a conditional UPDATE and the order's history note. */
async function moveReturn(
  tx: Db,
  row: ReturnRow,
  args: { from: readonly ReturnStatus[]; to: ReturnStatus; step: AfterSalesStep; now: Date; set?: Partial<typeof returns.$inferInsert> },
): Promise<boolean> {
  if (!args.from.includes(row.status)) return false;
  const moved = await tx
    .update(returns)
    .set({ ...args.set, status: args.to, updatedAt: args.now })
    .where(and(eq(returns.id, row.id), eq(returns.status, row.status)))
    .returning({ id: returns.id });
  if (moved.length === 0) return false;
  await addOrderNote(tx, { orderId: row.orderId, note: afterSalesNote(args.step, row.number), now: args.now });
  return true;
}

export type ReturnStepResult = { ok: true } | { ok: false; error: "not-found" | "not-allowed" | "bad-quantities" | "reason-required" };

/** Requested -> authorised; the customer gets the shop's shipping instructions. */
export async function authoriseReturn(db: Db, args: { returnId: string; now: Date; links: OrderMailLinks | null }): Promise<ReturnStepResult> {
  return db.transaction(async (tx) => {
    const row = await lockReturn(tx, args.returnId);
    if (!row) return { ok: false, error: "not-found" };
    if (!(await moveReturn(tx, row, { from: ["requested"], to: "authorised", step: "return-authorised", now: args.now })))
      return { ok: false, error: "not-allowed" };
    const [order] = await tx
      .select({ id: orders.id, number: orders.number, email: orders.email, locale: orders.locale })
      .from(orders)
      .where(eq(orders.id, row.orderId));
    await queueReturnAuthorisedMail(tx, { order: order!, returnId: row.id, returnNumber: row.number, links: args.links });
    return { ok: true };
  });
}

/** Requested or authorised -> refused, with the reason the staff give; units reserved for its exchanges go back on the shelf. */
export async function refuseReturn(
  db: Db,
  args: { returnId: string; reason: string; actorUserId?: string | null; now: Date },
): Promise<ReturnStepResult> {
  const reason = args.reason.trim();
  if (!reason) return { ok: false, error: "reason-required" };
  return db.transaction(async (tx) => {
    const row = await lockReturn(tx, args.returnId);
    if (!row) return { ok: false, error: "not-found" };
    const moved = await moveReturn(tx, row, {
      from: ["requested", "authorised"],
      to: "refused",
      step: "return-refused",
      now: args.now,
      set: { refusalReason: reason },
    });
    if (!moved) return { ok: false, error: "not-allowed" };
    await releaseExchanges(tx, {
      returnId: row.id,
      orderId: row.orderId,
      returnNumber: row.number,
      actorUserId: args.actorUserId ?? null,
      now: args.now,
    });
    return { ok: true };
  });
}

export type ReceivedLine = { orderLineId: string; restocked: number; damaged: number; damageReason: string | null };

/**
 * Authorised -> received: each line's units are either back on the shelf (through the stock ledger) or
 * written off as damaged with a reason; together they are the units the return announced, no more.
 * Its exchanges become a replacement order, ready to ship (exchanges.service.ts).
 */
export async function receiveReturn(
  db: Db,
  args: { returnId: string; lines: readonly ReceivedLine[]; actorUserId: string | null; now: Date; links?: OrderMailLinks | null },
): Promise<ReturnStepResult> {
  return db.transaction(async (tx) => {
    const row = await lockReturn(tx, args.returnId);
    if (!row) return { ok: false, error: "not-found" };
    if (row.status !== "authorised") return { ok: false, error: "not-allowed" };
    const announced = await tx
      .select({
        id: returnLines.id,
        orderLineId: returnLines.orderLineId,
        quantity: returnLines.quantity,
        variantId: orderLines.variantId,
        giftListItemId: orderLines.giftListItemId,
      })
      .from(returnLines)
      .innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId))
      .where(eq(returnLines.returnId, row.id));
    const received = new Map(args.lines.map((line) => [line.orderLineId, line]));
    if (received.size !== args.lines.length || [...received.keys()].some((id) => !announced.some((line) => line.orderLineId === id))) {
      return { ok: false, error: "bad-quantities" };
    }
    for (const line of announced) {
      const got = received.get(line.orderLineId);
      if (!got || got.restocked < 0 || got.damaged < 0 || got.restocked + got.damaged !== line.quantity)
        return { ok: false, error: "bad-quantities" };
      if (got.damaged > 0 && !got.damageReason?.trim()) return { ok: false, error: "reason-required" };
    }
    if (!(await moveReturn(tx, row, { from: ["authorised"], to: "received", step: "return-received", now: args.now })))
      return { ok: false, error: "not-allowed" };
    for (const line of announced) {
      const got = received.get(line.orderLineId)!;
      await tx
        .update(returnLines)
        .set({ restockedQuantity: got.restocked, damagedQuantity: got.damaged, damageReason: got.damaged > 0 ? got.damageReason!.trim() : null })
        .where(eq(returnLines.id, line.id));
    }
    const shelf = announced.flatMap((line) => {
      const restocked = received.get(line.orderLineId)!.restocked;
      return line.variantId !== null && restocked > 0 ? [{ variantId: line.variantId, quantity: restocked }] : [];
    });
    await giveBackStock(tx, shelf, { reason: "return-received", orderId: row.orderId, actorUserId: args.actorUserId, now: args.now });
    // A gift-list purchase sent back no longer counts as bought for the list.
    const giftListItems = announced.flatMap((line) =>
      line.giftListItemId ? [{ giftListItemId: line.giftListItemId, quantity: line.quantity }] : [],
    );
    if (giftListItems.length > 0) {
      const [order] = await tx.select().from(orders).where(eq(orders.id, row.orderId));
      await orderEffects().returned(tx, { order: order!, items: giftListItems, now: args.now });
    }
    await fulfilExchanges(tx, {
      returnId: row.id,
      orderId: row.orderId,
      returnNumber: row.number,
      actorUserId: args.actorUserId,
      now: args.now,
      links: args.links ?? null,
    });
    return { ok: true };
  });
}

/**
 * Received -> refunded, in the refund's transaction (refunds.service.ts): false when the return is not
 * (or no longer) received, so a second refund of the same return stops here.
 */
export async function markReturnRefunded(tx: Db, args: { returnId: string; now: Date }): Promise<boolean> {
  const moved = await tx
    .update(returns)
    .set({ status: "refunded", updatedAt: args.now })
    .where(and(eq(returns.id, args.returnId), eq(returns.status, "received")))
    .returning({ id: returns.id });
  return moved.length > 0;
}

/** The staff open a return for a faulty item: any of the order's lines, up to what was bought and not yet in a return. */
export async function openFaultyReturn(
  db: Db,
  args: { orderId: string; lines: readonly { orderLineId: string; quantity: number }[]; refundIban: string | null; now: Date },
): Promise<{ ok: true; returnId: string } | { ok: false; error: "not-found" | "bad-quantities" }> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, args.orderId)).for("update");
    if (!order) return { ok: false, error: "not-found" };
    const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    const inReturns = await unitsInReturns(tx, order.id);
    const chosen = args.lines.filter((line) => line.quantity > 0);
    if (chosen.length === 0 || new Set(chosen.map((line) => line.orderLineId)).size !== chosen.length) return { ok: false, error: "bad-quantities" };
    for (const entry of chosen) {
      const line = lines.find((candidate) => candidate.id === entry.orderLineId);
      if (!line || lineExclusion(line) === "not-goods" || entry.quantity > line.quantity - (inReturns.get(line.id) ?? 0))
        return { ok: false, error: "bad-quantities" };
    }
    const opened = await openReturn(tx, {
      orderId: order.id,
      withdrawalId: null,
      reason: "faulty",
      lines: chosen,
      refundDueAt: refundDeadline(args.now),
      refundIban: args.refundIban,
      now: args.now,
    });
    await addOrderNote(tx, { orderId: order.id, note: afterSalesNote("return-opened", opened.number), now: args.now });
    return { ok: true, returnId: opened.id };
  });
}

/** Units of each order line in returns that are not refused. */
export async function unitsInReturns(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ orderLineId: returnLines.orderLineId, quantity: returnLines.quantity })
    .from(returnLines)
    .innerJoin(returns, eq(returns.id, returnLines.returnId))
    .where(and(eq(returns.orderId, orderId), inArray(returns.status, ["requested", "authorised", "received", "refunded"])));
  const units = new Map<string, number>();
  for (const row of rows) units.set(row.orderLineId, (units.get(row.orderLineId) ?? 0) + row.quantity);
  return units;
}

export type ReturnView = {
  id: string;
  number: number;
  reason: string;
  status: ReturnStatus;
  refusalReason: string | null;
  refundDueAt: Date;
  refundIban: string | null;
  withdrawalId: string | null;
  createdAt: Date;
  lines: { orderLineId: string; name: string; sku: string; quantity: number; restocked: number; damaged: number; damageReason: string | null }[];
};

/** The order's returns, oldest first, with their lines. */
export async function listReturnsOfOrder(db: Db, orderId: string): Promise<ReturnView[]> {
  const rows = await db.select().from(returns).where(eq(returns.orderId, orderId)).orderBy(asc(returns.number));
  if (rows.length === 0) return [];
  const lines = await db
    .select({
      returnId: returnLines.returnId,
      orderLineId: returnLines.orderLineId,
      quantity: returnLines.quantity,
      restocked: returnLines.restockedQuantity,
      damaged: returnLines.damagedQuantity,
      damageReason: returnLines.damageReason,
      name: orderLines.name,
      sku: orderLines.sku,
    })
    .from(returnLines)
    .innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId))
    .where(
      inArray(
        returnLines.returnId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(orderLines.sku), asc(returnLines.id));
  return rows.map((row) => ({
    id: row.id,
    number: row.number,
    reason: row.reason,
    status: row.status,
    refusalReason: row.refusalReason,
    refundDueAt: row.refundDueAt,
    refundIban: row.refundIban,
    withdrawalId: row.withdrawalId,
    createdAt: row.createdAt,
    lines: lines.filter((line) => line.returnId === row.id).map(({ returnId: _returnId, ...line }) => line),
  }));
}
