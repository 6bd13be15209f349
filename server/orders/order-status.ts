/**
 * The order workflow (DECISIONS.md): awaiting payment -> paid -> preparing -> shipped or ready for
 * collection -> completed; cancelled, expired and refunded beside. Pure: no db or clock.
 */
import type { DeliveryMethod, PaymentMethod } from "#server/checkout/checkout.ts";
import { isPaidOnHandover } from "#server/checkout/checkout.ts";
import { orderStatus } from "#server/db/schema.ts";

/** The statuses as the database enum defines them, in workflow order. */
export const orderStatuses = orderStatus.enumValues;
export type OrderStatus = (typeof orderStatuses)[number];

/** Stock is still held by the order in these: cancelling or expiring gives it back. */
const stockHoldingStatuses: ReadonlySet<OrderStatus> = new Set(["awaiting_payment", "paid", "preparing", "ready_for_collection"]);

export type OrderFacts = { deliveryMethod: DeliveryMethod; paymentMethod: PaymentMethod };

/**
 * Where the back office may move an order from `from`. Cash on delivery and pay in shop are confirmed
 * orders whose payment comes on handover: they are prepared and shipped (or made ready) while still
 * awaiting payment. Shipping is for home deliveries, "ready for collection" for collection.
 */
export function nextStatuses(from: OrderStatus, order: OrderFacts): OrderStatus[] {
  const handover = order.deliveryMethod === "collection" ? "ready_for_collection" : "shipped";
  switch (from) {
    case "awaiting_payment":
      return isPaidOnHandover(order.paymentMethod) ? ["paid", "preparing", "cancelled"] : ["paid", "cancelled"];
    case "paid":
      return ["preparing", "cancelled", "refunded"];
    case "preparing":
      return [handover, "cancelled", ...(isPaidOnHandover(order.paymentMethod) ? [] : (["refunded"] as const))];
    case "shipped":
    case "ready_for_collection":
      return ["completed", "refunded"];
    case "completed":
      return ["refunded"];
    default:
      return [];
  }
}

export function canChangeStatus(from: OrderStatus, to: OrderStatus, order: OrderFacts): boolean {
  return nextStatuses(from, order).includes(to);
}

/** Cancelling from these statuses puts the order's units back in stock (a shipped parcel is not on the shelf). */
export function returnsStockOn(from: OrderStatus, to: OrderStatus): boolean {
  return (to === "cancelled" || to === "expired" || to === "refunded") && stockHoldingStatuses.has(from);
}
