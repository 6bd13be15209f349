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

let timeFormat: Intl.DateTimeFormat | undefined;

/** "HH:MM" (24 h) of an instant in Italy. */
export function italianTimeOf(instant: Date): string {
  timeFormat ??= new Intl.DateTimeFormat("en-GB", { timeZone: shopTimeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return timeFormat.format(instant);
}

/** ISO weekday of a calendar day: 1 = Monday ... 7 = Sunday. */
export function isoWeekdayOf(isoDate: string): number {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay() || 7;
}

/** Easter Sunday of a Gregorian year (the anonymous Gregorian computus). */
export function easterSundayOf(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((8 * b + 13) / 25) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Italy's national public holidays (feste nazionali) of a year, Easter Monday included. */
export function italianPublicHolidaysOf(year: number): Set<string> {
  const fixed = ["01-01", "01-06", "04-25", "05-01", "06-02", "08-15", "11-01", "12-08", "12-25", "12-26"];
  // San Francesco d'Assisi is a national holiday again from 2026 (legge 151/2025).
  if (year >= 2026) fixed.push("10-04");
  const easter = easterSundayOf(year);
  return new Set([...fixed.map((monthDay) => `${year}-${monthDay}`), easter, addDays(easter, 1)]);
}

const holidaysByYear = new Map<number, Set<string>>();

export function isItalianPublicHoliday(isoDate: string): boolean {
  const year = Number(isoDate.slice(0, 4));
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = italianPublicHolidaysOf(year);
    holidaysByYear.set(year, holidays);
  }
  return holidays.has(isoDate);
}

const dayFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A calendar day as a delivery promise reads it: "mar 1 dic" / "Tue 1 Dec". */
export function formatShopDay(isoDate: string, locale: Locale): string {
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale[locale], { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
    dayFormats.set(locale, format);
  }
  return format.format(new Date(`${isoDate}T00:00:00Z`)).replace(",", "");
}
