/**
 * `createcheckoutsession` (docs/rules.md#http-api): the checkout page's form as JSON, checked by the same
 * parseCheckoutForm (its rules and messages), then the page's own placeOrderAndStartPayment (its refusals
 * and their statuses too).
 * The cart is the caller's cart cookie (the shop's own pages) or, for API clients without one, the
 * `lines`, `giftCards` and `fundContributions` sent, put into a fresh cart through the cart's own addToCart
 * and the voucher lines' addGiftCardToCart and addFundContributionToCart (every cart and mixing rule applies).
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
import { maxVouchersPerCart, type VoucherErrorCode } from "#server/vouchers/voucher.ts";
import { FundContributionJsonInput, GiftCardJsonInput, parseVoucherForm, voucherLimits } from "#server/vouchers/voucher.inputs.ts";
import { addFundContributionToCart, addGiftCardToCart, isVoucherOnlyCart } from "#server/vouchers/voucher.service.ts";
import { apiFailure, apiRefusal, translateFieldErrors, type ApiFailure, type ApiFieldErrors } from "./api-http";
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

// The voucher lines' texts are checked by their own schemas (voucher.inputs.ts), with the purchase page's
// messages: the limits here only stop what no form could send (as the gift lists' do).
const GiftCardPurchase = z
  .strictObject({
    /** Euro cents: one of the shop's amounts (its buttons, or its minimum to maximum: 5 € to 500 € unless the shop says otherwise). */
    amountCents: z.number().int(),
    senderName: text(voucherLimits.name * 2),
    recipientName: text(voucherLimits.name * 2),
    /** "email": the shop sends it to `recipientEmail` on `deliverOn`; "print": the buyer prints it from the order's page. */
    delivery: z.enum(["email", "print"]),
    recipientEmail: optionalText(voucherLimits.email * 2).nullable(),
    /** YYYY-MM-DD, from today (Italian time) to a year on; for "email" only. */
    deliverOn: optionalText(20).nullable(),
    message: optionalText(voucherLimits.message * 2),
  })
  .meta({ id: "GiftCardPurchase" });

const FundContribution = z
  .strictObject({
    /** A fund of an open gift list (search-products answers them). The order becomes that list's: no other products or gift cards beside it. */
    fundId: z.number().int().positive().max(2_147_483_647),
    /** Euro cents, 5 € to 500 €. */
    amountCents: z.number().int(),
    /** The giver's name, as the list's owner sees it. */
    senderName: text(voucherLimits.name * 2),
    message: optionalText(voucherLimits.message * 2),
  })
  .meta({ id: "FundContribution" });

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
  /** A gift card to pay with (16 characters, any case, spaces or dashes ignored): it pays first, for the goods only, as on the checkout page. */
  giftCardCode: optionalText(40).nullable(),
  /** For clients without the shop's cart cookie: the products to order. With `giftCards` or `fundContributions`, or alone; none of the three: the cookie's cart is used. */
  lines: z.array(CheckoutLine).min(1).max(50).optional(),
  /** Gift cards to buy, each its own line of the order; issued once the order is paid. */
  giftCards: z.array(GiftCardPurchase).min(1).max(maxVouchersPerCart).optional(),
  /** Contributions to gift-list funds (one list per order), each its own line; summed onto the list owner's card once paid. */
  fundContributions: z.array(FundContribution).min(1).max(maxVouchersPerCart).optional(),
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

type Vouchers = {
  giftCards: z.output<typeof GiftCardJsonInput>[];
  fundContributions: z.output<typeof FundContributionJsonInput>[];
};

/** The voucher lines' own rules (the purchase page's), every refusal under its field (`giftCards.0.amountCents`). */
function parseVouchers(body: Pick<z.output<typeof CheckoutBody>, "giftCards" | "fundContributions">, locale: Locale) {
  const fields: ApiFieldErrors = {};
  const vouchers: Vouchers = { giftCards: [], fundContributions: [] };
  const parseEach = <T>(name: keyof Vouchers, schema: z.ZodType<T>, raw: readonly Record<string, unknown>[] | undefined, into: T[]) => {
    for (const [index, entry] of (raw ?? []).entries()) {
      const parsed = parseVoucherForm(schema, entry);
      if (parsed.ok) into.push(parsed.input);
      else for (const [field, message] of Object.entries(translateFieldErrors(parsed.errors, locale))) fields[`${name}.${index}.${field}`] = message;
    }
  };
  parseEach("giftCards", GiftCardJsonInput, body.giftCards, vouchers.giftCards);
  parseEach("fundContributions", FundContributionJsonInput, body.fundContributions, vouchers.fundContributions);
  return { vouchers, fields };
}

/** The field a service refusal of a voucher line names. */
function voucherField(name: keyof Vouchers, index: number, error: VoucherErrorCode): string {
  if (error === "amount-out-of-range") return `${name}.${index}.amountCents`;
  if (error === "deliver-day-out-of-range") return `${name}.${index}.deliverOn`;
  if (error === "fund-not-found") return `${name}.${index}.fundId`;
  return `${name}.${index}`;
}

/**
 * The `lines`, then the gift cards and contributions, in a fresh cart through the cart's and the voucher lines' own
 * services: a refused one names itself with its page's message and leaves no cart behind.
 */
async function freshCartOf(
  db: Db,
  args: { lines: z.output<typeof CheckoutLine>[]; vouchers: Vouchers; locale: Locale; now: Date },
): Promise<{ ok: true; cartId: string } | ApiFailure> {
  const t = getTranslator(args.locale);
  let cartId: string | null = null;
  const refuse = async (failure: ApiFailure) => {
    if (cartId) await db.delete(carts).where(eq(carts.id, cartId));
    return failure;
  };
  for (const [index, line] of args.lines.entries()) {
    const added = await addToCart(db, { cartId, variantId: line.variantId, quantity: line.quantity, personalisation: line.personalisation ?? {} });
    if (!added.ok)
      return refuse(apiFailure(400, "invalid-input", { [`lines.${index}`]: t(`cart.errors.${added.error}`, { count: added.maxAddable ?? 0 }) }));
    cartId = added.cartId;
  }
  const voucherAdds = [
    ...args.vouchers.giftCards.map((input, index) => ({
      name: "giftCards" as const,
      index,
      add: () => addGiftCardToCart(db, { cartId, input, now: args.now }),
    })),
    ...args.vouchers.fundContributions.map((input, index) => ({
      name: "fundContributions" as const,
      index,
      add: () => addFundContributionToCart(db, { cartId, input, now: args.now }),
    })),
  ];
  for (const { name, index, add } of voucherAdds) {
    const added = await add();
    if (!added.ok) {
      const message = t(`vouchers.errors.${added.error}`);
      return refuse(apiRefusal(400, "invalid-input", message, { [voucherField(name, index, added.error)]: message }));
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
    "Places the order of the caller's cart (cookie) or of `lines`, `giftCards` (gift cards to buy) and `fundContributions` (to a gift list's funds: that list's order alone), with the checkout page's fields and rules (`giftCardCode` pays with a gift card, `loyaltyPoints` spends points), and starts the card payment. A refused gift card or contribution names its field (`giftCards.0.amountCents`) with the purchase page's message. Answers the order and where to pay. The same idempotencyKey gives the same order.",
  errors: [409, 503],
  body: CheckoutBody,
  response: CheckoutSession,
  handler: async ({ services, request, user, body, locale, now }) => {
    const { lines, giftCards, fundContributions, ...form } = body;
    // Anything to order in the body: a fresh cart of it; nothing: the cookie's cart.
    const builds = Boolean(lines || giftCards || fundContributions);
    const cookieCartId = builds ? null : readCartRequest(request, services).cartId;
    const secret = resolveAuthSecret(services.env);
    const earlier = await findOrderOfKey(services.db, { idempotencyKey: form.idempotencyKey, userId: user.id, cartId: cookieCartId });
    if (earlier?.ok) return answerOrder(services, await startPaymentOf(services, earlier, { locale, secret }), locale);
    if (earlier) return refusedCheckout(checkoutRefusalOf(earlier, locale), locale);

    // As on the checkout page: a gift list's cart, or one of vouchers only, has no address to ask.
    const noAddress = builds
      ? Boolean(fundContributions) || !lines
      : (await isGiftListCart(services.db, cookieCartId)) || (await isVoucherOnlyCart(services.db, cookieCartId));
    const parsed = parseCheckoutForm(
      { ...form, savedAddressId: form.savedAddressId ?? undefined, giftCardCode: form.giftCardCode ?? undefined },
      locale,
      { giftList: noAddress },
    );
    const vouchers = parseVouchers({ giftCards, fundContributions }, locale);
    const formFields = parsed.ok
      ? {}
      : Object.fromEntries(Object.entries(parsed.errors).filter((entry): entry is [string, string] => Boolean(entry[1])));
    if (!parsed.ok || Object.keys(vouchers.fields).length > 0) return apiFailure(400, "invalid-input", { ...formFields, ...vouchers.fields });

    let cartId = cookieCartId;
    if (builds) {
      const built = await freshCartOf(services.db, { lines: lines ?? [], vouchers: vouchers.vouchers, locale, now });
      if (!built.ok) return built;
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
    if (builds && cartId && (!outcome.ok || outcome.alreadyPlaced)) await services.db.delete(carts).where(eq(carts.id, cartId));
    return outcome.ok ? answerOrder(services, outcome, locale) : refusedCheckout(outcome, locale);
  },
});

export const checkoutEndpoints = [createcheckoutsession];
