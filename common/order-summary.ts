/**
 * The summary lines under an order's products, the same everywhere they are shown (cart, checkout, order
 * page, e-mails, back office): the goods at list prices, the products' offers, a discount code, the
 * personalisation, the delivery and the cash-on-delivery fee. Each line is a signed amount and the total
 * is their sum, so what a customer reads always adds up (docs/decisions/0085-summary-lines-and-sdi-file-names.md). The server
 * computes them; pages and e-mails say them in words with `summaryLineText`. Browser-safe.
 */
import type { TFunction } from "i18next";

/** Whole cents (server/money.ts does the arithmetic that makes them). */
type Cents = number;

export type SummaryLine =
  /** The goods at list prices. */
  | { kind: "subtotal"; cents: Cents }
  /** What the products' own offers take off (negative). */
  | { kind: "offers"; cents: Cents }
  /** What a discount code takes off (negative); `percent` for a percentage code. */
  | { kind: "discount-code"; cents: Cents; code: string; percent: number | null }
  /** What loyalty points spent take off (negative): a discount on the goods (docs/decisions/0099-loyalty-card.md). */
  | { kind: "loyalty-points"; cents: Cents; points: number }
  | { kind: "personalisation"; cents: Cents }
  /** The delivery's fee; `toChoose` while none is chosen (it then adds nothing yet). */
  | { kind: "shipping"; cents: Cents; toChoose: boolean }
  | { kind: "payment-fee"; cents: Cents }
  /** Gift cards bought and gift-list fund contributions: inside the total, outside VAT (docs/decisions/0106-voucher-lines.md). */
  | { kind: "vouchers"; cents: Cents };

export type SummaryLineKind = SummaryLine["kind"];

/**
 * What pays the total, shown after it: a gift card is a payment, not a discount (docs/decisions/0097-gift-cards.md),
 * so the total keeps the goods' full price and these say "paid with gift card" and "still to pay".
 */
export type SummaryPayments = { giftCardCents: Cents; stillToPayCents: Cents };

export type OrderSummary = { lines: SummaryLine[]; totalCents: Cents; payments?: SummaryPayments };

export type SummaryCode = { code: string; percent: number | null; discountCents: Cents };

export type SummaryLoyalty = { points: number; discountCents: Cents };

/**
 * The summary of goods worth `listCents` at list prices. `shippingCents` is "to-choose" while no delivery is
 * chosen, null where delivery is not part of the summary (the cart, a saved basket).
 */
export function summarizeOrder(amounts: {
  listCents: Cents;
  offersCents: Cents;
  code: SummaryCode | null;
  personalisationCents: Cents;
  shippingCents: Cents | "to-choose" | null;
  paymentFeeCents: Cents;
  loyalty?: SummaryLoyalty | null;
  voucherCents?: Cents;
}): OrderSummary {
  const lines: SummaryLine[] = [{ kind: "subtotal", cents: amounts.listCents }];
  if (amounts.offersCents > 0) lines.push({ kind: "offers", cents: -amounts.offersCents });
  if (amounts.code && amounts.code.discountCents > 0) {
    const { code, percent, discountCents } = amounts.code;
    lines.push({ kind: "discount-code", cents: -discountCents, code, percent });
  }
  if (amounts.loyalty && amounts.loyalty.discountCents > 0) {
    lines.push({ kind: "loyalty-points", cents: -amounts.loyalty.discountCents, points: amounts.loyalty.points });
  }
  if (amounts.personalisationCents > 0) lines.push({ kind: "personalisation", cents: amounts.personalisationCents });
  if (amounts.shippingCents === "to-choose") lines.push({ kind: "shipping", cents: 0, toChoose: true });
  else if (amounts.shippingCents !== null) lines.push({ kind: "shipping", cents: amounts.shippingCents, toChoose: false });
  if (amounts.paymentFeeCents > 0) lines.push({ kind: "payment-fee", cents: amounts.paymentFeeCents });
  if (amounts.voucherCents) lines.push({ kind: "vouchers", cents: amounts.voucherCents });
  return { lines, totalCents: lines.reduce((sum, line) => sum + line.cents, 0) };
}

/**
 * The summary of an order's totals as checkout computes and the order keeps them: `subtotalCents` is the goods
 * after every discount, `discountCents` the offers, the code and the loyalty points together (server/checkout/checkout.ts).
 */
export function summarizeOrderTotals(
  totals: { subtotalCents: Cents; discountCents: Cents; personalisationCents: Cents; shippingCents: Cents; paymentFeeCents: Cents },
  options: { code: SummaryCode | null; shippingToChoose?: boolean; loyalty?: SummaryLoyalty | null; giftCardCents?: Cents; voucherCents?: Cents },
): OrderSummary {
  const codeCents = options.code?.discountCents ?? 0;
  const loyaltyCents = options.loyalty?.discountCents ?? 0;
  const summary = summarizeOrder({
    listCents: totals.subtotalCents + totals.discountCents,
    offersCents: totals.discountCents - codeCents - loyaltyCents,
    code: options.code,
    loyalty: options.loyalty,
    personalisationCents: totals.personalisationCents,
    shippingCents: options.shippingToChoose ? "to-choose" : totals.shippingCents,
    paymentFeeCents: totals.paymentFeeCents,
    voucherCents: options.voucherCents ?? 0,
  });
  return withGiftCardPayment(summary, options.giftCardCents ?? 0);
}

/** The summary with what a gift card paid of its total, after it; unchanged when no card paid anything. */
export function withGiftCardPayment(summary: OrderSummary, giftCardCents: Cents): OrderSummary {
  if (giftCardCents <= 0) return summary;
  return { ...summary, payments: { giftCardCents, stillToPayCents: summary.totalCents - giftCardCents } };
}

/** A line in words (`orderSummary.*`): "Sconto" and "−15,96 €", "Consegna" and "Gratis", ... */
export function summaryLineText(t: TFunction, line: SummaryLine, format: (cents: Cents) => string): { term: string; value: string } {
  switch (line.kind) {
    case "subtotal":
      return { term: t("orderSummary.subtotal"), value: format(line.cents) };
    case "offers":
      return { term: t("orderSummary.offers"), value: `−${format(-line.cents)}` };
    case "discount-code":
      return {
        term:
          line.percent === null
            ? t("orderSummary.discountCode", { code: line.code })
            : t("orderSummary.discountCodePercent", { code: line.code, percent: line.percent }),
        value: `−${format(-line.cents)}`,
      };
    case "loyalty-points":
      return { term: t("loyalty.summaryLine", { count: line.points }), value: `−${format(-line.cents)}` };
    case "personalisation":
      return { term: t("orderSummary.personalisation"), value: `+${format(line.cents)}` };
    case "vouchers":
      return { term: t("vouchers.summaryLine"), value: `+${format(line.cents)}` };
    case "shipping":
      return {
        term: t("orderSummary.shipping"),
        value: line.toChoose ? t("orderSummary.shippingToChoose") : line.cents === 0 ? t("orderSummary.free") : format(line.cents),
      };
    case "payment-fee":
      return { term: t("orderSummary.paymentFee"), value: format(line.cents) };
  }
}

/** A cart's or a saved basket's summary (`cartTotals` of server/cart/cart.ts): no delivery yet, a discount code when one is applied. */
export function summarizeCart(
  totals: { subtotalCents: Cents; discountCents: Cents; personalisationCents: Cents },
  code: SummaryCode | null = null,
  voucherCents: Cents = 0,
): OrderSummary {
  return summarizeOrder({
    listCents: totals.subtotalCents,
    offersCents: totals.discountCents,
    code,
    personalisationCents: totals.personalisationCents,
    shippingCents: null,
    paymentFeeCents: 0,
    voucherCents,
  });
}

/** The rows after the total (`giftCards.summary.*`): "Pagato con carta regalo" and "Ancora da pagare", when a card paid. */
export function summaryPaymentTexts(
  t: TFunction,
  summary: OrderSummary,
  format: (cents: Cents) => string,
): { kind: "gift-card" | "still-to-pay"; term: string; value: string }[] {
  if (!summary.payments) return [];
  return [
    { kind: "gift-card", term: t("giftCards.summary.paidWithCard"), value: `−${format(summary.payments.giftCardCents)}` },
    { kind: "still-to-pay", term: t("giftCards.summary.stillToPay"), value: format(summary.payments.stillToPayCents) },
  ];
}
