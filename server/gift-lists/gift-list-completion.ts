/**
 * The completion discount of a gift list, pure: no db or clock. From the list's event date, for
 * the configured window, its owner gets one code worth a percentage off what nobody bought from it
 * (the code's rules are the coupons', server/coupons/coupon.ts).
 */
import { addDays, italianMidnight } from "#common/shop-calendar.ts";

/** The code is the list's own code behind a fixed word: one per list by construction (unique column). */
export function completionCodeOf(giftListCode: string): string {
  return `GRAZIE${giftListCode}`;
}

/** Valid from the event day's start (Italy) for `windowDays` whole days. */
export function completionWindow(eventDate: string, windowDays: number): { validFrom: Date; validUntil: Date } {
  return { validFrom: italianMidnight(eventDate), validUntil: italianMidnight(addDays(eventDate, windowDays)) };
}

export function isWithinWindow(window: { validFrom: Date; validUntil: Date }, now: Date): boolean {
  return window.validFrom.getTime() <= now.getTime() && now.getTime() < window.validUntil.getTime();
}
