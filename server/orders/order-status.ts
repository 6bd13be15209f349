/**
 * The order workflow (docs/rules.md#order-workflow): awaiting payment -> paid -> preparing -> shipped or ready for
 * collection -> completed; cancelled, expired and refunded beside; and the moves the shop makes by
 * itself. Pure: no db or clock. The one door that applies them is moveOrder in order.service.ts.
 */
import { orderStatus } from "#server/db/schema.ts";
import { isPaidOnHandover, type DeliveryMethod, type PaymentMethod } from "./order-methods";

/** The statuses as the database enum defines them, in workflow order. */
export const orderStatuses = orderStatus.enumValues;
export type OrderStatus = (typeof orderStatuses)[number];

/** Stock is still held by the order in these: cancelling or expiring gives it back. */
const stockHoldingStatuses: ReadonlySet<OrderStatus> = new Set(["awaiting_payment", "paid", "preparing", "ready_for_collection"]);

export type OrderFacts = { deliveryMethod: DeliveryMethod; paymentMethod: PaymentMethod; giftListId?: string | null };

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

/**
 * The moves the shop makes by itself, beside the workflow's: money arriving; money arriving late, for an
 * order that had given up its stock and took it again; the time to pay running out; and a group gift
 * funded, whose contributions' money became the list's order (nothing is left to do on them).
 */
const shopMoves = {
  paid: [["awaiting_payment", "paid"]],
  "paid-late": [
    ["expired", "paid"],
    ["cancelled", "paid"],
  ],
  expired: [["awaiting_payment", "expired"]],
  "group-gift-funded": [["paid", "completed"]],
} as const satisfies Record<string, readonly (readonly [OrderStatus, OrderStatus])[]>;

/** Who moves the order: "workflow" is the back office's (and the customer's cancel) along nextStatuses. */
export type OrderMove = "workflow" | keyof typeof shopMoves;

export function canMove(from: OrderStatus, to: OrderStatus, order: OrderFacts, move: OrderMove): boolean {
  if (move === "workflow") return canChangeStatus(from, to, order);
  if (move === "group-gift-funded" && !order.giftListId) return false;
  return shopMoves[move].some(([allowedFrom, allowedTo]) => allowedFrom === from && allowedTo === to);
}

/** Cancelling from these statuses puts the order's units back in stock (a shipped parcel is not on the shelf). */
export function returnsStockOn(from: OrderStatus, to: OrderStatus): boolean {
  return (to === "cancelled" || to === "expired" || to === "refunded") && stockHoldingStatuses.has(from);
}
