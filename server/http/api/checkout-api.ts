/**
 * `createcheckoutsession` (docs/rules.md#http-api): the checkout page's form as JSON, checked by the same
 * parseCheckoutForm (its rules and messages), then the page's own placeOrderAndStartPayment (its refusals
 * and their statuses too).
 * The cart is the caller's cart cookie (the shop's own pages) or, for API clients without one, the
 * `lines` sent, put into a fresh cart through the cart's own addToCart (every cart rule applies).
 * Idempotent on `idempotencyKey`: the same key gives the same order (and its open payment session).
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { addressLimits } from "#server/accounts/address.inputs.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { profileLimits } from "#server/accounts/profile.inputs.ts";
import { emailLimit } from "#server/accounts/text-rules.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import { checkoutLimits, invoiceKinds, parseCheckoutForm } from "#server/checkout/checkout.inputs.ts";
import {
  checkoutRefusalOf,
  placeOrderAndStartPayment,
  startPaymentOf,
  type CheckoutPlaced,
  type CheckoutRefusal,
} from "#server/checkout/checkout-payment.service.ts";
import { findOrderOfKey, isGiftListCart } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { carts, payments } from "#server/db/schema.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { deliveryMethods, paymentChoices } from "#server/orders/order-methods.ts";
import { takesCardPayments } from "#server/payments/payment-provider.ts";
import { takesScalapayPayments } from "#server/payments/scalapay.ts";
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

/** The checkout form's fields (docs/rules.md#checkout) as JSON; parseCheckoutForm applies their rules. */
const CheckoutBody = z.strictObject({
  /** A UUID made by the client once per checkout: sending it again gives the same order. */
  idempotencyKey: text(100),
  firstName: text(addressLimits.firstName),
  lastName: text(addressLimits.lastName),
  email: text(emailLimit),
  phone: text(profileLimits.phone),
  deliveryMethod: z.enum(deliveryMethods),
  /** "cash_on_delivery", "bank_transfer", "in_shop", or a way to pay online the shop offers for the total ("card", "paypal"...). */
  paymentMethod: z.enum(paymentChoices),
  /** One of the caller's addresses, instead of the address fields. */
  savedAddressId: z.number().int().positive().max(2_147_483_647).nullable().optional(),
  street: optionalText(addressLimits.street),
  houseNumber: optionalText(addressLimits.houseNumber),
  postcode: optionalText(5),
  city: optionalText(addressLimits.city),
  province: optionalText(2),
  /** "private" (with `fiscalCode`) or "company" (with the company's fields); absent: none, or a company's when `wantsInvoice`. */
  invoiceKind: z.enum(invoiceKinds).optional(),
  /** True asks for a company's invoice (the older form of `invoiceKind: "company"`). */
  wantsInvoice: z.boolean().optional(),
  fiscalCode: optionalText(20),
  companyName: optionalText(checkoutLimits.companyName),
  vatNumber: optionalText(20),
  sdiCode: optionalText(7),
  pec: optionalText(checkoutLimits.pec),
  /** A discount code (a gift list's completion code), checked like on the checkout page. */
  discountCode: optionalText(100).nullable(),
  /** Loyalty points to spend (the caller's card), in the shop's steps: a discount on the goods, checked like on the checkout page. */
  loyaltyPoints: z.number().int().min(0).max(10_000_000).optional(),
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

/** The order as the API answers it: where to pay (a card order awaiting payment) or its page. */
async function answerOrder(services: ShopServices, placed: CheckoutPlaced, locale: Locale): Promise<ApiOutcome<z.input<typeof CheckoutSession>>> {
  const { orderId, orderNumber } = placed;
  if (!placed.payment) return { ok: true, data: { orderId, orderNumber, url: `${services.publicUrl}${placed.orderHref}`, sessionId: null } };
  if (!placed.payment.ok) {
    // The order stays and waits: the same idempotencyKey again asks for a session again.
    return apiRefusal(503, "payment-unavailable", getTranslator(locale)(`payments.errors.${placed.payment.error}`));
  }
  return { ok: true, data: { orderId, orderNumber, url: placed.payment.redirectUrl, sessionId: await latestSessionOf(services.db, orderId) } };
}

/** A refused checkout as the API's answer: the checkout page's message, with the lines short of stock. */
function refusedCheckout(refusal: CheckoutRefusal, locale: Locale): ApiOutcome<never> {
  // The code's own reason as the message, as the checkout page shows it beside the field.
  if (refusal.error === "discount-code") return apiRefusal(refusal.status, "invalid-input", refusal.message, refusal.fields);
  // A gift card spent meanwhile is a conflict; a code that is no usable card is the field's own problem.
  if (refusal.error === "gift-card")
    return apiRefusal(refusal.status, refusal.status === 409 ? "conflict" : "invalid-input", refusal.message, refusal.fields);
  // The points' reason likewise: the balance or the steps, beside the field.
  if (refusal.error === "loyalty-points") return apiRefusal(refusal.status, "invalid-input", refusal.message, refusal.fields);
  // A voucher line of the cart no longer sold as it is: the cart changed under the checkout.
  if (refusal.error === "voucher") return apiRefusal(409, "conflict", refusal.message);
  const t = getTranslator(locale);
  const fields = Object.fromEntries(
    refusal.lines.map((line) => [`variants.${line.variantId}`, t("api.fields.available", { name: line.name, count: line.available })]),
  );
  return apiRefusal(refusal.status, refusal.error, refusal.message, Object.keys(fields).length > 0 ? fields : undefined);
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
    const secret = resolveAuthSecret(services.env);
    const earlier = await findOrderOfKey(services.db, { idempotencyKey: form.idempotencyKey, userId: user.id, cartId: cookieCartId });
    if (earlier?.ok) return answerOrder(services, await startPaymentOf(services, earlier, { locale, secret }), locale);
    if (earlier) return refusedCheckout(checkoutRefusalOf(earlier, locale), locale);

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
    const outcome = await placeOrderAndStartPayment(services, {
      cartId,
      userId: user.id,
      locale,
      input: parsed.input,
      now,
      publicUrl: services.publicUrl,
      secret,
      cardPayments: takesCardPayments(services),
      scalapayPayments: takesScalapayPayments(services.env),
    });
    // Refused, or a concurrent request with the same key won: the cart built for this one is not needed.
    if (lines && cartId && (!outcome.ok || outcome.alreadyPlaced)) await services.db.delete(carts).where(eq(carts.id, cartId));
    return outcome.ok ? answerOrder(services, outcome, locale) : refusedCheckout(outcome, locale);
  },
});

export const checkoutEndpoints = [createcheckoutsession];
