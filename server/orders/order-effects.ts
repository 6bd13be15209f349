/**
 * What other domains do, in the order's own transaction, when an order is paid or let go: the gift
 * lists keep their purchases, group-gift pledges and completion codes in step with it. Gift lists build
 * on orders (they create and move them), so orders call them through this port and import none of them;
 * the shop wires the gift lists' effects once, where it starts (server/http/shop-app.ts; tests/db.ts for
 * the suites). Unwired, any move that needs them fails loudly rather than skip them.
 */
import type { Db } from "#server/db/client.ts";
import type { orders } from "#server/db/schema.ts";

/** The order as the door locked it. */
export type EffectOrder = typeof orders.$inferSelect;

export type OrderEffects = {
  /** The order is paid: what it bought or gave counts, once. A note for the staff goes into its history. */
  paid(tx: Db, args: { order: EffectOrder; now: Date; publicUrl: string | null }): Promise<{ note: string | null }>;
  /** The order is let go: what it held (a code's use, a group-gift pledge) goes back, once. */
  released(tx: Db, args: { order: EffectOrder; to: "cancelled" | "expired" | "refunded"; now: Date }): Promise<void>;
  /**
   * Units of the order came back after a withdrawal (server/after-sales/): what they counted for (a gift
   * list's bought units) no longer counts, once per receipt.
   */
  returned(tx: Db, args: { order: EffectOrder; items: { giftListItemId: string; quantity: number }[]; now: Date }): Promise<void>;
  /** A late payment of a let-go order takes back what it held; false when any of it is gone. */
  retaken(tx: Db, args: { order: EffectOrder }): Promise<boolean>;
};

let wired: OrderEffects | null = null;

export function wireOrderEffects(effects: OrderEffects): void {
  wired = effects;
}

export function orderEffects(): OrderEffects {
  if (!wired) throw new Error("orders: no order effects wired (the shop wires the gift lists' where it starts, server/http/shop-app.ts)");
  return wired;
}
