/**
 * What gift cards do when an order is let go or paid late (server/orders/order-effects.ts), in the order's
 * transaction: an unpaid order cancelled or expired gives its card share back, a refunded order returns it
 * to the card (never as cash: docs/decisions/0097-gift-cards.md), unless its returns' refunds did; a late payment
 * takes it again, if the card still has it.
 */
import type { OrderEffects } from "#server/orders/order-effects.ts";
import { hasReturnRefunds } from "#server/after-sales/refunds.service.ts";
import { giveBackToGiftCards, retakeGiftCards } from "./gift-card.service";

export const giftCardOrderEffects: Pick<OrderEffects, "released" | "retaken"> = {
  async released(tx, { order, to, now }) {
    if (order.giftCardCents === 0) return;
    // Refunded through its returns: each refund gave the card its share already, no more (refunds.service.ts).
    if (to === "refunded" && (await hasReturnRefunds(tx, order.id))) return;
    await giveBackToGiftCards(tx, { orderId: order.id, kind: to === "refunded" ? "refund" : "give_back", now });
  },

  async retaken(tx, { order }) {
    return retakeGiftCards(tx, { orderId: order.id, giftCardCents: order.giftCardCents, now: new Date() });
  },
};
