/**
 * The notes the shop writes on an order's status history (checkout, payments, the orders module, the
 * back office) are short codes ("paid:stripe", "refund:card:re_1", "gift-list-overflow:2 · ...").
 * This is the one reader of those codes; the customer's order page and the back office each say
 * them in words. Browser-safe: no server imports.
 */
import type { TFunction } from "i18next";
import { formatMoney } from "./format";
import type { Locale } from "./locale";

const plainCodes = [
  "order-placed",
  "card-payment-expired",
  "card-payment-failed",
  "card-payment-abandoned",
  "payment-processing",
  "online-payment-failed",
  "bank-transfer-not-received",
  "cancelled-by-shop",
  "group-gift-contribution",
  "group-gift-out-of-stock",
] as const;
type PlainCode = (typeof plainCodes)[number];

export type HistoryNote =
  | { code: PlainCode }
  /** `after`: the money came once the order had expired or been cancelled; `refundNeeded`: its stock was gone by then. */
  | { code: "paid"; method: PaymentMethodKey; isTestPayment: boolean; after: string | null; refundNeeded: boolean }
  | { code: "refund"; method: PaymentMethodKey; ref: string | null }
  | { code: "gift-list-overflow"; units: number }
  /** A group gift completed: the orders on the other side (the contributions, or the list's order). */
  | { code: "group-gift-funded"; orderNumbers: number[] }
  /** A card payment whose amount or currency is not the order's: not counted as paid, for the staff to settle. */
  | { code: "payment-mismatch"; method: PaymentMethodKey; isTestPayment: boolean; amountCents: number; currency: string; ref: string }
  /**
   * A step after the sale (server/after-sales/): a withdrawal received, a return authorised, refused or
   * received, a refund issued or made; `amountCents` for refunds, `route` "card", "bank_transfer" or "gift_card".
   */
  | { code: "after-sales"; step: AfterSalesStep; returnNumber: number; amountCents: number | null; route: string | null }
  /**
   * An exchange (server/after-sales/exchanges.service.ts): its reserved units released, its replacement
   * order sent (`orderNumber` the replacement), or, on the replacement, the order it replaces.
   */
  | { code: "exchange"; step: ExchangeStep; returnNumber: number; orderNumber: number | null }
  /** Words a member of staff typed: shown as they are. */
  | { code: "text"; text: string }
  /** A code this reader does not know (yet): never shown to customers. */
  | { code: "unknown"; raw: string };

export const afterSalesSteps = [
  "withdrawal-received",
  "return-opened",
  "return-authorised",
  "return-refused",
  "return-received",
  "refund-issued",
  "refund-made",
] as const;
export type AfterSalesStep = (typeof afterSalesSteps)[number];

/** The note of a step after the sale: "return-authorised:3", "refund-made:3:card:2500". */
export function afterSalesNote(step: AfterSalesStep, returnNumber: number, refund?: { route: string; amountCents: number }): string {
  return refund ? `${step}:${returnNumber}:${refund.route}:${refund.amountCents}` : `${step}:${returnNumber}`;
}

export type ExchangeStep = "exchange-released" | "exchange-sent" | "exchange-of";

/** The note of an exchange's step: "exchange-released:3", "exchange-sent:3:1042" (the replacement's number). */
export function exchangeNote(args: { step: ExchangeStep; returnNumber: number; orderNumber?: number }): string {
  return args.orderNumber === undefined ? `${args.step}:${args.returnNumber}` : `${args.step}:${args.returnNumber}:${args.orderNumber}`;
}

/** The `order.payment.*` key of the way the money came. */
type PaymentMethodKey = "card" | "bank_transfer" | "cash_on_delivery" | "in_shop";

const paymentMethodKeys: ReadonlySet<string> = new Set(["card", "bank_transfer", "cash_on_delivery", "in_shop"]);

/** "stripe", "test" and "scalapay" take the money online ("card"); the shop's own methods name themselves. */
function methodOf(provider: string): PaymentMethodKey | null {
  if (provider === "stripe" || provider === "test" || provider === "scalapay") return "card";
  return paymentMethodKeys.has(provider) ? (provider as PaymentMethodKey) : null;
}

/** The note that flags a card payment not matching its order (server/orders/payment-mismatch.service.ts). */
export function paymentMismatchNote(args: { provider: string; amountCents: number; currency: string; ref: string }): string {
  return `payment-mismatch:${args.provider}:${args.amountCents}:${args.currency}:${args.ref}`;
}

export function readHistoryNote(note: string | null | undefined): HistoryNote | null {
  if (!note) return null;
  if ((plainCodes as readonly string[]).includes(note)) return { code: note as PlainCode };
  const paid = /^paid:([a-z_]+)(?::after-([a-z_]+))?(:refund-needed)?$/.exec(note);
  if (paid) {
    const method = methodOf(paid[1]!);
    if (method) return { code: "paid", method, isTestPayment: paid[1] === "test", after: paid[2] ?? null, refundNeeded: Boolean(paid[3]) };
  }
  const mismatch = /^payment-mismatch:([a-z_]+):(-?\d+):([a-z]*):(\S+)$/.exec(note);
  if (mismatch) {
    const method = methodOf(mismatch[1]!);
    if (method)
      return {
        code: "payment-mismatch",
        method,
        isTestPayment: mismatch[1] === "test",
        amountCents: Number(mismatch[2]),
        currency: mismatch[3]!,
        ref: mismatch[4]!,
      };
  }
  const refund = /^refund:([a-z_]+)(?::(\S+))?$/.exec(note);
  if (refund && paymentMethodKeys.has(refund[1]!)) return { code: "refund", method: refund[1] as PaymentMethodKey, ref: refund[2] ?? null };
  // The overflow note carries Italian words after its code for anyone reading the raw table.
  const overflow = /^gift-list-overflow:(\d+)\b/.exec(note);
  if (overflow) return { code: "gift-list-overflow", units: Number(overflow[1]) };
  const exchange = /^(exchange-released|exchange-sent|exchange-of):(\d+)(?::(\d+))?$/.exec(note);
  if (exchange)
    return {
      code: "exchange",
      step: exchange[1] as ExchangeStep,
      returnNumber: Number(exchange[2]),
      orderNumber: exchange[3] ? Number(exchange[3]) : null,
    };
  const afterSales = /^([a-z-]+):(\d+)(?::([a-z_]+):(\d+))?$/.exec(note);
  if (afterSales && (afterSalesSteps as readonly string[]).includes(afterSales[1]!))
    return {
      code: "after-sales",
      step: afterSales[1] as AfterSalesStep,
      returnNumber: Number(afterSales[2]),
      route: afterSales[3] ?? null,
      amountCents: afterSales[4] ? Number(afterSales[4]) : null,
    };
  const funded = /^group-gift-funded:(\d+(?:-\d+)*)$/.exec(note);
  if (funded) return { code: "group-gift-funded", orderNumbers: funded[1]!.split("-").map(Number) };
  return /^[a-z0-9_:-]+$/.test(note) ? { code: "unknown", raw: note } : { code: "text", text: note };
}

/** Rows of the history the customer does not see at all (the status did not change; only the staff act on them). */
export function isStaffOnlyHistoryNote(note: string | null | undefined): boolean {
  return readHistoryNote(note)?.code === "payment-mismatch";
}

/** What the customer reads: payments and the shop's own events; refunds, staff notes and unknown codes stay in the back office. */
export function customerHistoryNoteText(t: TFunction, note: string | null | undefined, locale: Locale = "it"): string | null {
  const read = readHistoryNote(note);
  if (!read) return null;
  switch (read.code) {
    case "order-placed":
    case "card-payment-expired":
    case "card-payment-abandoned":
    case "payment-processing":
    case "online-payment-failed":
    case "bank-transfer-not-received":
    case "group-gift-contribution":
      return t(`order.history.notes.${read.code}`);
    case "group-gift-funded":
      return t("order.history.notes.group-gift-funded");
    case "paid":
      return t("order.history.notes.paid");
    case "after-sales":
      return afterSalesText(t, read, locale);
    case "exchange":
      return exchangeText(t, read);
    case "text":
      return read.text;
    default:
      return null;
  }
}

/** What the staff read: every note in words, with the payment method, the refund's reference and what to do. */
export function staffHistoryNoteText(t: TFunction, note: string | null | undefined, locale: Locale = "it"): string | null {
  const read = readHistoryNote(note);
  if (!read) return null;
  const method = (key: PaymentMethodKey, isTestPayment = false) =>
    isTestPayment ? t("admin.order.historyNotes.testPayment") : t(`order.payment.${key}`);
  switch (read.code) {
    case "paid":
      if (read.after) {
        const status = t(`orderStatus.${read.after}`);
        return t(read.refundNeeded ? "admin.order.historyNotes.paidLateRefundNeeded" : "admin.order.historyNotes.paidLate", {
          method: method(read.method, read.isTestPayment),
          status,
        });
      }
      return t("admin.order.historyNotes.paid", { method: method(read.method, read.isTestPayment) });
    case "refund":
      return read.ref
        ? t("admin.order.historyNotes.refundWithRef", { method: method(read.method), ref: read.ref })
        : t("admin.order.historyNotes.refund", { method: method(read.method) });
    case "payment-mismatch":
      return t("admin.order.historyNotes.paymentMismatch", {
        method: method(read.method, read.isTestPayment),
        amount: read.currency === "eur" ? formatMoney(read.amountCents, locale) : `${read.amountCents} ${read.currency.toUpperCase()}`,
        ref: read.ref,
      });
    case "gift-list-overflow":
      return t("admin.order.historyNotes.giftListOverflow", { count: read.units });
    case "after-sales":
      return afterSalesText(t, read, locale);
    case "exchange":
      return exchangeText(t, read);
    case "group-gift-funded":
      return t("admin.order.historyNotes.groupGiftFunded", { numbers: read.orderNumbers.join(", "), count: read.orderNumbers.length });
    case "card-payment-failed":
    case "cancelled-by-shop":
    case "group-gift-out-of-stock":
      return t(`admin.order.historyNotes.${read.code}`);
    case "text":
      return read.text;
    case "unknown":
      return read.raw;
    default:
      return t(`order.history.notes.${read.code}`);
  }
}

/** A step after the sale in words, the same for the customer and the staff. */
function afterSalesText(t: TFunction, read: Extract<HistoryNote, { code: "after-sales" }>, locale: Locale): string {
  return t(`afterSales.history.${read.step}`, {
    returnNumber: read.returnNumber,
    amount: read.amountCents === null ? "" : formatMoney(read.amountCents, locale),
    route: read.route === "gift_card" ? t("giftCardRefunds.route") : read.route ? t(`afterSales.routes.${read.route}`) : "",
  });
}

/** An exchange's step in words, the same for the customer and the staff. */
function exchangeText(t: TFunction, read: Extract<HistoryNote, { code: "exchange" }>): string {
  return t(`exchanges.history.${read.step}`, { returnNumber: read.returnNumber, orderNumber: read.orderNumber ?? "" });
}
