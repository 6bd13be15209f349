/**
 * Stored exchange rates (table exchange_rates): read for display, refreshed from the ECB daily
 * reference rates, set by hand in the back office. A failed refresh changes nothing.
 */
import { eq, ne, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { exchangeRates } from "#server/db/schema.ts";
import type { ExchangeRateOverride } from "./rates.inputs";
import {
  bundledRatesPerEur,
  convertedCurrencies,
  isConvertedCurrency,
  parseDailyRates,
  ratesToStore,
  type ConvertedCurrency,
  type DisplayCurrency,
} from "./rates";

export type RateSource = "bundled" | "ecb" | "manual";
export type StoredRate = { ratePerEur: number; source: RateSource; updatedAt: Date | null };

/** What the root loader hands to <Price>: the code and the rate per 1 EUR. */
export type DisplayCurrencyState = { code: DisplayCurrency; ratePerEur: number };

/** Every converted currency's rate: the stored one, else the bundled one. */
export async function getExchangeRates(db: Db): Promise<Record<ConvertedCurrency, StoredRate>> {
  const rows = await db.select().from(exchangeRates);
  const rates = Object.fromEntries(
    convertedCurrencies.map((code) => [code, { ratePerEur: bundledRatesPerEur[code], source: "bundled", updatedAt: null }]),
  ) as Record<ConvertedCurrency, StoredRate>;
  for (const row of rows) {
    if (isConvertedCurrency(row.currency) && row.ratePerEur > 0) {
      rates[row.currency] = { ratePerEur: row.ratePerEur, source: row.source as RateSource, updatedAt: row.updatedAt };
    }
  }
  return rates;
}

/** The visitor's display currency with its current rate; EUR needs no lookup. */
export async function getDisplayCurrency(db: Db, code: DisplayCurrency): Promise<DisplayCurrencyState> {
  if (code === "EUR") return { code, ratePerEur: 1 };
  const [row] = await db.select({ ratePerEur: exchangeRates.ratePerEur }).from(exchangeRates).where(eq(exchangeRates.currency, code));
  const ratePerEur = row && row.ratePerEur > 0 ? row.ratePerEur : bundledRatesPerEur[code];
  return { code, ratePerEur };
}

export type RefreshRatesResult =
  | {
      ok: true;
      /** The reference day of the rates, when the source says. */
      date: string | null;
      updated: ConvertedCurrency[];
      /** Display currencies the source did not list: their last rates are kept. */
      missing: ConvertedCurrency[];
      /** Set by hand in the back office: a refresh does not overwrite them. */
      keptManual: ConvertedCurrency[];
    }
  | { ok: false; error: "rates-unreachable" | "rates-http-status" | "rates-malformed"; detail: string };

export type RefreshRatesOptions = {
  url: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** The ECB file is about 1.5 kB; anything far larger is not it. */
const maxBodyBytes = 1_000_000;

/**
 * Fetches the daily reference rates and stores those of the display currencies. Never throws for
 * an outside failure: it answers `{ ok: false }` and the stored rates stay as they were.
 */
export async function refreshExchangeRates(db: Db, options: RefreshRatesOptions): Promise<RefreshRatesResult> {
  const fetchRates = options.fetch ?? globalThis.fetch;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  let body: string;
  try {
    const response = await fetchRates(options.url, {
      headers: { Accept: "application/xml, text/xml, application/json;q=0.9" },
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      redirect: "follow",
    });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, error: "rates-http-status", detail: `HTTP ${response.status}` };
    }
    body = await response.text();
  } catch (error) {
    return { ok: false, error: "rates-unreachable", detail: (error as Error).message };
  }
  if (body.length > maxBodyBytes) return { ok: false, error: "rates-malformed", detail: `${body.length} bytes` };

  const parsed = parseDailyRates(body);
  if (!parsed.ok) return { ok: false, error: "rates-malformed", detail: "no usable rates in the document" };
  const { update, missing } = ratesToStore(parsed.rates);
  const entries = Object.entries(update) as [ConvertedCurrency, number][];

  const keptManual: ConvertedCurrency[] = [];
  const updated: ConvertedCurrency[] = [];
  await db.transaction(async (tx) => {
    for (const [currency, ratePerEur] of entries) {
      const written = await tx
        .insert(exchangeRates)
        .values({ currency, ratePerEur, source: "ecb" })
        .onConflictDoUpdate({
          target: exchangeRates.currency,
          set: { ratePerEur, source: "ecb", updatedAt: sql`now()` },
          setWhere: ne(exchangeRates.source, "manual"),
        })
        .returning({ currency: exchangeRates.currency });
      (written.length > 0 ? updated : keptManual).push(currency);
    }
  });
  return { ok: true, date: parsed.rates.date, updated, missing, keptManual };
}

/** A rate set by hand: shown until the back office clears it, whatever the ECB says meanwhile. */
export async function overrideExchangeRate(db: Db, { currency, ratePerEur }: ExchangeRateOverride): Promise<void> {
  await db
    .insert(exchangeRates)
    .values({ currency, ratePerEur, source: "manual" })
    .onConflictDoUpdate({ target: exchangeRates.currency, set: { ratePerEur, source: "manual", updatedAt: sql`now()` } });
}

/**
 * Hands a currency back to the automatic rates: the bundled rate until the next refresh stores
 * the ECB's.
 */
export async function clearExchangeRateOverride(db: Db, currency: ConvertedCurrency): Promise<void> {
  await db
    .update(exchangeRates)
    .set({ ratePerEur: bundledRatesPerEur[currency], source: "bundled", updatedAt: sql`now()` })
    .where(eq(exchangeRates.currency, currency));
}
