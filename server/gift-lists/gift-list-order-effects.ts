/**
 * What the gift lists do when an order is paid or let go (server/orders/order-effects.ts), in the
 * order's transaction: a paid order's purchases and group-gift contribution count, a let-go order's
 * group-gift pledge goes back, a late payment takes it again. (A completion code's use is the coupons'.)
 */
import type { OrderEffects } from "#server/orders/order-effects.ts";
import { recordGroupGiftPayment, releaseGroupGiftContribution, retakeGroupGiftPledge } from "./gift-list-group.service";
import { recordGiftListPurchases, recordGiftListReturn } from "./gift-list-orders.service";

export const giftListOrderEffects: OrderEffects = {
  /**
   * Units paid beyond what the list still needed (two guests paid for the last one) leave the order as it
   * is, with a note for the staff: refund them or keep them as an extra gift (docs/decisions/0016-gift-lists.md).
   */
  async paid(tx, { order, now, publicUrl }) {
    if (!order.giftListId) return { note: null };
    // A contribution toward a group gift: counted once, and the one completing the price funds the gift.
    await recordGroupGiftPayment(tx, { order, now, publicUrl });
    const { overflow } = await recordGiftListPurchases(tx, { order, now, publicUrl });
    if (overflow.length === 0) return { note: null };
    const units = overflow.reduce((sum, item) => sum + item.quantity, 0);
    // For the staff, in the back office's language: the code first, then what to do.
    return {
      note: `gift-list-overflow:${units} · ${units} pz. pagati oltre quanto la lista chiedeva ancora: chiedere a chi regala se rimborsarli o tenerli come regalo in più`,
    };
  },

  async released(tx, { order, now }) {
    // A group-gift contribution that will not be kept frees its amount for the other guests.
    if (order.giftListId) await releaseGroupGiftContribution(tx, { orderId: order.id, wasPaid: order.paidAt !== null, now });
  },

  async returned(tx, { order, items }) {
    if (order.giftListId) await recordGiftListReturn(tx, { orderId: order.id, items });
  },

  async retaken(tx, { order }) {
    return !order.giftListId || (await retakeGroupGiftPledge(tx, { orderId: order.id }));
  },
};
