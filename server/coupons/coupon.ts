/**
 * Discount codes' rules, pure: no db or clock. Whether a code applies to an order, and its saving shared
 * over the order's lines. Two kinds of code share them: the staff's codes (percent or fixed, limited by
 * dates, uses, minimum, categories and brands) and a gift list's completion code (its owner's, on what
 * the list still needs). docs/decisions/0066-coupon-codes.md.
 */
import { applyPercentOff, splitInProportion, sumCents, timesQuantity, type Cents } from "#server/money.ts";

/** Why a typed code is refused; each is also the message key `checkout.discount.errors.<code>`. */
export type DiscountCodeError =
  | "unknown"
  | "not-yet-valid"
  | "expired"
  | "used"
  | "used-by-you"
  | "not-yours"
  | "below-minimum"
  | "no-eligible-lines"
  | "not-for-these-items"
  | "gift-list"
  | "free-delivery";

/** A code as typed: any case, spaces and dashes ignored; anything that cannot be a code reads as null. */
export function normaliseDiscountCode(typed: string): string | null {
  const code = typed.replace(/[\s-]+/g, "").toUpperCase();
  return /^[A-Z0-9]{4,40}$/.test(code) ? code : null;
}

export type CouponTerms = {
  id: number;
  code: string;
  kind: "percent" | "fixed";
  percent: number | null;
  amountCents: Cents | null;
  minOrderCents: Cents;
  validFrom: Date;
  validUntil: Date;
  maxUses: number | null;
  usedCount: number;
  maxUsesPerCustomer: number | null;
  combinesWithFreeDelivery: boolean;
  appliesToGiftLists: boolean;
  isActive: boolean;
  /** Empty: every category (brand). */
  categoryIds: readonly number[];
  brandIds: readonly number[];
  /** A gift list's completion code: only for its owner, on the units the list still needs. */
  completion: { ownerUserId: string | null; stillNeeded: ReadonlyMap<number, number> } | null;
};

export type CouponLine = {
  variantId: number;
  quantity: number;
  /** One unit's price today (the product's offer applied); personalisation is never discounted. */
  unitCents: Cents;
  categoryIds: readonly number[];
  brandIds: readonly number[];
};

export type CouponOrder = {
  now: Date;
  userId: string | null;
  isGiftListCart: boolean;
  /**
   * The chosen delivery is a shipment that costs nothing (free-shipping products): a code that does not
   * combine with free delivery is refused. Null before a delivery is chosen (the cart): not checked yet.
   */
  shipsFree: boolean | null;
  /** Uses this customer's account or e-mail already hold (orders not let go). */
  customerUses: number;
};

export type CouponOutcome =
  { ok: true; discountCents: Cents; perLineCents: Cents[] } | { ok: false; error: DiscountCodeError; minOrderCents?: Cents };

/** Lines the code may discount: in one of its categories and one of its brands, when it names any. */
function isEligible(terms: CouponTerms, line: CouponLine): boolean {
  const inCategory = terms.categoryIds.length === 0 || line.categoryIds.some((id) => terms.categoryIds.includes(id));
  const inBrand = terms.brandIds.length === 0 || line.brandIds.some((id) => terms.brandIds.includes(id));
  return inCategory && inBrand;
}

/**
 * The code on this order: refused with the first reason that holds (in the order a customer can act on
 * them), or its saving and each line's share of it (largest remainder, so the shares add up exactly).
 */
export function applyCoupon(terms: CouponTerms, lines: readonly CouponLine[], order: CouponOrder): CouponOutcome {
  if (!terms.isActive) return { ok: false, error: "unknown" };
  if (order.now.getTime() < terms.validFrom.getTime()) return { ok: false, error: "not-yet-valid" };
  if (order.now.getTime() >= terms.validUntil.getTime()) return { ok: false, error: "expired" };
  if (terms.maxUses !== null && terms.usedCount >= terms.maxUses) return { ok: false, error: "used" };
  if (terms.completion) {
    if (!order.userId || terms.completion.ownerUserId !== order.userId) return { ok: false, error: "not-yours" };
    if (order.isGiftListCart) return { ok: false, error: "no-eligible-lines" };
    const perLineCents = completionDiscount(lines, terms.completion.stillNeeded, terms.percent ?? 0);
    const discountCents = sumCents(perLineCents);
    return discountCents > 0 ? { ok: true, discountCents, perLineCents } : { ok: false, error: "no-eligible-lines" };
  }
  if (terms.maxUsesPerCustomer !== null && order.customerUses >= terms.maxUsesPerCustomer) return { ok: false, error: "used-by-you" };
  if (order.isGiftListCart && !terms.appliesToGiftLists) return { ok: false, error: "gift-list" };
  const goodsCents = lines.map((line) => timesQuantity(line.unitCents, line.quantity));
  if (sumCents(goodsCents) < terms.minOrderCents) return { ok: false, error: "below-minimum", minOrderCents: terms.minOrderCents };
  const eligibleCents = lines.map((line, index) => (isEligible(terms, line) ? goodsCents[index]! : 0));
  const eligibleTotal = sumCents(eligibleCents);
  if (eligibleTotal <= 0) return { ok: false, error: "not-for-these-items" };
  if (order.shipsFree === true && !terms.combinesWithFreeDelivery) return { ok: false, error: "free-delivery" };
  const discountCents =
    terms.kind === "percent" ? eligibleTotal - applyPercentOff(eligibleTotal, terms.percent ?? 0) : Math.min(terms.amountCents ?? 0, eligibleTotal);
  if (discountCents <= 0) return { ok: false, error: "not-for-these-items" };
  return { ok: true, discountCents, perLineCents: shareDiscount(discountCents, eligibleCents) };
}

/**
 * A saving shared over lines in proportion to their eligible goods, largest remainder first: the shares
 * add up to the saving exactly and no line's share passes its goods.
 */
export function shareDiscount(discountCents: Cents, eligibleCents: readonly Cents[]): Cents[] {
  if (discountCents > sumCents(eligibleCents)) throw new RangeError("A discount larger than the goods it applies to");
  return splitInProportion(discountCents, eligibleCents);
}

/**
 * The completion code's saving per line: only the list's variants still not bought, at most as many
 * units as are still needed (spread over the lines in cart order), percent off each line's eligible
 * goods, rounded once per line.
 */
export function completionDiscount(lines: readonly CouponLine[], stillNeeded: ReadonlyMap<number, number>, percent: number): Cents[] {
  const left = new Map(stillNeeded);
  return lines.map((line) => {
    const units = Math.min(line.quantity, left.get(line.variantId) ?? 0);
    if (units <= 0) return 0;
    left.set(line.variantId, (left.get(line.variantId) ?? 0) - units);
    const goodsCents = timesQuantity(line.unitCents, units);
    return goodsCents - applyPercentOff(goodsCents, percent);
  });
}
