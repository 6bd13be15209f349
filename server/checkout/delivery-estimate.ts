/**
 * The delivery promise: when an order placed at a given instant reaches the customer (or can be
 * collected), from the shop's settings. Pure: the clock is an argument, read in Italy's time.
 * Product page, cart, checkout, order and its mail all ask this one function.
 */
import { getPreorderDays } from "#common/variant-selection.ts";
import { addDays, isItalianPublicHoliday, isoWeekdayOf, italianDayOf, italianTimeOf } from "#common/shop-calendar.ts";
import type { DeliveryTimesSettings, OpeningHours, Settings } from "#server/settings/settings.ts";
import type { DeliveryMethod } from "#server/orders/order-methods.ts";

/** Calendar days "YYYY-MM-DD", first and last of the window (the same day for a collection). */
export type DeliveryEstimate = { method: DeliveryMethod; from: string; to: string };

export type DeliveryCalendar = { times: DeliveryTimesSettings; openingHours: OpeningHours };

/** The settings keys the promise is computed from; callers read them with the others they need, in one query. */
export const deliveryCalendarKeys = ["deliveryTimes", "shop"] as const;

export function deliveryCalendarOf(settings: Pick<Settings, (typeof deliveryCalendarKeys)[number]>): DeliveryCalendar {
  return { times: settings.deliveryTimes, openingHours: settings.shop.openingHours };
}

/** Couriers deliver Monday to Friday. */
const courierWeekdays = new Set([1, 2, 3, 4, 5]);

/** Past a year of closed days the settings leave no day open: no promise is better than a wrong one. */
const searchLimitDays = 400;

export function estimateDelivery(args: {
  now: Date;
  method: DeliveryMethod;
  /** The longest pre-order lead among the lines, in calendar days (0: everything is in stock). */
  preorderDays: number;
  calendar: DeliveryCalendar;
}): DeliveryEstimate | null {
  const { times, openingHours } = args.calendar;
  const isClosure = (day: string) => times.closures.some((closure) => closure.from <= day && day <= closure.to);
  const isShopDay = (day: string) =>
    openingHours[isoWeekdayOf(day) as keyof OpeningHours].length > 0 && !isItalianPublicHoliday(day) && !isClosure(day);
  const isCourierDay = (day: string) => courierWeekdays.has(isoWeekdayOf(day)) && !isItalianPublicHoliday(day);

  const today = italianDayOf(args.now);
  // An order counts from today only when today is a working day and the cut-off has not passed.
  let start: string | null = isShopDay(today) && italianTimeOf(args.now) < times.cutoff ? today : advance(today, 1, isShopDay);
  // Pre-order goods reach the shop after their days; the usual times are added to them (help centre).
  if (start && args.preorderDays > 0) {
    const arrives = addDays(start, args.preorderDays);
    start = isShopDay(arrives) ? arrives : advance(arrives, 1, isShopDay);
  }
  const ready = start && advance(start, times.preparationDays, isShopDay);
  if (!ready) return null;

  const window = windowAfter(ready, args.method, times, { isShopDay, isCourierDay });
  if (!window.from || !window.to) return null;
  return { method: args.method, from: window.from, to: window.to };
}

function windowAfter(
  ready: string,
  method: DeliveryMethod,
  times: DeliveryTimesSettings,
  days: { isShopDay: (day: string) => boolean; isCourierDay: (day: string) => boolean },
): { from: string | null; to: string | null } {
  const { isShopDay, isCourierDay } = days;
  if (method === "collection") {
    const from = advance(ready, times.collectionDays, isShopDay);
    return { from, to: from };
  }
  if (method === "local_delivery")
    return { from: advance(ready, times.localDeliveryDays.min, isShopDay), to: advance(ready, times.localDeliveryDays.max, isShopDay) };
  // The courier collects only on a day both it and the shop work.
  const handover = isShopDay(ready) && isCourierDay(ready) ? ready : advance(ready, 1, (day) => isShopDay(day) && isCourierDay(day));
  if (!handover) return { from: null, to: null };
  return { from: advance(handover, times.standardDays.min, isCourierDay), to: advance(handover, times.standardDays.max, isCourierDay) };
}

/** The `count`-th day after `day` that `counts` (`day` itself for 0); null when none comes in time. */
function advance(day: string, count: number, counts: (day: string) => boolean): string | null {
  let current = day;
  let searched = 0;
  for (let left = count; left > 0;) {
    current = addDays(current, 1);
    if (++searched > searchLimitDays) return null;
    if (counts(current)) left--;
  }
  return current;
}

/** What the product page and the cart promise before a method is chosen: the courier and the shop counter. */
export type DeliveryPromise = { today: string; standard: DeliveryEstimate | null; collection: DeliveryEstimate | null };

export function promiseDelivery(args: { now: Date; preorderDays: number; calendar: DeliveryCalendar }): DeliveryPromise {
  return {
    today: italianDayOf(args.now),
    standard: estimateDelivery({ ...args, method: "standard" }),
    collection: estimateDelivery({ ...args, method: "collection" }),
  };
}

/**
 * A product's promises, one per pre-order lead among its sizes and keyed by the lead's days ("0": in stock),
 * so choosing a size picks its line without a request (product page and quick view).
 */
export function promiseDeliveryByLead(args: {
  now: Date;
  calendar: DeliveryCalendar;
  variants: readonly { isPreorder: boolean; preorderDays: number | null }[];
}): Record<string, DeliveryPromise> {
  const leads = new Set(args.variants.map((variant) => getPreorderDays(variant) ?? 0));
  return Object.fromEntries(
    [...leads].map((days) => [String(days), promiseDelivery({ now: args.now, preorderDays: days, calendar: args.calendar })]),
  );
}

/** An order leaves when all its goods are in: the longest pre-order lead among the lines. */
export function longestPreorderDays(lines: readonly { isPreorder: boolean; preorderDays: number | null }[]): number {
  return Math.max(0, ...lines.map((line) => (line.isPreorder ? (line.preorderDays ?? 0) : 0)));
}
