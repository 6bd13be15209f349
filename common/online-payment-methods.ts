/**
 * The ways a customer may pay online through the payment provider (Stripe Checkout), as the back office
 * turns them on and the checkout offers them (docs/decisions/0065-online-payment-methods.md). The names
 * are Stripe's payment method types, but for "scalapay", paid at Scalapay directly (decision 0104). Browser-safe: the checkout page and the server read the same list.
 */

/** In the order the checkout lists them: the card first, then what Italians use most. */
export const onlinePaymentMethods = ["card", "paypal", "satispay", "klarna", "sepa_debit", "scalapay"] as const;
export type OnlinePaymentMethod = (typeof onlinePaymentMethods)[number];

export function isOnlinePaymentMethod(value: unknown): value is OnlinePaymentMethod {
  return typeof value === "string" && (onlinePaymentMethods as readonly string[]).includes(value);
}

/** A method as the staff set it: offered or not, and the order totals it is offered for (null: no limit). */
export type OnlineMethodSetting = { enabled: boolean; minCents: number | null; maxCents: number | null };
export type OnlinePaymentSettings = Record<OnlinePaymentMethod, OnlineMethodSetting>;

/** Why a method the shop offers is not offered for this order: the total is below its minimum or above its maximum. */
export type OnlineMethodOffer = {
  method: OnlinePaymentMethod;
  available: boolean;
  reason: null | "below-minimum" | "above-maximum";
  minCents: number | null;
  maxCents: number | null;
};

/** The methods the shop has turned on, each with whether this order's total fits its limits. */
export function onlineMethodOffers(settings: OnlinePaymentSettings, totalCents: number): OnlineMethodOffer[] {
  return onlinePaymentMethods
    .filter((method) => settings[method].enabled)
    .map((method) => {
      const { minCents, maxCents } = settings[method];
      const reason =
        minCents !== null && totalCents < minCents ? "below-minimum" : maxCents !== null && totalCents > maxCents ? "above-maximum" : null;
      return { method, available: reason === null, reason, minCents, maxCents };
    });
}

/** Whether the shop takes any payment online at all (else checkout offers no online choice). */
export function offersOnlinePayments(settings: OnlinePaymentSettings): boolean {
  return onlinePaymentMethods.some((method) => settings[method].enabled);
}

/** Whether this method may pay an order of this total (the server's check; the page only shows it). */
export function isOnlineMethodOffered(settings: OnlinePaymentSettings, method: OnlinePaymentMethod, totalCents: number): boolean {
  return onlineMethodOffers(settings, totalCents).some((offer) => offer.method === method && offer.available);
}
