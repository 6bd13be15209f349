/**
 * What the loyalty card does when an order is let go or paid late (server/orders/order-effects.ts), in the
 * order's transaction: points spent on an order cancelled or expired unpaid come back; a refunded order
 * keeps them spent (the refund pays back money, and its earned points are settled by the loyalty job); a
 * late payment spends them again, if the card still has them.
 */
import type { OrderEffects } from "#server/orders/order-effects.ts";
import { givePointsBackOfOrder, retakePointsOfOrder } from "./loyalty.service";

export const loyaltyOrderEffects: Pick<OrderEffects, "released" | "retaken"> = {
  async released(tx, { order, to, now }) {
    if (to !== "refunded" && order.loyaltyPointsRedeemed > 0) await givePointsBackOfOrder(tx, { orderId: order.id, now });
  },

  async retaken(tx, { order }) {
    return retakePointsOfOrder(tx, { orderId: order.id, userId: order.userId, points: order.loyaltyPointsRedeemed, now: new Date() });
  },
};
