/**
 * When online orders earn their points, and give them back: an order of a card holder is credited once
 * its withdrawal period is over (server/after-sales/withdrawal.ts decides it, the same rule the withdrawal
 * page uses), on the goods that earn points as paid (less a code's and the points' own discount) and less
 * what was refunded; a refund after that takes back its share. Run by the loyalty job, safe to repeat.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { loyaltyCards, loyaltyEntries, orderLines, orders, orderStatusHistory, refunds } from "#server/db/schema.ts";
import { withdrawalWindow } from "#server/after-sales/withdrawal.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { pointsDue } from "./loyalty";
import { creditOrderPoints, takeBackRefundedPoints } from "./loyalty.service";

/** What an order's goods that earn points cost as paid, and what refunds gave back of them. */
async function earningCentsOf(db: Db, orderId: string): Promise<{ paidCents: number; refundedCents: number }> {
  const lines = await db
    .select({ id: orderLines.id, total: orderLines.lineTotalCents, code: orderLines.codeDiscountCents, points: orderLines.loyaltyDiscountCents })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.isLoyaltyExcluded, false)));
  const earning = new Set(lines.map((line) => line.id));
  const refundRows = await db.select({ lines: refunds.lines }).from(refunds).where(eq(refunds.orderId, orderId));
  const refundedCents = refundRows.flatMap((row) => row.lines).reduce((sum, line) => sum + (earning.has(line.orderLineId) ? line.amountCents : 0), 0);
  return { paidCents: lines.reduce((sum, line) => sum + line.total - line.code - line.points, 0), refundedCents };
}

function firstMoveTo(history: readonly { toStatus: string; fromStatus: string | null; createdAt: Date }[], status: string): Date | null {
  return history.find((row) => row.toStatus === status && row.fromStatus !== status)?.createdAt ?? null;
}

/** Orders of card holders, placed after they joined, handed over and not yet credited. */
export async function creditEarnedPoints(db: Db, now: Date): Promise<number> {
  const candidates = await db
    .select({ order: orders, cardId: loyaltyCards.id })
    .from(orders)
    .innerJoin(loyaltyCards, eq(loyaltyCards.userId, orders.userId))
    .where(
      and(
        inArray(orders.status, ["shipped", "completed"]),
        sql`${orders.createdAt} >= ${loyaltyCards.createdAt}`,
        sql`not exists (select 1 from ${loyaltyEntries} where ${loyaltyEntries.orderId} = ${orders.id} and ${loyaltyEntries.kind} = 'order-earned')`,
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(200);
  if (candidates.length === 0) return 0;
  const { afterSales, loyalty } = await getSettings(db, ["afterSales", "loyalty"]);
  let credited = 0;
  for (const { order, cardId } of candidates) {
    const history = await db
      .select({ toStatus: orderStatusHistory.toStatus, fromStatus: orderStatusHistory.fromStatus, createdAt: orderStatusHistory.createdAt })
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id))
      .orderBy(asc(orderStatusHistory.id));
    const window = withdrawalWindow(
      {
        status: order.status,
        deliveryMethod: order.deliveryMethod,
        createdAt: order.createdAt,
        shippedAt: firstMoveTo(history, "shipped"),
        completedAt: firstMoveTo(history, "completed"),
      },
      afterSales,
      now,
    );
    if (window.state !== "closed" || window.closesAt === null) continue;
    const { paidCents, refundedCents } = await earningCentsOf(db, order.id);
    const points = pointsDue(paidCents, refundedCents, loyalty.pointsPerEuro);
    const done = await db.transaction((tx) => creditOrderPoints(tx, { cardId, orderId: order.id, points, refundedCents, now }));
    if (done) credited += points;
  }
  return credited;
}

/** Credited orders refunded since: the points of what was refunded come back off the card. */
export async function takeBackPointsOfRefunds(db: Db, now: Date): Promise<number> {
  const settled = await db
    .select({
      orderId: loyaltyEntries.orderId,
      cardId: loyaltyEntries.cardId,
      settledCents: sql<number>`max(${loyaltyEntries.settledRefundCents})`.mapWith(Number),
      settledAt: sql<Date>`max(${loyaltyEntries.createdAt})`.mapWith((value: string | Date) => new Date(value)),
    })
    .from(loyaltyEntries)
    .where(
      and(
        inArray(loyaltyEntries.kind, ["order-earned", "refund-taken-back"]),
        sql`exists (select 1 from ${refunds} where ${refunds.orderId} = ${loyaltyEntries.orderId})`,
      ),
    )
    .groupBy(loyaltyEntries.orderId, loyaltyEntries.cardId)
    .having(
      gt(
        sql`(select max(${refunds.createdAt}) from ${refunds} where ${refunds.orderId} = ${loyaltyEntries.orderId})`,
        sql`max(${loyaltyEntries.createdAt})`,
      ),
    )
    .limit(200);
  if (settled.length === 0) return 0;
  const { loyalty } = await getSettings(db, ["loyalty"]);
  let taken = 0;
  for (const row of settled) {
    if (!row.orderId) continue;
    const { paidCents, refundedCents } = await earningCentsOf(db, row.orderId);
    if (refundedCents <= row.settledCents) continue;
    const points = pointsDue(paidCents, row.settledCents, loyalty.pointsPerEuro) - pointsDue(paidCents, refundedCents, loyalty.pointsPerEuro);
    const orderId = row.orderId;
    taken += await db.transaction((tx) => takeBackRefundedPoints(tx, { cardId: row.cardId, orderId, points, refundedCents, now }));
  }
  return taken;
}
