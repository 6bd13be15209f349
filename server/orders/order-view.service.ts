/**
 * An order as its page, its e-mails and /shopping show it: the snapshot lines (with today's picture of
 * the product when it still exists), totals, delivery, payment (bank-transfer instructions while it
 * waits) and the status history. Who may see it is the caller's check (token, owner or admin).
 */
import { asc, desc, eq } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { OnlinePaymentMethod } from "#common/online-payment-methods.ts";
import type { DeliveryMethod, PaymentMethod } from "./order-methods";
import { describeVariants } from "#server/cart/cart-view.service.ts";
import type { Db } from "#server/db/client.ts";
import { discountCodes, giftListContributions, orderLines, orders, orderStatusHistory, orderVouchers, payments } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { trackingUrlOf } from "#common/carrier-tracking.ts";
import type { OrderStatus } from "./order-status";
import { isReplacementOrder } from "#server/after-sales/exchange.ts";
import { summarizeOrderTotals, type OrderSummary, type SummaryCode } from "#common/order-summary.ts";

export type OrderLineView = {
  id: string;
  productId: number | null;
  variantId: number | null;
  sku: string;
  name: string;
  colour: string | null;
  size: string | null;
  personalisation: { label: string; text: string }[];
  quantity: number;
  unitCents: number;
  listUnitCents: number;
  personalisationUnitCents: number;
  lineTotalCents: number;
  isPreorder: boolean;
  image: { storageKey: string; width: number; height: number; alt: string } | null;
  /** The bundle this line is a part of, as bought ("Trio Goody"); null for a line bought alone. */
  bundleName: string | null;
};

/** "processing": the customer paid online and the provider confirms later (the payment row is pending, in verification). */
export type PaymentState = "pending" | "processing" | "succeeded" | "failed" | "expired" | "refunded";

export type OrderView = {
  id: string;
  number: number;
  status: OrderStatus;
  createdAt: Date;
  locale: Locale;
  userId: string | null;
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
  lines: OrderLineView[];
  /** An exchange's replacement order: no right of withdrawal of its own (docs/decisions/0105-exchanges.md). */
  isExchangeReplacement: boolean;
  totals: {
    subtotalCents: number;
    discountCents: number;
    personalisationCents: number;
    shippingCents: number;
    paymentFeeCents: number;
    totalCents: number;
  };
  /** The discount code the order was placed with and what it saved (already out of the subtotal and among the discounts). */
  discountCode: SummaryCode | null;
  /** The lines under the products, adding up to the total (common/order-summary.ts). */
  summary: OrderSummary;
  delivery: {
    method: DeliveryMethod;
    /** Null for collection in the shop, and in what the giver sees of a gift-list order (`withoutGiftListAddress`). */
    address: { street: string; houseNumber: string; postcode: string; city: string; province: string; country: string } | null;
    /** A gift-list order: it goes to the list's family (or is collected by them), whose address the giver never sees. */
    toGiftList: boolean;
    /** A contribution toward a group gift: nothing is delivered for it; the list's own order follows once the gift is funded. */
    groupGiftContribution: boolean;
    carrier: string | null;
    trackingNumber: string | null;
    /** The courier's page following the parcel (a known courier with a number), from the settings' templates. */
    trackingUrl: string | null;
    /** The delivery promised at checkout, while it is still to come; null once handed over or given up, and on older orders. */
    estimate: { method: DeliveryMethod; from: string; to: string } | null;
  };
  /** The invoice the customer asked for at checkout, if any. */
  invoice:
    | { kind: "private"; fiscalCode: string }
    | { kind: "company"; companyName: string; vatNumber: string; sdiCode: string | null; pec: string | null }
    | null;
  payment: {
    method: PaymentMethod;
    /** How an online ("card") order is paid at the provider; null for the other methods. */
    onlineMethod: OnlinePaymentMethod | null;
    /** The latest payment row's status; "pending" before there is one. */
    status: PaymentState;
    paidAt: Date | null;
    /** Until when an unpaid order holds its stock; null: no deadline (paid on handover) or already settled. */
    dueAt: Date | null;
    /** Bank transfer: what to pay to whom, with the reason "Ordine {number}". */
    bankTransfer: { iban: string; beneficiary: string; bankName: string; reason: string; amountCents: number; dueAt: Date | null } | null;
  };
  history: { status: OrderStatus; at: Date; note: string | null }[];
  /** Gift cards bought (to whom, mailed on which day or printed) and fund contributions (docs/decisions/0106-voucher-lines.md). */
  vouchers: {
    kind: "gift_card" | "fund_contribution";
    amountCents: number;
    recipientName: string;
    recipientEmail: string | null;
    deliverOn: string | null;
  }[];
};

/** An order still on its way to the customer: its promised delivery is worth showing. */
function awaitsDelivery(status: OrderStatus): boolean {
  return status === "awaiting_payment" || status === "paid" || status === "preparing" || status === "shipped" || status === "ready_for_collection";
}

/** The reason customers write on their bank transfer (the same in both languages: the shop reads it). */
function bankTransferReason(orderNumber: number): string {
  return `Ordine ${orderNumber}`;
}

/**
 * Null when there is no such order (or the id is not a uuid). `locale` is the page's, for today's pictures
 * of the products; null leaves them out (the e-mails show none).
 */
export async function getOrderView(db: Db, args: { orderId: string; locale: Locale | null }): Promise<OrderView | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(args.orderId)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, args.orderId));
  if (!order) return null;
  // One query after another: inside a caller's transaction (the e-mails) there is a single connection.
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.sku), asc(orderLines.id));
  const history = await db
    .select({ status: orderStatusHistory.toStatus, at: orderStatusHistory.createdAt, note: orderStatusHistory.note })
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, order.id))
    .orderBy(asc(orderStatusHistory.id));
  const paymentRows = await db
    .select({ status: payments.status, processingSince: payments.processingSince })
    .from(payments)
    .where(eq(payments.orderId, order.id))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  const vouchers =
    order.voucherCents > 0
      ? await db
          .select({
            kind: orderVouchers.kind,
            amountCents: orderVouchers.amountCents,
            recipientName: orderVouchers.recipientName,
            recipientEmail: orderVouchers.recipientEmail,
            deliverOn: orderVouchers.deliverOn,
          })
          .from(orderVouchers)
          .where(eq(orderVouchers.orderId, order.id))
          .orderBy(asc(orderVouchers.createdAt), asc(orderVouchers.id))
      : [];
  const contribution = order.giftListId
    ? await db.select({ id: giftListContributions.id }).from(giftListContributions).where(eq(giftListContributions.orderId, order.id))
    : [];
  const [code] = order.discountCodeId
    ? await db
        .select({ code: discountCodes.code, percent: discountCodes.percent })
        .from(discountCodes)
        .where(eq(discountCodes.id, order.discountCodeId))
    : [];
  // The code's saving: what the lines add up to beyond the goods and personalisation charged, less the loyalty points' discount.
  const codeDiscountCents =
    lines.reduce((sum, line) => sum + line.lineTotalCents, 0) - order.subtotalCents - order.personalisationCents - order.loyaltyDiscountCents;
  const summaryCode = code && codeDiscountCents > 0 ? { code: code.code, percent: code.percent, discountCents: codeDiscountCents } : null;
  const settings = await getSettings(db, ["bankTransfer", "tracking"]);
  // Today's picture of each variant still in the catalogue, picked as the cart picks it.
  const variantIds = args.locale ? lines.flatMap((line) => (line.variantId === null ? [] : [line.variantId])) : [];
  const variants = await describeVariants(db, variantIds, args.locale ?? "it", order.createdAt);
  // Paid orders read "received" until the money goes back: a refund is the latest payment row's word.
  // An order of nothing to pay (an exchange's replacement, decision 0105) is settled from the start.
  const latestPayment = paymentRows[0]?.status;
  const paymentStatus: PaymentState =
    latestPayment === "refunded"
      ? "refunded"
      : order.paidAt || order.totalCents === 0
        ? "succeeded"
        : latestPayment === "pending" && paymentRows[0]?.processingSince
          ? "processing"
          : (latestPayment ?? "pending");
  const awaitingTransfer = order.paymentMethod === "bank_transfer" && order.status === "awaiting_payment";
  const { bankTransfer } = settings;
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    createdAt: order.createdAt,
    locale: order.locale === "en" ? "en" : "it",
    userId: order.userId,
    email: order.email,
    phone: order.phone,
    firstName: order.firstName,
    lastName: order.lastName,
    isExchangeReplacement: isReplacementOrder(order),
    lines: lines.map((line) => ({
      id: line.id,
      productId: line.productId,
      variantId: line.variantId,
      sku: line.sku,
      name: line.name,
      colour: line.colour,
      size: line.size,
      personalisation: Object.entries(line.personalisation).map(([label, text]) => ({ label, text })),
      quantity: line.quantity,
      unitCents: line.unitPriceCents,
      listUnitCents: line.listPriceCents,
      personalisationUnitCents: line.personalisationUnitCents,
      lineTotalCents: line.lineTotalCents,
      isPreorder: line.isPreorder,
      image: (line.variantId !== null && variants.get(line.variantId)?.image) || null,
      bundleName: line.bundleName,
    })),
    totals: {
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      personalisationCents: order.personalisationCents,
      shippingCents: order.shippingCents,
      paymentFeeCents: order.paymentFeeCents,
      totalCents: order.totalCents,
    },
    discountCode: summaryCode,
    summary: summarizeOrderTotals(order, {
      code: summaryCode,
      loyalty: order.loyaltyDiscountCents > 0 ? { points: order.loyaltyPointsRedeemed, discountCents: order.loyaltyDiscountCents } : null,
      giftCardCents: order.giftCardCents,
      voucherCents: order.voucherCents,
    }),
    delivery: {
      method: order.deliveryMethod,
      // A collected order keeps an address only as the invoice's buyer's: it is not where anything goes.
      address:
        order.deliveryMethod !== "collection" && order.street && order.houseNumber && order.postcode && order.city && order.province
          ? {
              street: order.street,
              houseNumber: order.houseNumber,
              postcode: order.postcode,
              city: order.city,
              province: order.province,
              country: order.country,
            }
          : null,
      toGiftList: order.giftListId !== null,
      groupGiftContribution: contribution.length > 0,
      carrier: order.carrier,
      trackingNumber: order.trackingNumber,
      trackingUrl: trackingUrlOf(settings.tracking, order.carrier, order.trackingNumber),
      estimate:
        order.estimatedDeliveryFrom && order.estimatedDeliveryTo && contribution.length === 0 && awaitsDelivery(order.status)
          ? { method: order.deliveryMethod, from: order.estimatedDeliveryFrom, to: order.estimatedDeliveryTo }
          : null,
    },
    invoice:
      order.invoiceKind === "private" && order.fiscalCode
        ? { kind: "private", fiscalCode: order.fiscalCode }
        : order.invoiceKind === "company" && order.companyName && order.vatNumber
          ? { kind: "company", companyName: order.companyName, vatNumber: order.vatNumber, sdiCode: order.sdiCode, pec: order.pec }
          : null,
    payment: {
      method: order.paymentMethod,
      onlineMethod: order.paymentMethod === "card" ? (order.onlinePaymentMethod ?? "card") : null,
      status: paymentStatus,
      paidAt: order.paidAt,
      dueAt: order.status === "awaiting_payment" ? order.paymentDueAt : null,
      bankTransfer:
        order.paymentMethod === "bank_transfer"
          ? {
              iban: bankTransfer.iban,
              beneficiary: bankTransfer.beneficiary,
              bankName: bankTransfer.bankName,
              reason: bankTransferReason(order.number),
              amountCents: order.totalCents - order.giftCardCents,
              dueAt: awaitingTransfer ? order.paymentDueAt : null,
            }
          : null,
    },
    history: history.map((row) => ({ status: row.status, at: row.at, note: row.note })),
    vouchers,
  };
}

/** What the customer's page and e-mails show: a gift-list order without the family's address (staff views keep it). */
export function withoutGiftListAddress(view: OrderView): OrderView {
  return view.delivery.toGiftList ? { ...view, delivery: { ...view.delivery, address: null } } : view;
}
