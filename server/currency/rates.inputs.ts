import { z } from "zod";
import { displayCurrencies } from "#app/lib/format.ts";

/**
 * A same-site path to send the visitor back to, or null: "/shop?x=1#y" passes; absolute URLs,
 * protocol-relative "//evil.example", "/\evil.example" and control characters do not (no open redirects).
 */
export function toSameSitePath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 2000) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  if (/[\u0000-\u001F\u007F\\]/.test(value)) return null;
  const base = "http://same-site.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The currency switch's submission (POST /currency). */
export const CurrencyChoice = z.object({
  currency: z.enum(displayCurrencies as ["EUR", "USD", "GBP"], { error: "currency.unknown" }),
  redirectTo: z.unknown().optional().transform(toSameSitePath),
});
export type CurrencyChoice = z.infer<typeof CurrencyChoice>;

/** A stored rate set by hand (back office): per 1 EUR, positive, at most 6 decimals kept. */
export const ExchangeRateOverride = z.object({
  currency: z.enum(["USD", "GBP"]),
  ratePerEur: z.coerce.number().positive().max(999_999).finite(),
});
export type ExchangeRateOverride = z.infer<typeof ExchangeRateOverride>;
