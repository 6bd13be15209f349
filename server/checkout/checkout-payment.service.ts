/**
 * Placing an order and sending the customer to pay, one way for the checkout page and for the API
 * (/api/createcheckoutsession): placeOrder, then, for a card order still awaiting payment, its card
 * session; a refusal mapped once to its HTTP status and its messages in the customer's language.
 */
import { formatMoney } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { orderAccessToken, orderPageHref } from "#server/orders/order-access.ts";
import { startCardPayment, type StartCardPaymentResult } from "#server/payments/payment.service.ts";
import type { CheckoutErrorCode } from "./checkout";
import { placeOrder, type PlaceOrderArgs, type PlaceOrderResult } from "./checkout.service";

type PaymentServices = Parameters<typeof startCardPayment>[0];

type PlacedOrder = Extract<PlaceOrderResult, { ok: true }>;

export type CheckoutPlaced = {
  ok: true;
  orderId: string;
  orderNumber: number;
  alreadyPlaced: boolean;
  /** The order's page, relative to the site, with its access token. */
  orderHref: string;
  /** A card order awaiting payment: its session, or why none opened (the order waits; its page offers "Paga ora"). Null otherwise. */
  payment: StartCardPaymentResult | null;
};

export type CheckoutRefusal = {
  ok: false;
  /** 409: the cart, its stock or its list changed under the customer, or the key is someone else's; 400: what was sent. */
  status: 400 | 409;
  error: CheckoutErrorCode | "discount-code" | "gift-card" | "loyalty-points" | "voucher";
  /** The refusal in the customer's language. */
  message: string;
  /** A field's own message (the discount code's, the gift card's, the loyalty points'), for the form or the API's field errors. */
  fields: { discountCode?: string; giftCardCode?: string; loyaltyPoints?: string };
  /** Lines short of stock, or of what the list still needs, with what is left. */
  lines: { variantId: number; name: string; available: number }[];
};

export type CheckoutOutcome = CheckoutPlaced | CheckoutRefusal;

const refusalStatus: Record<CheckoutErrorCode, 400 | 409> = {
  "empty-cart": 409,
  "out-of-stock": 409,
  "unavailable-product": 409,
  "gift-list-closed": 409,
  "gift-list-shortfall": 409,
  "idempotency-key-conflict": 409,
  "delivery-not-available": 400,
  "payment-not-allowed": 400,
  "online-method-not-offered": 400,
  "address-not-found": 400,
  "invalid-input": 400,
};

export function checkoutRefusalOf(result: Extract<PlaceOrderResult, { ok: false }>, locale: Locale): CheckoutRefusal {
  const t = getTranslator(locale);
  if (result.error === "discount-code") {
    const message = t(`checkout.discount.errors.${result.discountError}`, { minimum: formatMoney(result.minOrderCents ?? 0, locale) });
    return { ok: false, status: 400, error: "discount-code", message, fields: { discountCode: message }, lines: [] };
  }
  if (result.error === "gift-card") {
    // The card's balance spent meanwhile by another checkout is a conflict; the rest is what was typed.
    const message = t(`giftCards.errors.${result.giftCardError}`);
    const status = result.giftCardError === "balance-changed" ? 409 : 400;
    return { ok: false, status, error: "gift-card", message, fields: { giftCardCode: message }, lines: [] };
  }
  if (result.error === "loyalty-points") {
    const message = t(`loyalty.errors.${result.loyaltyError}`);
    const status = result.loyaltyError === "not-enough-points" ? 409 : 400;
    return { ok: false, status, error: "loyalty-points", message, fields: { loyaltyPoints: message }, lines: [] };
  }
  if (result.error === "voucher") {
    // A voucher line no longer sold as it is (amount, day, fund closed, mixed cart): the cart page lets her change it.
    return { ok: false, status: 409, error: "voucher", message: t(`vouchers.errors.${result.voucherError}`), fields: {}, lines: [] };
  }
  return {
    ok: false,
    status: refusalStatus[result.error],
    error: result.error,
    message: t(`checkoutErrors.${result.error}`),
    fields: {},
    lines: result.lines ?? [],
  };
}

/** An order placed (now, or by an earlier send of the same key) and, for a card order awaiting payment, its session. */
export async function startPaymentOf(
  services: PaymentServices,
  order: PlacedOrder,
  args: { locale: Locale; secret: string },
): Promise<CheckoutPlaced> {
  const orderHref = orderPageHref(args.locale, order.orderId, orderAccessToken(args.secret, order.orderId));
  const payment =
    order.paymentMethod === "card" && order.status === "awaiting_payment"
      ? await startCardPayment(services, { orderId: order.orderId, locale: args.locale })
      : null;
  return { ok: true, orderId: order.orderId, orderNumber: order.orderNumber, alreadyPlaced: order.alreadyPlaced, orderHref, payment };
}

export async function placeOrderAndStartPayment(services: PaymentServices, args: PlaceOrderArgs): Promise<CheckoutOutcome> {
  const result = await placeOrder(services.db, args);
  return result.ok ? startPaymentOf(services, result, { locale: args.locale, secret: args.secret }) : checkoutRefusalOf(result, args.locale);
}
