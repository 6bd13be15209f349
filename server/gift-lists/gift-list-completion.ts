/**
 * The completion discount of a gift list, pure: no db or clock. From the list's event date, for
 * the configured window, its owner gets one code worth a percentage off what nobody bought from it.
 */
import { applyPercentOff, sumCents, timesQuantity, type Cents } from "#server/money.ts";
import { addDays, italianMidnight } from "#common/shop-calendar.ts";

/** Why a typed discount code is refused; each is also the message key `checkout.discount.errors.<code>`. */
export type DiscountCodeError = "unknown" | "not-yet-valid" | "expired" | "used" | "not-yours" | "no-eligible-lines";

/** The code is the list's own code behind a fixed word: one per list by construction (unique column). */
export function completionCodeOf(giftListCode: string): string {
  return `GRAZIE${giftListCode}`;
}

/** A code as typed: any case, spaces and dashes ignored; anything that cannot be a code reads as null. */
export function normaliseDiscountCode(typed: string): string | null {
  const code = typed.replace(/[\s-]+/g, "").toUpperCase();
  return /^[A-Z0-9]{4,40}$/.test(code) ? code : null;
}

/** Valid from the event day's start (Italy) for `windowDays` whole days. */
export function completionWindow(eventDate: string, windowDays: number): { validFrom: Date; validUntil: Date } {
  return { validFrom: italianMidnight(eventDate), validUntil: italianMidnight(addDays(eventDate, windowDays)) };
}

export function isWithinWindow(window: { validFrom: Date; validUntil: Date }, now: Date): boolean {
  return window.validFrom.getTime() <= now.getTime() && now.getTime() < window.validUntil.getTime();
}

export type DiscountableLine = { variantId: number; quantity: number; unitCents: Cents };

/**
 * The code's discount on a cart: only the list's variants still not bought, at most as many units as are
 * still needed (spread over the lines in cart order), percent off each line's eligible goods, rounded
 * once per line. Personalisation, shipping and fees are not discounted.
 */
export function completionDiscount(
  lines: readonly DiscountableLine[],
  stillNeeded: ReadonlyMap<number, number>,
  percent: number,
): { lines: { variantId: number; units: number; discountCents: Cents }[]; discountCents: Cents } {
  const left = new Map(stillNeeded);
  const discounted = lines.flatMap((line) => {
    const units = Math.min(line.quantity, left.get(line.variantId) ?? 0);
    if (units <= 0) return [];
    left.set(line.variantId, (left.get(line.variantId) ?? 0) - units);
    const goodsCents = timesQuantity(line.unitCents, units);
    return [{ variantId: line.variantId, units, discountCents: goodsCents - applyPercentOff(goodsCents, percent) }];
  });
  return { lines: discounted, discountCents: sumCents(discounted.map((line) => line.discountCents)) };
}
