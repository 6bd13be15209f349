/**
 * Checkout's own rules, pure: no db, env or clock. Its refusals and the order's totals in integer cents
 * (the delivery and payment rules are the orders' vocabulary, server/orders/order-methods.ts).
 */
import { sumCents, timesQuantity, type Cents } from "#server/money.ts";

/** Every expected refusal of checkout; each code is also the message key `checkoutErrors.<code>`. */
export type CheckoutErrorCode =
  | "empty-cart"
  | "out-of-stock"
  | "unavailable-product"
  | "delivery-not-available"
  | "payment-not-allowed"
  | "online-method-not-offered"
  | "address-not-found"
  | "invalid-input"
  | "gift-list-closed"
  | "gift-list-shortfall"
  | "idempotency-key-conflict";

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
  /** Voucher lines (gift cards bought, fund contributions): in the total, outside the goods and VAT (decision 0106). */
  voucherCents: Cents;
  totalCents: Cents;
};

/**
 * The order's totals. A discount code's saving (`codeDiscountCents`, from server/coupons/coupon.ts) and
 * the loyalty points' discount come out of the subtotal and count among the discounts, like a product's offer.
 */
export function orderTotals(
  lines: readonly CheckoutLine[],
  fees: { shippingCents: Cents; paymentFeeCents: Cents; codeDiscountCents?: Cents; loyaltyDiscountCents?: Cents; voucherCents?: Cents },
): OrderTotals {
  // Loyalty points redeemed are a discount too (docs/decisions/0099-loyalty-card.md): out of the goods, not a payment.
  const codeDiscountCents = (fees.codeDiscountCents ?? 0) + (fees.loyaltyDiscountCents ?? 0);
  const subtotalCents = sumCents(lines.map((line) => timesQuantity(line.unitCents, line.quantity))) - codeDiscountCents;
  const listCents = sumCents(lines.map((line) => timesQuantity(line.listUnitCents, line.quantity)));
  const personalisationCents = sumCents(lines.map((line) => timesQuantity(line.personalisationUnitCents, line.quantity)));
  return {
    subtotalCents,
    discountCents: listCents - subtotalCents,
    personalisationCents,
    shippingCents: fees.shippingCents,
    paymentFeeCents: fees.paymentFeeCents,
    voucherCents: fees.voucherCents ?? 0,
    totalCents: sumCents([subtotalCents, personalisationCents, fees.shippingCents, fees.paymentFeeCents, fees.voucherCents ?? 0]),
  };
}
