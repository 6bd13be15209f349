/**
 * What other domains do, in the order's own transaction, when an order is paid or let go: the gift
 * lists keep their purchases and group-gift pledges in step with it, the coupons a code's use. They
 * build on orders (they create and move them), so orders call them through this port and import none
 * of them; the shop wires their effects once, where it starts (server/http/shop-app.ts; tests/db.ts for
 * the suites), each domain giving only the moves it cares about. Unwired, any move fails loudly.
 */
import type { Db } from "#server/db/client.ts";
import type { orders } from "#server/db/schema.ts";

/** The order as the door locked it. */
export type EffectOrder = typeof orders.$inferSelect;

export type OrderEffects = {
  /** The order is paid: what it bought or gave counts, once. A note for the staff goes into its history. */
  paid(tx: Db, args: { order: EffectOrder; now: Date; publicUrl: string | null; secret: string | null }): Promise<{ note: string | null }>;
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

/** Every domain's effects, called in the order given; a late payment retakes all or none (the door's savepoint). */
export function wireOrderEffects(...domains: Partial<OrderEffects>[]): void {
  wired = {
    async paid(tx, args) {
      const notes: string[] = [];
      for (const domain of domains) {
        const { note } = (await domain.paid?.(tx, args)) ?? { note: null };
        if (note) notes.push(note);
      }
      return { note: notes.length > 0 ? notes.join("\n") : null };
    },
    async released(tx, args) {
      for (const domain of domains) await domain.released?.(tx, args);
    },
    async returned(tx, args) {
      for (const domain of domains) await domain.returned?.(tx, args);
    },
    async retaken(tx, args) {
      for (const domain of domains) if (domain.retaken && !(await domain.retaken(tx, args))) return false;
      return true;
    },
  };
}

export function orderEffects(): OrderEffects {
  if (!wired) throw new Error("orders: no order effects wired (the shop wires the domains' where it starts, server/http/shop-app.ts)");
  return wired;
}
