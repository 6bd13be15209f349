/**
 * Checkout's rules (DECISIONS.md "Cart and checkout"), pure: no db, env or clock. Which deliveries a
 * postcode gets, which payments go with a delivery, fees and the order's totals in integer cents.
 */
import { deliveryMethod, paymentMethod } from "#server/db/schema.ts";
import { sumCents, timesQuantity, type Cents } from "#server/money.ts";
import type { DeliverySettings } from "#server/settings/settings.ts";

/** As the database enums define them, in the order the checkout page offers them. */
export const deliveryMethods = deliveryMethod.enumValues;
export const paymentMethods = paymentMethod.enumValues;
export type DeliveryMethod = (typeof deliveryMethods)[number];
export type PaymentMethod = (typeof paymentMethods)[number];

/** Every expected refusal of checkout; each code is also the message key `checkoutErrors.<code>`. */
export type CheckoutErrorCode =
  | "empty-cart"
  | "out-of-stock"
  | "unavailable-product"
  | "delivery-not-available"
  | "payment-not-allowed"
  | "address-not-found"
  | "invalid-input"
  | "gift-list-closed"
  | "gift-list-shortfall"
  | "idempotency-key-conflict";

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

export type CheckoutLine = {
  variantId: number;
  quantity: number;
  /** List price of one unit. */
  listUnitCents: Cents;
  /** The price paid for one unit today (discount applied). */
  unitCents: Cents;
  personalisationUnitCents: Cents;
};

export type OrderTotals = {
  /** Goods at today's prices (discounts applied), without personalisation. */
  subtotalCents: Cents;
  /** What the discounts saved against list prices (already out of the subtotal: shown, not subtracted again). */
  discountCents: Cents;
  personalisationCents: Cents;
  shippingCents: Cents;
  paymentFeeCents: Cents;
  totalCents: Cents;
};

/**
 * The order's totals. A discount code's saving (`codeDiscountCents`, from the gift list's completion rule)
 * comes out of the subtotal and counts among the discounts, like a product's offer.
 */
export function orderTotals(lines: readonly CheckoutLine[], fees: { shippingCents: Cents; paymentFeeCents: Cents; codeDiscountCents?: Cents }): OrderTotals {
  const codeDiscountCents = fees.codeDiscountCents ?? 0;
  const subtotalCents = sumCents(lines.map((line) => timesQuantity(line.unitCents, line.quantity))) - codeDiscountCents;
  const listCents = sumCents(lines.map((line) => timesQuantity(line.listUnitCents, line.quantity)));
  const personalisationCents = sumCents(lines.map((line) => timesQuantity(line.personalisationUnitCents, line.quantity)));
  return {
    subtotalCents,
    discountCents: listCents - subtotalCents,
    personalisationCents,
    shippingCents: fees.shippingCents,
    paymentFeeCents: fees.paymentFeeCents,
    totalCents: sumCents([subtotalCents, personalisationCents, fees.shippingCents, fees.paymentFeeCents]),
  };
}

/** Quantities per variant: two lines of one variant (different personalisation) draw on the same stock. */
export function quantitiesPerVariant(lines: readonly { variantId: number; quantity: number }[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(line.variantId, (sums.get(line.variantId) ?? 0) + line.quantity);
  return new Map([...sums].sort(([a], [b]) => a - b));
}

/** Variants whose summed quantity is above their stock, with what is left. */
export function shortages(wanted: ReadonlyMap<number, number>, stockOf: (variantId: number) => number): { variantId: number; available: number }[] {
  return [...wanted].filter(([variantId, quantity]) => quantity > stockOf(variantId)).map(([variantId]) => ({ variantId, available: Math.max(0, stockOf(variantId)) }));
}
