/**
 * SPEC.md section 7 `createcheckoutsession`: the checkout page's form as JSON, checked by the same
 * parseCheckoutForm (its rules and messages), then placeOrder and, for card payments, startCardPayment.
 * The cart is the caller's cart cookie (the shop's own pages) or, for API clients without one, the
 * `lines` sent, put into a fresh cart through the cart's own addToCart (every cart rule applies).
 * Idempotent on `idempotencyKey`: the same key gives the same order (and its open payment session).
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { addressLimits } from "#server/accounts/address.inputs.ts";
import { cardPaymentProviderOf } from "#server/env.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { profileLimits } from "#server/accounts/profile.inputs.ts";
import { emailLimit } from "#server/accounts/text-rules.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import { deliveryMethods, paymentMethods, type CheckoutErrorCode } from "#server/checkout/checkout.ts";
import { checkoutLimits, parseCheckoutForm } from "#server/checkout/checkout.inputs.ts";
import { findOrderOfKey, isGiftListCart, placeOrder, type PlaceOrderResult } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { carts, payments } from "#server/db/schema.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { orderAccessToken, orderPageHref } from "#server/orders/order-access.ts";
import { startCardPayment } from "#server/payments/payment.service.ts";
import { apiFailure, apiRefusal, type ApiFieldErrors } from "./api-http";
import { apiRoute, type ApiOutcome } from "./api-route";

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => z.string().max(max).optional();

const CheckoutLine = z.strictObject({
  /** A variant id (product, colour and size). */
  variantId: z.number().int().positive().max(2_147_483_647),
  quantity: z.number().int().min(1).max(99),
  /** Texts of a personalisable product, by field index ("0", "1", ...). */
  personalisation: z.record(z.string().max(3), z.string().max(500)).optional(),
});

/** The checkout form's fields (DECISIONS.md "Checkout fields") as JSON; parseCheckoutForm applies their rules. */
const CheckoutBody = z.strictObject({
  /** A UUID made by the client once per checkout: sending it again gives the same order. */
  idempotencyKey: text(100),
  firstName: text(addressLimits.firstName),
  lastName: text(addressLimits.lastName),
  email: text(emailLimit),
  phone: text(profileLimits.phone),
  deliveryMethod: z.enum(deliveryMethods),
  paymentMethod: z.enum(paymentMethods),
  /** One of the caller's addresses, instead of the address fields. */
  savedAddressId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
  street: optionalText(addressLimits.street),
  houseNumber: optionalText(addressLimits.houseNumber),
  postcode: optionalText(5),
  city: optionalText(addressLimits.city),
  province: optionalText(2),
  wantsInvoice: z.boolean().optional(),
  companyName: optionalText(checkoutLimits.companyName),
  vatNumber: optionalText(20),
  sdiCode: optionalText(7),
  pec: optionalText(checkoutLimits.pec),
  /** A discount code (a gift list's completion code), checked like on the checkout page. */
  discountCode: optionalText(100).nullable(),
  /** Must be true: the customer accepted the conditions of sale. */
  acceptTerms: z.boolean(),
  /** For clients without the shop's cart cookie: the products to order (else the cookie's cart is used). */
  lines: z.array(CheckoutLine).min(1).max(50).optional(),
});

const CheckoutSession = z.object({
  orderId: z.string(),
  orderNumber: z.number().int(),
  /** Where to send the customer: the card payment page, or the order's page for other payments. */
  url: z.string(),
  /** The payment provider's session id; null for payments other than card. */
  sessionId: z.string().nullable(),
});

const checkoutStatus: Record<CheckoutErrorCode, number> = {
  "empty-cart": 409,
  "out-of-stock": 409,
  "unavailable-product": 409,
  "gift-list-closed": 409,
  "gift-list-shortfall": 409,
  "delivery-not-available": 400,
  "payment-not-allowed": 400,
  "address-not-found": 400,
  "invalid-input": 400,
  "idempotency-key-conflict": 409,
};

async function answerOrder(
  services: ShopServices,
  order: { orderId: string; orderNumber: number; paymentMethod: string; status: string },
  locale: Locale,
): Promise<ApiOutcome<z.input<typeof CheckoutSession>>> {
  const orderUrl = `${services.publicUrl}${orderPageHref(locale, order.orderId, orderAccessToken(resolveAuthSecret(services.env), order.orderId))}`;
  if (order.paymentMethod !== "card" || order.status !== "awaiting_payment") {
    return { ok: true, data: { orderId: order.orderId, orderNumber: order.orderNumber, url: orderUrl, sessionId: null } };
  }
  const payment = await startCardPayment(services, { orderId: order.orderId, locale });
  if (!payment.ok) {
    // The order stays and waits: the same idempotencyKey again asks for a session again.
    return apiRefusal(503, "payment-unavailable", getTranslator(locale)(`payments.errors.${payment.error}`));
  }
  const sessionId = await latestSessionOf(services.db, order.orderId);
  return { ok: true, data: { orderId: order.orderId, orderNumber: order.orderNumber, url: payment.redirectUrl, sessionId } };
}

/** A refused checkout as the API's answer: the checkout page's message, with the lines short of stock. */
function refusedCheckout(result: Extract<PlaceOrderResult, { ok: false }>, locale: Locale): ApiOutcome<never> {
  const t = getTranslator(locale);
  if (result.error === "discount-code") return apiFailure(400, "invalid-input", { discountCode: t(`checkout.discount.errors.${result.discountError}`) });
  const fields = Object.fromEntries(
    (result.lines ?? []).map((line) => [`variants.${line.variantId}`, t("api.fields.available", { name: line.name, count: line.available })]),
  );
  return apiRefusal(checkoutStatus[result.error], result.error, t(`checkoutErrors.${result.error}`), Object.keys(fields).length > 0 ? fields : undefined);
}

async function latestSessionOf(db: Db, orderId: string): Promise<string | null> {
  const [row] = await db
    .select({ ref: payments.providerRef })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), isNotNull(payments.providerRef)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row?.ref ?? null;
}

/** The `lines` in a fresh cart, through addToCart: a refused line names itself and leaves no cart behind. */
async function cartOfLines(
  db: Db,
  lines: z.output<typeof CheckoutLine>[],
  locale: Locale,
): Promise<{ ok: true; cartId: string } | { ok: false; fields: ApiFieldErrors }> {
  const t = getTranslator(locale);
  let cartId: string | null = null;
  for (const [index, line] of lines.entries()) {
    const added = await addToCart(db, { cartId, variantId: line.variantId, quantity: line.quantity, personalisation: line.personalisation ?? {} });
    if (!added.ok) {
      if (cartId) await db.delete(carts).where(eq(carts.id, cartId));
      return { ok: false, fields: { [`lines.${index}`]: t(`cart.errors.${added.error}`, { count: added.maxAddable ?? 0 }) } };
    }
    cartId = added.cartId;
  }
  return { ok: true, cartId: cartId! };
}

const createcheckoutsession = apiRoute({
  method: "POST",
  path: "/api/createcheckoutsession",
  auth: "user",
  summary:
    "Places the order of the caller's cart (cookie) or of `lines`, with the checkout page's fields and rules, and starts the card payment. Answers the order and where to pay. The same idempotencyKey gives the same order.",
  errors: [409, 503],
  body: CheckoutBody,
  response: CheckoutSession,
  handler: async ({ services, request, user, body, locale, now }) => {
    const { lines, ...form } = body;
    const cookieCartId = lines ? null : readCartRequest(request, services).cartId;
    const earlier = await findOrderOfKey(services.db, { idempotencyKey: form.idempotencyKey, userId: user.id, cartId: cookieCartId });
    if (earlier?.ok) return answerOrder(services, earlier, locale);
    if (earlier) return refusedCheckout(earlier, locale);

    const parsed = parseCheckoutForm({ ...form, savedAddressId: form.savedAddressId ?? undefined }, locale, {
      giftList: await isGiftListCart(services.db, cookieCartId),
    });
    if (!parsed.ok)
      return apiFailure(
        400,
        "invalid-input",
        Object.fromEntries(Object.entries(parsed.errors).filter((entry): entry is [string, string] => Boolean(entry[1]))),
      );

    let cartId = cookieCartId;
    if (lines) {
      const built = await cartOfLines(services.db, lines, locale);
      if (!built.ok) return apiFailure(400, "invalid-input", built.fields);
      cartId = built.cartId;
    }
    const result = await placeOrder(services.db, {
      cartId,
      userId: user.id,
      locale,
      input: parsed.input,
      now,
      publicUrl: services.publicUrl,
      secret: resolveAuthSecret(services.env),
      cardPayments: cardPaymentProviderOf(services.env) !== "none",
    });
    if (!result.ok) {
      if (lines && cartId) await services.db.delete(carts).where(eq(carts.id, cartId));
      return refusedCheckout(result, locale);
    }
    // A concurrent request with the same key won: the cart built for this one is not needed.
    if (lines && cartId && result.alreadyPlaced) await services.db.delete(carts).where(eq(carts.id, cartId));
    return answerOrder(services, result, locale);
  },
});

export const checkoutEndpoints = [createcheckoutsession];
