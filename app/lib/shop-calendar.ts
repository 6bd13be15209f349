/**
 * The shop's calendar and clock: Italy (Europe/Rome), whatever the server's or the visitor's time zone.
 * Calendar days are "YYYY-MM-DD" strings; instants are Dates. Browser-safe (pages and server alike).
 */
import { intlLocale, type Locale } from "./locale";

export const shopTimeZone = "Europe/Rome";

/** Formatters are costly to build and the tables format one date per row: one per language and style. */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
// Built on first use: a time-zone formatter costs milliseconds to build, and every page loads this module
// while few of them need Italian days (the bundler keeps a constructor call even when its result is unused).
let dayFormat: Intl.DateTimeFormat | undefined;

/** "YYYY-MM-DD" of an instant in Italy. */
export function italianDayOf(instant: Date): string {
  dayFormat ??= new Intl.DateTimeFormat("en-CA", { timeZone: shopTimeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return dayFormat.format(instant);
}

/** "YYYY-MM-DD" plus `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Midnight at the start of an Italian calendar day, as an instant (CET +01:00 or CEST +02:00). */
export function italianMidnight(isoDate: string): Date {
  for (const offset of ["+01:00", "+02:00"]) {
    const candidate = new Date(`${isoDate}T00:00:00${offset}`);
    if (italianDayOf(candidate) === isoDate && italianDayOf(new Date(candidate.getTime() - 1)) !== isoDate) return candidate;
  }
  throw new RangeError(`no Italian midnight for ${isoDate}`);
}

/** The last moment (23:59:59) of an Italian calendar day, as an instant. */
export function endOfItalianDay(isoDate: string): Date {
  return new Date(italianMidnight(addDays(isoDate, 1)).getTime() - 1_000);
}

/** A date and time as the shop's staff and customers read it, e.g. "12/03/26, 10:42" or "12 mar 2026, 10:42". */
export function formatShopDateTime(
  at: Date | string,
  locale: Locale,
  style: { dateStyle?: "short" | "medium" | "long"; timeStyle?: "short" | "medium" } = { dateStyle: "short", timeStyle: "short" },
): string {
  const key = `${locale} ${style.dateStyle ?? ""} ${style.timeStyle ?? ""}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale[locale], { ...style, timeZone: shopTimeZone });
    dateTimeFormats.set(key, format);
  }
  return format.format(new Date(at));
}
