/**
 * Display currencies and their rates (docs/rules.md#money): prices are stored and
 * charged in EUR; USD and GBP are shown with the latest stored rate per 1 EUR. Pure: parsing the
 * ECB daily reference rates, choosing which rates a refresh applies, reading the visitor's choice.
 */
import { displayCurrencies, type DisplayCurrency } from "#common/format.ts";

export type { DisplayCurrency };

/** Currencies shown besides EUR; only these rates are stored. */
export const convertedCurrencies = displayCurrencies.filter((code) => code !== "EUR") as readonly Exclude<DisplayCurrency, "EUR">[];
export type ConvertedCurrency = (typeof convertedCurrencies)[number];

/** Used until the first successful refresh (and whenever a stored row is missing). */
export const bundledRatesPerEur: Readonly<Record<ConvertedCurrency, number>> = { USD: 1.08, GBP: 0.85 };

/** The name of the cookie that remembers the visitor's choice. */
export const currencyCookieName = "currency";
export const currencyCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

export function isDisplayCurrency(value: unknown): value is DisplayCurrency {
  return typeof value === "string" && (displayCurrencies as readonly string[]).includes(value);
}

export function isConvertedCurrency(value: unknown): value is ConvertedCurrency {
  return typeof value === "string" && (convertedCurrencies as readonly string[]).includes(value);
}

/** A usable rate: a finite positive number with at most the 6 decimals the table keeps. */
export function isUsableRate(rate: number): boolean {
  return Number.isFinite(rate) && rate > 0 && rate < 1_000_000;
}

export type ParsedRates = {
  /** The reference day the rates are for (YYYY-MM-DD), when the source says. */
  date: string | null;
  /** Every currency the source lists with a usable rate, per 1 EUR. */
  ratesPerEur: Record<string, number>;
};

export type ParseRatesResult = { ok: true; rates: ParsedRates } | { ok: false; error: "malformed" };

const cubeTimePattern = /<Cube\s+time\s*=\s*["'](\d{4}-\d{2}-\d{2})["']\s*>/;
// Attributes in either order and either quote, as XML allows.
const cubeRatePattern = /<Cube\s+([^>]*?)\/?>/g;
const attributePattern = /(\w+)\s*=\s*["']([^"']*)["']/g;

/**
 * The ECB's `eurofxref-daily.xml`:
 *   <gesmes:Envelope ...><Cube><Cube time='2024-05-10'><Cube currency='USD' rate='1.0772'/>...
 * Also accepts the common JSON shape `{ "base": "EUR", "date": "...", "rates": { "USD": 1.07 } }`.
 * Entries without a usable rate are skipped; a document with none at all is malformed.
 */
export function parseDailyRates(body: string): ParseRatesResult {
  const text = body.trim();
  const rates = text.startsWith("{") ? parseJsonRates(text) : parseEcbXml(text);
  if (!rates || Object.keys(rates.ratesPerEur).length === 0) return { ok: false, error: "malformed" };
  return { ok: true, rates };
}

function parseEcbXml(xml: string): ParsedRates | null {
  if (!/<(?:\w+:)?Envelope[\s>]/.test(xml) || !/<\/(?:\w+:)?Envelope>\s*$/.test(xml)) return null;
  const date = cubeTimePattern.exec(xml)?.[1] ?? null;
  const ratesPerEur: Record<string, number> = {};
  for (const [, attributes] of xml.matchAll(cubeRatePattern)) {
    const values = new Map([...(attributes ?? "").matchAll(attributePattern)].map(([, name, value]) => [name, value]));
    const currency = values.get("currency");
    const rate = parseRate(values.get("rate"));
    if (currency && /^[A-Z]{3}$/.test(currency) && rate !== null) ratesPerEur[currency] = rate;
  }
  return { date, ratesPerEur };
}

function parseJsonRates(text: string): ParsedRates | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object") return null;
  const { base, date, rates } = parsed as { base?: unknown; date?: unknown; rates?: unknown };
  if (base !== undefined && base !== "EUR") return null;
  if (!rates || typeof rates !== "object") return null;
  const ratesPerEur: Record<string, number> = {};
  for (const [currency, value] of Object.entries(rates)) {
    const rate = parseRate(typeof value === "number" ? String(value) : value);
    if (/^[A-Z]{3}$/.test(currency) && rate !== null) ratesPerEur[currency] = rate;
  }
  return { date: typeof date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null, ratesPerEur };
}

function parseRate(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value.trim())) return null;
  const rate = Number(value);
  return isUsableRate(rate) ? rate : null;
}

/**
 * What a refresh stores: the display currencies the source lists. A display currency the source
 * leaves out keeps its last rate; codes the shop does not show are ignored.
 */
export function ratesToStore(parsed: ParsedRates): { update: Partial<Record<ConvertedCurrency, number>>; missing: ConvertedCurrency[] } {
  const update: Partial<Record<ConvertedCurrency, number>> = {};
  const missing: ConvertedCurrency[] = [];
  for (const currency of convertedCurrencies) {
    const rate = parsed.ratesPerEur[currency];
    if (rate === undefined) missing.push(currency);
    else update[currency] = rate;
  }
  return { update, missing };
}

/** The `currency` cookie's value from a Cookie header; EUR when absent or not a display currency. */
export function readCurrencyCookie(cookieHeader: string | null): DisplayCurrency {
  if (!cookieHeader) return "EUR";
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    if (part.slice(0, separator).trim() !== currencyCookieName) continue;
    const value = part.slice(separator + 1).trim();
    return isDisplayCurrency(value) ? value : "EUR";
  }
  return "EUR";
}

/** The Set-Cookie value that remembers a choice for a year. */
export function currencyCookie(code: DisplayCurrency, { secure }: { secure: boolean }): string {
  return [
    `${currencyCookieName}=${code}`,
    "Path=/",
    `Max-Age=${currencyCookieMaxAgeSeconds}`,
    "SameSite=Lax",
    "HttpOnly",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
