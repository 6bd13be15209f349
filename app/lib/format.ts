import { intlLocale, type Locale } from "./locale";
import { formatShopDateTime } from "./shop-calendar";

export type DisplayCurrency = "EUR" | "USD" | "GBP";
export const displayCurrencies: readonly DisplayCurrency[] = ["EUR", "USD", "GBP"];

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Formats minor units (cents) of `currency` for display. The server passes the locale so that
 * server rendering and hydration print the same string.
 */
export function formatMoney(minorUnits: number, locale: Locale, currency: DisplayCurrency = "EUR"): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    // narrowSymbol: "$" rather than "USD" (it-IT) or "US$" (en-GB); USD is the only dollar the shop shows.
    format = new Intl.NumberFormat(intlLocale[locale], {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    moneyFormats.set(key, format);
  }
  return format.format(minorUnits / 100);
}

export function formatDate(isoDate: string | Date, locale: Locale): string {
  return formatShopDateTime(isoDate, locale, { dateStyle: "long" });
}
