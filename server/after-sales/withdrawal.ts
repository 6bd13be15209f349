/**
 * The consumer's right of withdrawal, as pure rules (docs/decisions/0051-withdrawal-period.md): when it is
 * offered, until when, which lines it covers and what a statement may ask for. No db or clock.
 */
import { addDays, endOfItalianDay, italianDayOf } from "#common/shop-calendar.ts";
import type { AfterSalesSettings } from "#server/settings/settings.ts";
import type { DeliveryMethod } from "#server/orders/order-methods.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";

export type WithdrawalOrderFacts = {
  status: OrderStatus;
  deliveryMethod: DeliveryMethod;
  createdAt: Date;
  /** When the order moved to shipped and to completed (delivered or collected), from its history. */
  shippedAt: Date | null;
  completedAt: Date | null;
};

/**
 * "open": the function is offered, until `closesAt` (null while the period has not started: before
 * delivery the consumer may already withdraw). "not-yet": the goods have not left the shop (the shop
 * cancels such orders on request; a collection is offered once collected). "closed": the period is over, or the order was let go or refunded.
 */
export type WithdrawalWindow =
  { state: "open"; startsAt: Date | null; closesAt: Date | null } | { state: "not-yet" } | { state: "closed"; closesAt: Date | null };

/** The goods have left the shop: shipped, delivered or collected. */
const handedOverStatuses: ReadonlySet<OrderStatus> = new Set(["shipped", "completed"]);

export function withdrawalWindow(
  order: WithdrawalOrderFacts,
  settings: Pick<AfterSalesSettings, "withdrawalDays" | "homeDeliveryStart" | "collectionStart">,
  now: Date,
): WithdrawalWindow {
  const collection = order.deliveryMethod === "collection";
  if (!handedOverStatuses.has(order.status)) {
    return order.status === "cancelled" || order.status === "expired" || order.status === "refunded"
      ? { state: "closed", closesAt: null }
      : { state: "not-yet" };
  }
  const startsAt = collection
    ? settings.collectionStart === "ordered"
      ? order.createdAt
      : order.completedAt
    : settings.homeDeliveryStart === "shipped"
      ? order.shippedAt
      : order.completedAt;
  if (!startsAt) return { state: "open", startsAt: null, closesAt: null };
  // The day of the start does not count; the period ends with the last of its days, Italian time.
  const closesAt = endOfItalianDay(addDays(italianDayOf(startsAt), settings.withdrawalDays));
  return now <= closesAt ? { state: "open", startsAt, closesAt } : { state: "closed", closesAt };
}

export type WithdrawableLineFacts = {
  id: string;
  quantity: number;
  variantId: number | null;
  personalisation: Record<string, string>;
  personalisationUnitCents: number;
};

/** Why a line cannot be withdrawn: goods made to the customer's specification (the shop's personalisation), or no goods at all. */
export type LineExclusion = "personalised" | "not-goods";

export function lineExclusion(line: WithdrawableLineFacts): LineExclusion | null {
  if (Object.keys(line.personalisation).length > 0 || line.personalisationUnitCents > 0) return "personalised";
  if (line.variantId === null) return "not-goods";
  return null;
}

export type WithdrawalRefusal = "nothing-chosen" | "more-than-bought" | "already-withdrawn" | "excluded-line" | "unknown-line";

/**
 * Checks the units asked for against what is left of each line (bought minus withdrawn earlier).
 * Lines asked for with 0 units are left out of the statement.
 */
export function checkWithdrawalLines(
  lines: readonly { id: string; quantity: number; exclusion: LineExclusion | null }[],
  withdrawnBefore: ReadonlyMap<string, number>,
  asked: readonly { orderLineId: string; quantity: number }[],
): { ok: true; lines: { orderLineId: string; quantity: number }[] } | { ok: false; error: WithdrawalRefusal } {
  const chosen = asked.filter((entry) => entry.quantity > 0);
  const left = (line: { id: string; quantity: number }) => line.quantity - (withdrawnBefore.get(line.id) ?? 0);
  const open = lines.filter((line) => line.exclusion === null && left(line) > 0);
  if (open.length === 0) return { ok: false, error: "already-withdrawn" };
  if (chosen.length === 0) return { ok: false, error: "nothing-chosen" };
  const seen = new Set<string>();
  for (const entry of chosen) {
    const line = lines.find((candidate) => candidate.id === entry.orderLineId);
    if (!line || seen.has(entry.orderLineId)) return { ok: false, error: "unknown-line" };
    seen.add(entry.orderLineId);
    if (line.exclusion) return { ok: false, error: "excluded-line" };
    if (left(line) === 0) return { ok: false, error: "already-withdrawn" };
    if (entry.quantity > left(line)) return { ok: false, error: "more-than-bought" };
  }
  return { ok: true, lines: chosen };
}

/** Units already withdrawn per order line, summed over the order's earlier statements. */
export function withdrawnPerLine(statements: readonly { lines: readonly { orderLineId: string; quantity: number }[] }[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const statement of statements)
    for (const line of statement.lines) units.set(line.orderLineId, (units.get(line.orderLineId) ?? 0) + line.quantity);
  return units;
}

/** The law's time to refund: 14 days from the day the withdrawal was received. */
export function refundDeadline(receivedAt: Date): Date {
  return endOfItalianDay(addDays(italianDayOf(receivedAt), 14));
}

/** Whole days left until `dueAt` (0 on its last day; negative once past): the countdown on an open return. */
export function daysLeft(dueAt: Date, now: Date): number {
  const today = italianDayOf(now);
  const last = italianDayOf(dueAt);
  return Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}
