/**
 * What a refund may give back (docs/decisions/0053-refund-routes.md): never more than was paid for a
 * line (its total less its share of a discount code's saving), never more than the order's total, and the
 * original delivery cost only once the whole order has come back. Pure: no db.
 */
import { sumCents, type Cents } from "#server/money.ts";

export type RefundLine = { id: string; quantity: number; lineTotalCents: Cents };

/** Each line's share of what was paid: its total less its part of a discount code's saving (the rounding rest on the last line). */
export function paidPerLine(lines: readonly RefundLine[], discountCents: Cents): Map<string, Cents> {
  const gross = sumCents(lines.map((line) => line.lineTotalCents));
  const paid = new Map<string, Cents>();
  let discountLeft = discountCents;
  lines.forEach((line, index) => {
    const share = index === lines.length - 1 || gross === 0 ? discountLeft : Math.floor((discountCents * line.lineTotalCents) / gross);
    discountLeft -= share;
    paid.set(line.id, line.lineTotalCents - share);
  });
  return paid;
}

/** What the staff are offered for `units` of a line: the units' part of what was paid, within what is left. */
export function suggestedRefundCents(paidCents: Cents, quantity: number, units: number, leftCents: Cents): Cents {
  return Math.min(leftCents, Math.round((paidCents * units) / quantity));
}

export type RefundRefusal = "nothing-to-refund" | "over-paid" | "delivery-not-allowed" | "bad-quantities";

export type RefundCheck = {
  /** The order's lines with what was paid for each. */
  paid: ReadonlyMap<string, Cents>;
  /** Refunded before, per line and in all (delivery included). */
  refundedPerLine: ReadonlyMap<string, Cents>;
  refundedTotalCents: Cents;
  orderTotalCents: Cents;
  /** The lines of the return being refunded. */
  returnLineIds: ReadonlySet<string>;
  /** The delivery may go back: every unit of the order has come back, and it was not refunded before. */
  deliveryRefundable: boolean;
  shippingCents: Cents;
};

export function checkRefund(
  facts: RefundCheck,
  asked: { lines: readonly { orderLineId: string; amountCents: Cents }[]; includeDelivery: boolean },
):
  { ok: true; amountCents: Cents; deliveryCents: Cents; lines: { orderLineId: string; amountCents: Cents }[] } | { ok: false; error: RefundRefusal } {
  const lines = asked.lines.filter((line) => line.amountCents > 0);
  if (new Set(lines.map((line) => line.orderLineId)).size !== lines.length) return { ok: false, error: "bad-quantities" };
  for (const line of asked.lines) if (!Number.isInteger(line.amountCents) || line.amountCents < 0) return { ok: false, error: "bad-quantities" };
  for (const line of lines) {
    if (!facts.returnLineIds.has(line.orderLineId)) return { ok: false, error: "bad-quantities" };
    const left = (facts.paid.get(line.orderLineId) ?? 0) - (facts.refundedPerLine.get(line.orderLineId) ?? 0);
    if (line.amountCents > left) return { ok: false, error: "over-paid" };
  }
  if (asked.includeDelivery && !facts.deliveryRefundable) return { ok: false, error: "delivery-not-allowed" };
  const deliveryCents = asked.includeDelivery ? facts.shippingCents : 0;
  const amountCents = sumCents(lines.map((line) => line.amountCents)) + deliveryCents;
  if (amountCents <= 0) return { ok: false, error: "nothing-to-refund" };
  if (amountCents > facts.orderTotalCents - facts.refundedTotalCents) return { ok: false, error: "over-paid" };
  return { ok: true, amountCents, deliveryCents, lines };
}

/** Minutes until the next try of a card refund that failed: 1, 2, 4 ... up to an hour. */
export function refundRetryDelayMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/**
 * By which means a refund goes back when the order was paid partly with a gift card (docs/decisions/0097-gift-cards.md):
 * first to the other payment, up to what it paid and has not had back, the rest to the card. Art. 56 Codice del
 * consumo wants the means the customer paid with, and money she paid is never turned into shop credit.
 */
export function splitRefundByMeans(args: {
  amountCents: Cents;
  orderTotalCents: Cents;
  /** What the gift card paid of the order. */
  orderGiftCardCents: Cents;
  /** Refunded before, in all and of it to the card. */
  refundedCents: Cents;
  refundedToGiftCardCents: Cents;
}): { otherCents: Cents; giftCardCents: Cents } {
  const otherPaidCents = args.orderTotalCents - args.orderGiftCardCents;
  const otherLeftCents = Math.max(0, otherPaidCents - (args.refundedCents - args.refundedToGiftCardCents));
  const otherCents = Math.min(args.amountCents, otherLeftCents);
  return { otherCents, giftCardCents: args.amountCents - otherCents };
}
