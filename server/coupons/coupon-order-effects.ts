/**
 * What the coupons do when an order is let go or paid late (server/orders/order-effects.ts), in the
 * order's transaction: an order expired or cancelled gives its code's use back (a refunded one keeps it:
 * the code was spent on goods the customer had); a late payment takes it again, if one is left.
 */
import type { OrderEffects } from "#server/orders/order-effects.ts";
import { giveBackDiscountCodeUse, takeDiscountCodeUse } from "./coupon.service";

export const couponOrderEffects: Pick<OrderEffects, "released" | "retaken"> = {
  async released(tx, { order, to }) {
    if (to !== "refunded" && order.discountCodeId !== null) await giveBackDiscountCodeUse(tx, order.id);
  },

  async retaken(tx, { order }) {
    if (order.discountCodeId === null) return true;
    const use = { discountCodeId: order.discountCodeId, orderId: order.id, userId: order.userId, email: order.email };
    return (await takeDiscountCodeUse(tx, use)).ok;
  },
};
