/**
 * Checkout's use-cases: the summary the checkout page shows, and placeOrder, which turns a cart into an
 * order in one transaction: prices from the database (never the form), the stock taken through the
 * stock ledger (quantities summed per variant, variants locked in id order), the order made by
 * createOrder, the cart emptied. Idempotent on the form's idempotency key.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { isOnlineMethodOffered, offersOnlinePayments, onlineMethodOffers, type OnlineMethodOffer } from "#common/online-payment-methods.ts";
import { getCartView, describeVariants, type CartView, type VariantDisplay } from "#server/cart/cart-view.service.ts";
import { lineTotalCents } from "#server/cart/cart.ts";
import { getStoredCartLines } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, cartLines, carts, orders, products, productVariants } from "#server/db/schema.ts";
import type { DiscountCodeError } from "#server/coupons/coupon.ts";
import { checkDiscountCode, takeDiscountCodeUse, type AppliedDiscountCode } from "#server/coupons/coupon.service.ts";
import {
  giftListDeliveryFor,
  giftListShortfalls,
  giftNoteOfCart,
  lockGiftListItemsOfCart,
  type GiftListDelivery,
} from "#server/gift-lists/gift-list-orders.service.ts";
import { partStockLines, withBundleParts } from "#server/bundles/bundle.service.ts";
import type { GiftCardErrorCode } from "#server/gift-cards/gift-card.ts";
import { previewGiftCard, spendGiftCard } from "#server/gift-cards/gift-card.service.ts";
import { checkoutLoyaltyOf, loyaltyErrorOf, loyaltyExcludedProducts, type CheckoutLoyalty } from "#server/loyalty/loyalty-checkout.service.ts";
import type { LoyaltyError } from "#server/loyalty/loyalty.ts";
import { spendPointsOnOrder } from "#server/loyalty/loyalty.service.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { queueOrderMail } from "#server/orders/order-emails.ts";
import {
  allowedPaymentMethods,
  giftListDeliveryMethod,
  isPaymentAllowed,
  paymentDueAt,
  paymentFeeCents,
  quoteDeliveries,
  type DeliveryMethod,
  type DeliveryQuote,
  type PaymentMethod,
} from "#server/orders/order-methods.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";
import { summarizeOrderTotals, type OrderSummary } from "#common/order-summary.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { DeliverySettings, OnlinePaymentsSettings } from "#server/settings/settings.ts";
import { quantitiesPerVariant, shortages, type Shortage } from "#server/stock/stock.ts";
import { recordTakenStock, takeStock } from "#server/stock/stock-ledger.ts";
import type { VoucherErrorCode } from "#server/vouchers/voucher.ts";
import { checkCartVouchers, getCartVouchers, moveCartVouchersToOrder, vouchersCents, type CartVoucher } from "#server/vouchers/voucher.service.ts";
import { orderTotals, type CheckoutErrorCode } from "./checkout";
import type { CheckoutInput } from "./checkout.inputs";
import { deliveryCalendarKeys, deliveryCalendarOf, estimateDelivery, longestPreorderDays, type DeliveryEstimate } from "./delivery-estimate";

export type CheckoutSummary = {
  cart: CartView;
  deliveries: (DeliveryQuote & { estimate: DeliveryEstimate | null })[];
  /** The shop's today for the promises ("Ritiro in negozio da domani"). */
  deliveryToday: string;
  /** The delivery and payment chosen, when offered (else null: the page asks again). */
  delivery: DeliveryMethod | null;
  payment: PaymentMethod | null;
  /** Goods at today's prices, discounts applied. */
  subtotalCents: number;
  /** Saved by discounts (already out of the subtotal). */
  discountCents: number;
  personalisationCents: number;
  shippingCents: number;
  paymentFeeCents: number;
  totalCents: number;
  /** The lines the summary shows under the products, adding up to `totalCents`. */
  summary: OrderSummary;
  allowedPayments: PaymentMethod[];
  /** The ways to pay online the shop offers (when "card" is allowed), each with whether this total fits its limits. */
  onlineMethods: OnlineMethodOffer[];
  /** What the payment choices say: the cash-on-delivery fee and the days a bank transfer may take. */
  codFeeCents: number;
  daysToPay: number;
  /**
   * A gift-list cart: the delivery is the list's (shown without its address), and the giver's name and
   * message from the list page. Null for an ordinary cart.
   */
  giftList: { code: string; title: string; delivery: DeliveryMethod; giverName: string | null; giftMessage: string | null } | null;
  /** The discount code typed, applied (its saving is already out of the subtotal and among the discounts). */
  discountCode: AppliedDiscountCode | null;
  /** Why the typed code was refused (the field says so; nothing else changes), with the minimum it asks when that is why. */
  discountCodeError: DiscountCodeError | null;
  discountCodeMinOrderCents: number | null;
  /** The gift card typed: what it pays of the total (a payment, shown after the total), or why it was refused. */
  giftCard: { codeTail: string; cents: number; balanceCents: number } | null;
  giftCardError: GiftCardErrorCode | null;
  /** Her loyalty card (null for a guest or without one): what it may take off here, and the points chosen (docs/decisions/0099-loyalty-card.md). */
  loyalty: CheckoutLoyalty | null;
  /** Why the points chosen were not taken off (the field says so; nothing else changes). */
  loyaltyError: LoyaltyError | null;
  /** Voucher lines (gift cards bought, fund contributions), in the total and outside VAT (decision 0106). */
  vouchers: CartVoucher[];
  voucherCents: number;
  /** Only voucher lines: nothing is delivered (no delivery or address asked; a gift card cannot pay for them). */
  voucherOnly: boolean;
  /** Checkout cannot go on: the cart is empty, its list closed or bought meanwhile, or lines out of stock or no longer for sale. */
  blocker: Extract<CheckoutErrorCode, "empty-cart" | "gift-list-closed" | "gift-list-shortfall" | "out-of-stock" | "unavailable-product"> | null;
};

export type PlaceOrderResult =
  | { ok: true; orderId: string; orderNumber: number; paymentMethod: PaymentMethod; status: OrderStatus; alreadyPlaced: boolean }
  | { ok: false; error: "discount-code"; discountError: DiscountCodeError; minOrderCents?: number }
  | { ok: false; error: "gift-card"; giftCardError: GiftCardErrorCode }
  | { ok: false; error: "loyalty-points"; loyaltyError: LoyaltyError }
  | { ok: false; error: "voucher"; voucherError: VoucherErrorCode }
  | { ok: false; error: CheckoutErrorCode; lines?: { variantId: number; name: string; available: number }[] };

export type { AppliedDiscountCode };

/**
 * Whether the chosen delivery is a shipment that costs nothing (local delivery, or standard when every
 * product ships free): a code that does not combine with free delivery is refused on it (decision 0066).
 */
function shipsFree(quote: DeliveryQuote | null): boolean | null {
  if (!quote) return null;
  return quote.method !== "collection" && quote.feeCents === 0;
}

/** Whether every product in the list ships free (standard delivery then costs nothing). */
async function allFreeShipping(db: Db, productIds: readonly number[]): Promise<boolean> {
  if (productIds.length === 0) return false;
  const rows = await db
    .select({ isFreeShipping: products.isFreeShipping })
    .from(products)
    .where(inArray(products.id, [...new Set(productIds)]));
  return rows.length > 0 && rows.every((row) => row.isFreeShipping);
}

function blockerOf(cart: CartView, giftList: GiftListCheckout | null, voucherCount: number): CheckoutSummary["blocker"] {
  if (cart.lines.length === 0 && voucherCount === 0) return "empty-cart";
  if (giftList?.problem) return giftList.problem;
  if (cart.lines.some((line) => line.status === "unavailable")) return "unavailable-product";
  if (cart.lines.some((line) => line.status !== "ok")) return "out-of-stock";
  return null;
}

/** The checkout page's data: the cart at today's prices, the deliveries for the postcode, fees and totals. */
export async function getCheckoutSummary(
  db: Db,
  args: {
    cartId: string | null;
    locale: Locale;
    now: Date;
    postcode?: string | null;
    delivery?: DeliveryMethod | null;
    payment?: PaymentMethod | null;
    /** A discount code typed, for the signed-in customer `userId` or the e-mail typed (limits per customer). */
    discountCode?: string | null;
    userId?: string | null;
    email?: string | null;
    /** False when nobody takes cards: the card method is not offered. */
    cardPayments?: boolean;
    /** True when Scalapay is configured (SCALAPAY_API_KEY): only then may the staff's choice offer it. */
    scalapayPayments?: boolean;
    /** A gift card typed to pay with: what it would pay is shown, nothing is taken. */
    giftCardCode?: string | null;
    /** Loyalty points the signed-in customer chose to spend. */
    loyaltyPoints?: number | null;
  },
): Promise<CheckoutSummary> {
  const [cart, stored, vouchers] = await Promise.all([
    getCartView(db, { cartId: args.cartId, locale: args.locale, now: args.now }),
    getSettings(db, ["delivery", "bankTransfer", "onlinePayments", ...deliveryCalendarKeys]),
    getCartVouchers(db, args.cartId),
  ]);
  const settings = withConfiguredProviders(stored, args);
  const calendar = deliveryCalendarOf(settings);
  const voucherOnly = cart.lines.length === 0 && vouchers.length > 0;
  const giftList = cart.giftList && args.cartId && !voucherOnly ? await giftListCheckoutOf(db, args.cartId, settings.delivery) : null;
  const typedPostcode = args.postcode && /^[0-9]{5}$/.test(args.postcode.trim()) ? args.postcode.trim() : null;
  const postcode = giftList ? giftList.postcode : typedPostcode;
  const quoted = quoteDeliveries(settings.delivery, {
    postcode,
    allLinesFreeShipping: await allFreeShipping(
      db,
      cart.lines.map((line) => line.productId),
    ),
  });
  // A gift-list cart has no choice: only the list's delivery is offered.
  const preorderDays = longestPreorderDays(cart.lines);
  const deliveries = (giftList ? quoted.filter((candidate) => candidate.method === giftList.method) : voucherOnly ? [] : quoted).map((candidate) => ({
    ...candidate,
    estimate: estimateDelivery({ now: args.now, method: candidate.method, preorderDays, calendar }),
  }));
  const wantedDelivery = giftList ? giftList.method : args.delivery;
  const quote = deliveries.find((candidate) => candidate.method === wantedDelivery && candidate.available) ?? null;
  const allowedPayments = allowedPaymentMethods(voucherOnly ? voucherDelivery : (quote?.method ?? null), {
    giftList: Boolean(giftList),
    cardPayments: args.cardPayments !== false && offersOnlinePayments(settings.onlinePayments),
  });
  const payment = args.payment && allowedPayments.includes(args.payment) ? args.payment : null;
  const code =
    args.discountCode && cart.lines.length > 0
      ? await checkDiscountCode(db, {
          typed: args.discountCode,
          userId: args.userId ?? null,
          email: args.email ?? null,
          isGiftListCart: Boolean(cart.giftList),
          shipsFree: shipsFree(quote),
          now: args.now,
          lines: cart.lines,
        })
      : null;
  const loyalty = await checkoutLoyaltyOf(db, {
    userId: args.userId ?? null,
    points: args.loyaltyPoints ?? 0,
    lines: loyaltyLinesOf(cart.lines, code?.ok ? code.applied.perLineCents : []),
  });
  const totals = orderTotals(cart.lines, {
    shippingCents: quote?.feeCents ?? 0,
    paymentFeeCents: payment ? paymentFeeCents(settings.delivery, payment) : 0,
    codeDiscountCents: code?.ok ? code.applied.discountCents : 0,
    loyaltyDiscountCents: loyalty?.discountCents ?? 0,
    voucherCents: vouchersCents(vouchers),
  });
  // A gift card pays for goods only, never for another card or a fund (decision 0106).
  const card =
    args.giftCardCode && cart.lines.length > 0
      ? await previewGiftCard(db, { code: args.giftCardCode, dueCents: totals.totalCents - totals.voucherCents, now: args.now })
      : null;
  const giftCardCents = card?.ok ? card.giftCardCents : 0;
  const onlineMethods = allowedPayments.includes("card") ? onlineMethodOffers(settings.onlinePayments, totals.totalCents - giftCardCents) : [];
  return {
    cart,
    deliveries,
    deliveryToday: italianDayOf(args.now),
    delivery: quote?.method ?? null,
    payment,
    ...totals,
    summary: onlyVoucherLinesIf(
      voucherOnly,
      summarizeOrderTotals(totals, {
        code: code?.ok ? code.applied : null,
        shippingToChoose: quote === null && !voucherOnly,
        loyalty: loyalty && loyalty.discountCents > 0 ? { points: loyalty.points, discountCents: loyalty.discountCents } : null,
        giftCardCents,
        voucherCents: totals.voucherCents,
      }),
    ),
    allowedPayments,
    onlineMethods,
    codFeeCents: settings.delivery.cashOnDeliveryFeeCents,
    daysToPay: settings.bankTransfer.daysToPay,
    giftList:
      cart.giftList && giftList
        ? {
            code: cart.giftList.code,
            title: cart.giftList.title,
            delivery: giftList.method,
            giverName: giftList.giverName,
            giftMessage: giftList.giftMessage,
          }
        : null,
    discountCode: code?.ok ? code.applied : null,
    discountCodeError: code && !code.ok ? code.error : null,
    discountCodeMinOrderCents: code && !code.ok ? (code.minOrderCents ?? null) : null,
    giftCard: card?.ok ? { codeTail: card.codeTail, cents: card.giftCardCents, balanceCents: card.balanceCents } : null,
    giftCardError: card && !card.ok ? card.error : null,
    loyalty,
    loyaltyError: loyaltyErrorOf(loyalty, args.loyaltyPoints ?? 0),
    vouchers,
    voucherCents: totals.voucherCents,
    voucherOnly,
    blocker: blockerOf(cart, giftList, vouchers.length),
  };
}

/** The goods the points may pay for, line by line: what each costs after a discount code's share (personalisation is never discounted). */
function loyaltyLinesOf(lines: readonly { productId: number; unitCents: number; quantity: number }[], codePerLineCents: readonly number[]) {
  return lines.map((line, index) => ({ productId: line.productId, cents: line.unitCents * line.quantity - (codePerLineCents[index] ?? 0) }));
}

/** Vouchers alone: no goods or delivery lines ("Subtotale 0,00 €", "Consegna gratis") that would say nothing. */
function onlyVoucherLinesIf(voucherOnly: boolean, summary: OrderSummary): OrderSummary {
  return voucherOnly ? { ...summary, lines: summary.lines.filter((line) => line.kind === "vouchers") } : summary;
}

/** A cart of voucher lines only has nothing to deliver: it is placed as a collection with nothing to collect. */
const voucherDelivery: DeliveryMethod = "collection";

type GiftListCheckout = {
  method: DeliveryMethod;
  /** The list's postcode decides the fee; it stays on the server (the page never gets the address). */
  postcode: string | null;
  giverName: string | null;
  giftMessage: string | null;
  problem: "gift-list-closed" | "gift-list-shortfall" | null;
};

/** What the checkout page needs of a gift-list cart: the list's delivery, the giver's note, and whether it can still be bought. */
async function giftListCheckoutOf(db: Db, cartId: string, settings: DeliverySettings): Promise<GiftListCheckout> {
  const [cart] = await db.select({ giftListId: carts.giftListId }).from(carts).where(eq(carts.id, cartId));
  const delivery = cart?.giftListId ? await giftListDeliveryFor(db, cart.giftListId) : null;
  const note = await giftNoteOfCart(db, cartId);
  const postcode = delivery?.kind === "address" ? delivery.postcode : null;
  const shortfalls = delivery ? await giftListShortfalls(db, cartId) : [];
  return {
    method: giftListDeliveryMethod(settings, postcode),
    postcode,
    ...note,
    problem: !delivery ? "gift-list-closed" : shortfalls.length > 0 ? "gift-list-shortfall" : null,
  };
}

/** Whether this cart buys from a gift list (its checkout form then carries no address). */
export async function isGiftListCart(db: Db, cartId: string | null): Promise<boolean> {
  if (!cartId) return false;
  const [cart] = await db.select({ giftListId: carts.giftListId }).from(carts).where(eq(carts.id, cartId));
  return Boolean(cart?.giftListId);
}

type Refused = Extract<PlaceOrderResult, { ok: false }>;

/** Thrown inside the transaction to roll it back with an answer (or because the same checkout won the race). */
class CheckoutRollback extends Error {
  constructor(readonly outcome: Refused | "already-placed") {
    super(typeof outcome === "string" ? outcome : outcome.error);
  }
}

/**
 * The order an idempotency key already made, when the key is the caller's: a customer's order for the
 * same customer, a guest's for the same cart. Anyone else's key is refused without a word of that
 * order (a key sent again by another browser or account must not open someone else's order page).
 */
export async function findOrderOfKey(
  db: Db,
  args: { idempotencyKey: string; userId: string | null; cartId: string | null },
): Promise<PlaceOrderResult | null> {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      paymentMethod: orders.paymentMethod,
      status: orders.status,
      userId: orders.userId,
      cartId: orders.cartId,
    })
    .from(orders)
    .where(eq(orders.idempotencyKey, args.idempotencyKey));
  if (!order) return null;
  const isCallers = order.userId !== null ? order.userId === args.userId : args.cartId !== null && order.cartId === args.cartId;
  if (!isCallers) return { ok: false, error: "idempotency-key-conflict" };
  return { ok: true, orderId: order.id, orderNumber: order.number, paymentMethod: order.paymentMethod, status: order.status, alreadyPlaced: true };
}

export type PlaceOrderArgs = {
  /** From the verified cart cookie. */
  cartId: string | null;
  /** The signed-in customer, or null for a guest. */
  userId: string | null;
  locale: Locale;
  input: CheckoutInput;
  now: Date;
  /** For the order page link in the confirmation e-mail. */
  publicUrl: string;
  secret: string;
  /** False when nobody takes cards (server/env.ts, cardPaymentProviderOf): a card order is then refused. */
  cardPayments?: boolean;
  /** True when Scalapay is configured: otherwise a Scalapay order is refused as not offered. */
  scalapayPayments?: boolean;
};

/** The staff's online methods as this shop can take them: Scalapay off without its key (decision 0104). */
function withConfiguredProviders<T extends { onlinePayments: OnlinePaymentsSettings }>(settings: T, args: { scalapayPayments?: boolean }): T {
  if (args.scalapayPayments === true || !settings.onlinePayments.scalapay.enabled) return settings;
  return { ...settings, onlinePayments: { ...settings.onlinePayments, scalapay: { ...settings.onlinePayments.scalapay, enabled: false } } };
}

const keyOf = (args: PlaceOrderArgs) => ({ idempotencyKey: args.input.idempotencyKey, userId: args.userId, cartId: args.cartId });

/** Turns the cart into an order (see the top of this file); the same checkout twice gives one order. */
export async function placeOrder(db: Db, args: PlaceOrderArgs): Promise<PlaceOrderResult> {
  const earlier = await findOrderOfKey(db, keyOf(args));
  if (earlier) return earlier;
  if (!args.cartId) return { ok: false, error: "empty-cart" };
  try {
    return await db.transaction((tx) => placeOrderIn(tx, { ...args, cartId: args.cartId! }));
  } catch (error) {
    if (!(error instanceof CheckoutRollback)) throw error;
    if (error.outcome !== "already-placed") return error.outcome;
    const first = await findOrderOfKey(db, keyOf(args));
    if (!first) throw new Error("placeOrder: the order of a concurrent identical checkout is missing", { cause: error });
    return first;
  }
}

async function placeOrderIn(tx: Db, args: PlaceOrderArgs & { cartId: string }): Promise<PlaceOrderResult> {
  const { input, now, locale } = args;
  // One checkout of a cart at a time: a double submit waits here, then finds the first order.
  const [cart] = await tx.select({ id: carts.id, giftListId: carts.giftListId }).from(carts).where(eq(carts.id, args.cartId)).for("update");
  if (!cart) return { ok: false, error: "empty-cart" };
  const earlier = await findOrderOfKey(tx, keyOf(args));
  if (earlier) return earlier;
  const lines = await getStoredCartLines(tx, cart.id);
  const checkedVouchers = await checkCartVouchers(tx, { cartId: cart.id, now });
  if (!checkedVouchers.ok) return { ok: false, error: "voucher", voucherError: checkedVouchers.error };
  const { vouchers } = checkedVouchers;
  if (lines.length === 0 && vouchers.length === 0) return { ok: false, error: "empty-cart" };
  const voucherOnly = lines.length === 0;
  const giftList = cart.giftListId && !voucherOnly ? await giftListDeliveryFor(tx, cart.giftListId) : undefined;
  if (giftList === null) return { ok: false, error: "gift-list-closed" };

  const wanted = quantitiesPerVariant(lines);
  const variantIds = [...wanted.keys()];
  const display = await describeVariants(tx, variantIds, locale, now);
  const unavailable = variantIds.filter((id) => !display.get(id)?.isForSale);
  if (unavailable.length > 0) {
    return {
      ok: false,
      error: "unavailable-product",
      lines: unavailable.map((variantId) => ({ variantId, name: display.get(variantId)?.name ?? "", available: 0 })),
    };
  }

  const facts = new Map(
    (variantIds.length === 0
      ? []
      : await tx
          .select({
            id: productVariants.id,
            sku: productVariants.sku,
            vatRatePercent: products.vatRatePercent,
            isFreeShipping: products.isFreeShipping,
          })
          .from(productVariants)
          .innerJoin(products, eq(products.id, productVariants.productId))
          .where(inArray(productVariants.id, variantIds))
    ).map((row) => [row.id, row]),
  );
  // A first look without locks: a cart plainly beyond today's stock is refused before any work.
  const short = shortages(wanted, (variantId) => display.get(variantId)?.stock ?? 0);
  if (short.length > 0) return outOfStock(short, display);

  // A gift-list order goes where the list says (its address copied, never shown); the form's delivery is not asked.
  const address = giftList
    ? giftListAddressOf(giftList)
    : input.savedAddressId !== undefined
      ? await savedAddressOf(tx, args.userId, input.savedAddressId)
      : typedAddressOf(input);
  if (address === "not-found") return { ok: false, error: "address-not-found" };
  const settings = withConfiguredProviders(await getSettings(tx, ["delivery", "bankTransfer", "onlinePayments", ...deliveryCalendarKeys]), args);
  const deliveryMethod = giftList
    ? giftListDeliveryMethod(settings.delivery, address?.postcode ?? null)
    : voucherOnly
      ? voucherDelivery
      : input.deliveryMethod;
  const quote = quoteDeliveries(settings.delivery, {
    postcode: address?.postcode ?? null,
    allLinesFreeShipping: [...facts.values()].every((row) => row.isFreeShipping),
  }).find((candidate) => candidate.method === deliveryMethod);
  if (!quote?.available || (deliveryMethod !== "collection" && !address)) return { ok: false, error: "delivery-not-available" };
  if (!isPaymentAllowed(deliveryMethod, input.paymentMethod, { giftList: Boolean(giftList), cardPayments: args.cardPayments })) {
    return { ok: false, error: "payment-not-allowed" };
  }
  const giftNote = giftList ? await giftNoteOfCart(tx, cart.id) : { giverName: null, giftMessage: null };
  const estimate = voucherOnly
    ? null
    : estimateDelivery({
        now,
        method: deliveryMethod,
        preorderDays: longestPreorderDays([...display.values()]),
        calendar: deliveryCalendarOf(settings),
      });

  const priced = lines.map((line) => {
    const variant = display.get(line.variantId)!;
    return {
      ...line,
      productId: variant.productId,
      variant,
      listUnitCents: variant.listUnitCents,
      unitCents: variant.unitCents,
      personalisationUnitCents: variant.personalisationUnitCents,
    };
  });
  const code = input.discountCode
    ? await checkDiscountCode(tx, {
        typed: input.discountCode,
        userId: args.userId,
        email: input.email,
        isGiftListCart: Boolean(giftList),
        shipsFree: shipsFree(quote),
        now,
        lines: priced,
      })
    : null;
  if (code && !code.ok) return { ok: false, error: "discount-code", discountError: code.error, minOrderCents: code.minOrderCents };
  // Points are checked against the card here and spent after the order row, under the card's lock.
  const loyalty =
    input.loyaltyPoints > 0
      ? await checkoutLoyaltyOf(tx, {
          userId: args.userId,
          points: input.loyaltyPoints,
          lines: loyaltyLinesOf(priced, code?.applied.perLineCents ?? []),
        })
      : null;
  const loyaltyError = loyaltyErrorOf(loyalty, input.loyaltyPoints);
  if (loyaltyError) return { ok: false, error: "loyalty-points", loyaltyError };
  const excludedFromLoyalty = loyalty
    ? null
    : await loyaltyExcludedProducts(
        tx,
        priced.map((line) => line.productId),
      );
  const totals = orderTotals(priced, {
    shippingCents: quote.feeCents,
    paymentFeeCents: paymentFeeCents(settings.delivery, input.paymentMethod),
    codeDiscountCents: code?.applied.discountCents ?? 0,
    loyaltyDiscountCents: loyalty?.discountCents ?? 0,
    voucherCents: vouchersCents(vouchers),
  });
  // A gift card pays first (a payment, not a discount: the totals stay), for the goods only (decision 0106);
  // taken after the order exists, below.
  const goodsDueCents = totals.totalCents - totals.voucherCents;
  const card = input.giftCardCode && goodsDueCents > 0 ? await previewGiftCard(tx, { code: input.giftCardCode, dueCents: goodsDueCents, now }) : null;
  if (card && !card.ok) return { ok: false, error: "gift-card", giftCardError: card.error };
  const giftCardCents = card?.giftCardCents ?? 0;
  const paidByCard = giftCardCents > 0 && giftCardCents === totals.totalCents;
  // The way to pay online must be one the shop offers for what is left to pay (the page only shows it).
  const onlinePaymentMethod = input.paymentMethod === "card" ? (input.onlinePaymentMethod ?? "card") : null;
  if (onlinePaymentMethod && !paidByCard && !isOnlineMethodOffered(settings.onlinePayments, onlinePaymentMethod, totals.totalCents - giftCardCents)) {
    return { ok: false, error: "online-method-not-offered" };
  }
  const status: OrderStatus = "awaiting_payment";
  // Every check passed: take the stock now. A checkout that loses the race for the last units waits for
  // the row, finds too few and is refused before writing anything.
  // A bundle's line takes its parts' units, summed with ordinary lines of the same variants (decision 0100).
  const stock = await takeStock(tx, await partStockLines(tx, lines));
  if (!stock.ok)
    throw new CheckoutRollback(
      outOfStock(
        stock.short,
        new Map([
          ...(await describeVariants(
            tx,
            stock.short.map((line) => line.variantId),
            locale,
            now,
          )),
          ...display,
        ]),
      ),
    );
  if (giftList) {
    // Checked once, under a share lock: a guest's gift paid meanwhile (the list needs fewer units than
    // this cart holds), or an item opened to group gifting, refuses the order and rolls back the stock.
    await lockGiftListItemsOfCart(tx, cart.id);
    const shortfalls = await giftListShortfalls(tx, cart.id);
    if (shortfalls.length > 0) throw new CheckoutRollback(giftListShortfall(shortfalls, display));
  }

  const order = await createOrder(tx, {
    idempotencyKey: input.idempotencyKey,
    userId: args.userId,
    cartId: cart.id,
    status,
    locale,
    email: input.email,
    phone: input.phone,
    firstName: input.firstName,
    lastName: input.lastName,
    ...(address ?? {}),
    invoiceKind: input.invoiceKind,
    fiscalCode: input.fiscalCode,
    companyName: input.companyName,
    vatNumber: input.vatNumber,
    sdiCode: input.sdiCode,
    pec: input.pec,
    deliveryMethod,
    paymentMethod: input.paymentMethod,
    onlinePaymentMethod,
    ...totals,
    paymentDueAt: paymentDueAt(input.paymentMethod, now, settings.bankTransfer.daysToPay),
    estimatedDeliveryFrom: estimate?.from ?? null,
    estimatedDeliveryTo: estimate?.to ?? null,
    giftListId: cart.giftListId,
    discountCodeId: code?.applied.id ?? null,
    giftCardCents,
    loyaltyPointsRedeemed: loyalty?.points ?? 0,
    loyaltyDiscountCents: loyalty?.discountCents ?? 0,
    ...giftNote,
    createdAt: now,
    lines: await withBundleParts(
      tx,
      priced.map((line, index) => ({
        productId: line.variant.productId,
        variantId: line.variantId,
        sku: facts.get(line.variantId)!.sku,
        name: line.variant.name,
        colour: line.variant.colour,
        size: line.variant.size,
        quantity: line.quantity,
        listPriceCents: line.listUnitCents,
        discountPercent: line.variant.discountPercent,
        unitPriceCents: line.unitCents,
        // Labels in the order's language, so the snapshot reads the same whatever the product becomes.
        personalisation: Object.fromEntries(
          line.variant.personalisationLabels.flatMap((label, index) => {
            const text = line.personalisation[String(index)];
            return text ? [[label, text]] : [];
          }),
        ),
        personalisationUnitCents: line.personalisationUnitCents,
        lineTotalCents: lineTotalCents(line, line.quantity),
        codeDiscountCents: code?.applied.perLineCents[index] ?? 0,
        loyaltyDiscountCents: loyalty?.perLineCents[index] ?? 0,
        isLoyaltyExcluded: loyalty ? loyalty.lineExcluded[index]! : excludedFromLoyalty!.has(line.variant.productId),
        vatRatePercent: facts.get(line.variantId)!.vatRatePercent,
        isPreorder: line.variant.isPreorder,
        giftListItemId: line.giftListItemId,
      })),
      locale,
      now,
    ),
    placed: { note: "order-placed", actorUserId: args.userId },
  });
  // The same checkout committed meanwhile from elsewhere: undo everything and answer with that order.
  if (!order) throw new CheckoutRollback("already-placed");
  // The code's last use (or this customer's last) goes to one checkout only: the loser rolls back, nothing kept.
  if (code) {
    const use = await takeDiscountCodeUse(tx, { discountCodeId: code.applied.id, orderId: order.id, userId: args.userId, email: input.email });
    if (!use.ok) throw new CheckoutRollback({ ok: false, error: "discount-code", discountError: use.error });
  }
  // The card's share in ONE conditional update: a checkout racing for the same last balance rolls back here.
  if (input.giftCardCode && giftCardCents > 0) {
    const spent = await spendGiftCard(tx, {
      code: input.giftCardCode,
      dueCents: goodsDueCents,
      orderId: order.id,
      actorUserId: args.userId,
      now,
    });
    if (!spent.ok || spent.cents !== giftCardCents) {
      throw new CheckoutRollback({ ok: false, error: "gift-card", giftCardError: spent.ok ? "balance-changed" : spent.error });
    }
  }
  // Of two checkouts spending the same points, the second finds the balance short here and rolls back.
  if (loyalty && loyalty.points > 0) {
    const spent = await spendPointsOnOrder(tx, { cardId: loyalty.cardId, orderId: order.id, points: loyalty.points, actorUserId: args.userId, now });
    if (!spent) throw new CheckoutRollback({ ok: false, error: "loyalty-points", loyaltyError: "not-enough-points" });
  }
  await recordTakenStock(tx, stock.taken, { reason: "order-placed", orderId: order.id, actorUserId: args.userId, now });
  await moveCartVouchersToOrder(tx, { cartId: cart.id, orderId: order.id, vouchers, now });
  await tx.delete(cartLines).where(eq(cartLines.cartId, cart.id));
  await tx.update(carts).set({ giftListId: null, giftGiverName: null, giftMessage: null, updatedAt: now }).where(eq(carts.id, cart.id));
  const links = { publicUrl: args.publicUrl, secret: args.secret };
  // Paid in full by gift card: nothing else to pay, the order is paid now (its "paid" mail confirms it).
  if (paidByCard) {
    const paid = await markOrderPaid(tx, { orderId: order.id, provider: "gift_card", providerRef: null, amountCents: giftCardCents, now, links });
    return { ok: true, orderId: order.id, orderNumber: order.number, paymentMethod: input.paymentMethod, status: paid.status, alreadyPlaced: false };
  }
  // The card order's mail goes when it is paid; every other order is confirmed now.
  if (input.paymentMethod !== "card") {
    await queueOrderMail(tx, { orderId: order.id, kind: "confirmation", links });
  }
  return { ok: true, orderId: order.id, orderNumber: order.number, paymentMethod: input.paymentMethod, status, alreadyPlaced: false };
}

function giftListShortfall(shortfalls: { variantId: number; stillNeeded: number }[], display: Map<number, VariantDisplay>): Refused {
  const lines = shortfalls.map((line) => ({ variantId: line.variantId, name: display.get(line.variantId)?.name ?? "", available: line.stillNeeded }));
  return { ok: false, error: "gift-list-shortfall", lines };
}

function outOfStock(short: Shortage[], display: Map<number, VariantDisplay>): Refused {
  return { ok: false, error: "out-of-stock", lines: short.map((line) => ({ ...line, name: display.get(line.variantId)?.name ?? "" })) };
}

type OrderAddress = { street: string; houseNumber: string; postcode: string; city: string; province: string };

function giftListAddressOf(delivery: GiftListDelivery): OrderAddress | null {
  if (delivery.kind === "collection") return null;
  const { street, houseNumber, postcode, city, province } = delivery;
  return { street, houseNumber, postcode, city, province };
}

/** The address typed: for a home delivery, or the buyer's for an invoice collected in the shop (the form leaves it null otherwise). */
function typedAddressOf(input: CheckoutInput): OrderAddress | null {
  const { street, houseNumber, postcode, city, province } = input;
  return street && houseNumber && postcode && city && province ? { street, houseNumber, postcode, city, province } : null;
}

/** A saved address is copied only for its owner. */
async function savedAddressOf(tx: Db, userId: string | null, addressId: number): Promise<OrderAddress | "not-found"> {
  if (!userId) return "not-found";
  const [row] = await tx
    .select({
      street: addresses.street,
      houseNumber: addresses.houseNumber,
      postcode: addresses.postcode,
      city: addresses.city,
      province: addresses.province,
    })
    .from(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.userId, userId)));
  return row ?? "not-found";
}
