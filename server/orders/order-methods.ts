/**
 * How an order is delivered and paid, as checkout, the orders and the gift lists speak of it
 * (docs/rules.md#checkout), pure: no db, env or clock. Which deliveries a postcode gets, which payments go
 * with a delivery, their fees, and how long an unpaid order holds its stock.
 */
import { onlinePaymentMethods, type OnlinePaymentMethod } from "#common/online-payment-methods.ts";
import { deliveryMethod, paymentMethod } from "#server/db/schema.ts";
import type { Cents } from "#server/money.ts";
import type { DeliverySettings } from "#server/settings/settings.ts";

/** As the database enums define them, in the order the checkout page offers them. */
export const deliveryMethods = deliveryMethod.enumValues;
export const paymentMethods = paymentMethod.enumValues;
export type DeliveryMethod = (typeof deliveryMethods)[number];
export type PaymentMethod = (typeof paymentMethods)[number];

/**
 * What a checkout form or API call may name as its payment: a way to pay online by its name ("card",
 * "paypal"...: the order's method is then "card", paid at the provider) or one the shop takes itself.
 */
export const paymentChoices = [...onlinePaymentMethods, ...paymentMethods.filter((method) => method !== "card")] as [
  OnlinePaymentMethod | PaymentMethod,
  ...(OnlinePaymentMethod | PaymentMethod)[],
];
export type PaymentChoice = (typeof paymentChoices)[number];

/** The order's payment method and, when it is paid online, how. */
export function paymentOfChoice(choice: PaymentChoice): { paymentMethod: PaymentMethod; onlinePaymentMethod: OnlinePaymentMethod | null } {
  const online = onlinePaymentMethods.find((method) => method === choice);
  return online ? { paymentMethod: "card", onlinePaymentMethod: online } : { paymentMethod: choice as PaymentMethod, onlinePaymentMethod: null };
}

export type DeliveryQuote = {
  method: DeliveryMethod;
  feeCents: Cents;
  available: boolean;
  /** Why a delivery is not offered: local delivery outside the town, standard delivery inside it (free local delivery instead). */
  reason: null | "postcode-not-local" | "postcode-local";
};

export function isLocalPostcode(settings: DeliverySettings, postcode: string | null): boolean {
  return postcode !== null && settings.localPostcodes.includes(postcode.trim());
}

/**
 * The delivery choices for a postcode. Local delivery (free) only in the shop's town; standard (flat fee,
 * free when every line is free-shipping) everywhere else; collection in the shop always, free. Without a
 * postcode yet, both home deliveries are offered and the postcode decides when the order is placed.
 */
export function quoteDeliveries(settings: DeliverySettings, args: { postcode: string | null; allLinesFreeShipping: boolean }): DeliveryQuote[] {
  const postcode = args.postcode?.trim() || null;
  const local = isLocalPostcode(settings, postcode);
  return [
    {
      method: "local_delivery",
      feeCents: 0,
      available: postcode === null || local,
      reason: postcode !== null && !local ? "postcode-not-local" : null,
    },
    { method: "collection", feeCents: 0, available: true, reason: null },
    {
      method: "standard",
      feeCents: args.allLinesFreeShipping ? 0 : settings.standardFeeCents,
      available: postcode === null || !local,
      reason: local ? "postcode-local" : null,
    },
  ];
}

/** `cardPayments: false`: nobody takes cards (no Stripe keys, no test payments; server/env.ts). */
type PaymentOptions = { giftList?: boolean; cardPayments?: boolean };

/**
 * Card (when someone takes cards) and bank transfer always; cash on delivery with a home delivery; pay in
 * shop with collection. A gift-list order never goes cash on delivery: it is delivered to the list's
 * family, not to the giver who pays. No delivery chosen yet (null): every method the shop may offer.
 */
export function allowedPaymentMethods(delivery: DeliveryMethod | null, options: PaymentOptions = {}): PaymentMethod[] {
  const methods: PaymentMethod[] =
    delivery === null
      ? [...paymentMethods]
      : delivery === "collection"
        ? ["card", "bank_transfer", "in_shop"]
        : options.giftList
          ? ["card", "bank_transfer"]
          : ["card", "cash_on_delivery", "bank_transfer"];
  return options.cardPayments === false ? methods.filter((method) => method !== "card") : methods;
}

export function isPaymentAllowed(delivery: DeliveryMethod, payment: PaymentMethod, options: PaymentOptions = {}): boolean {
  return allowedPaymentMethods(delivery, options).includes(payment);
}

/** A gift-list order's delivery is the list's: collection in the shop, or the home delivery its address's postcode gets. */
export function giftListDeliveryMethod(settings: DeliverySettings, postcode: string | null): DeliveryMethod {
  if (postcode === null) return "collection";
  return isLocalPostcode(settings, postcode) ? "local_delivery" : "standard";
}

/** The cash-on-delivery fee; other payments cost nothing extra. */
export function paymentFeeCents(settings: DeliverySettings, payment: PaymentMethod): Cents {
  return payment === "cash_on_delivery" ? settings.cashOnDeliveryFeeCents : 0;
}

/** Payment is taken when the goods are handed over: the order is confirmed but waits for it, with no deadline. */
export function isPaidOnHandover(payment: PaymentMethod): boolean {
  return payment === "cash_on_delivery" || payment === "in_shop";
}

/** The card session's lifetime: Stripe allows 30 minutes to 24 hours; the order holds its stock that long. */
export const cardPaymentMinutes = 60;

/** Until when an unpaid order holds its stock: card 60 minutes, bank transfer the configured days, on handover never. */
export function paymentDueAt(payment: PaymentMethod, now: Date, bankTransferDays: number): Date | null {
  if (payment === "card") return new Date(now.getTime() + cardPaymentMinutes * 60_000);
  if (payment === "bank_transfer") return new Date(now.getTime() + bankTransferDays * 24 * 60 * 60_000);
  return null;
}
