import { intlLocale, type Locale } from "./locale";
import { formatShopDateTime } from "./shop-calendar";

export type DisplayCurrency = "EUR" | "USD" | "GBP";
export const displayCurrencies: readonly DisplayCurrency[] = ["EUR", "USD", "GBP"];

/**
 * How Intl's it-IT and en-GB write an amount with `currencyDisplay: "narrowSymbol"` and two decimals. Built by
 * hand because the first Intl.NumberFormat of a page costs 17-75 ms in Chromium on this machine (ICU's number
 * data), in the middle of hydration (docs/decisions/0031-scripts-after-first-paint.md); format.test.ts checks
 * every language and currency against Intl.
 */
const moneyStyles: Record<Locale, { decimal: string; group: string; groupFromDigits: number; symbolAfter: boolean }> = {
  // it-IT groups thousands only from five digits ("1234,50 €", "12.345,67 €").
  it: { decimal: ",", group: ".", groupFromDigits: 5, symbolAfter: true },
  en: { decimal: ".", group: ",", groupFromDigits: 4, symbolAfter: false },
};
const currencySymbols: Record<DisplayCurrency, string> = { EUR: "€", USD: "$", GBP: "£" };

/**
 * Formats minor units (cents) of `currency` for display. The server passes the locale so that
 * server rendering and hydration print the same string.
 */
export function formatMoney(minorUnits: number, locale: Locale, currency: DisplayCurrency = "EUR"): string {
  if (!Number.isSafeInteger(minorUnits)) return formatMoneyWithIntl(minorUnits, locale, currency);
  const style = moneyStyles[locale];
  const cents = Math.abs(minorUnits);
  const units = String(Math.floor(cents / 100));
  const grouped = units.length >= style.groupFromDigits ? units.replace(/\B(?=(\d{3})+$)/g, style.group) : units;
  const amount = `${grouped}${style.decimal}${String(cents % 100).padStart(2, "0")}`;
  const sign = minorUnits < 0 || Object.is(minorUnits, -0) ? "-" : "";
  const symbol = currencySymbols[currency];
  return style.symbolAfter ? `${sign}${amount}\u00a0${symbol}` : `${sign}${symbol}${amount}`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** An Intl number formatter made once per `key` and kept: making one costs far more than using it. */
export function keptNumberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let format = numberFormats.get(key);
  if (!format) {
    format = make();
    numberFormats.set(key, format);
  }
  return format;
}

/** Intl's formatting, for what is not a whole number of minor units. */
function formatMoneyWithIntl(minorUnits: number, locale: Locale, currency: DisplayCurrency): string {
  // narrowSymbol: "$" rather than "USD" (it-IT) or "US$" (en-GB); USD is the only dollar the shop shows.
  const format = keptNumberFormat(
    `money ${locale} ${currency}`,
    () =>
      new Intl.NumberFormat(intlLocale[locale], {
        style: "currency",
        currency,
        currencyDisplay: "narrowSymbol",
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }),
  );
  return format.format(minorUnits / 100);
}

/**
 * "4,5" / "4.5": an average of stars (1 to 5) with its one decimal, written by hand as money is (a card's first
 * Intl formatter would cost its page's hydration); format.test.ts checks it against Intl. Intl rounds the
 * number as written in its shortest form, half up ("1.45" to "1.5", "3.4499999999999997" to "3.4"), not its
 * binary value, so the rounding reads the digits.
 */
export function formatAverage(average: number, locale: Locale): string {
  const [whole = "0", fraction = ""] = average.toString().split(".");
  const tenths = Number(whole) * 10 + Number(fraction[0] ?? 0) + (Number(fraction[1] ?? 0) >= 5 ? 1 : 0);
  return `${Math.floor(tenths / 10)}${moneyStyles[locale].decimal}${tenths % 10}`;
}

export function formatDate(isoDate: string | Date, locale: Locale): string {
  return formatShopDateTime(isoDate, locale, { dateStyle: "long" });
}

/** Millimetres as centimetres; grams as kilograms from 1 kg up, else as grams; with the unit, in the page's language. */
export function formatMeasure(value: number, unit: "mm" | "g", locale: Locale): string {
  const [amount, intlUnit] = unit === "mm" ? [value / 10, "centimeter"] : value >= 1000 ? [value / 1000, "kilogram"] : [value, "gram"];
  const format = keptNumberFormat(
    `measure ${locale} ${intlUnit}`,
    () => new Intl.NumberFormat(intlLocale[locale], { style: "unit", unit: intlUnit, maximumFractionDigits: 2 }),
  );
  return format.format(amount);
}
