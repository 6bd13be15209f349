import { z } from "zod";
import { displayCurrencies } from "#common/format.ts";
import { sameSitePath } from "#server/http/same-site-path.ts";

/** The currency switch's submission (POST /currency). */
export const CurrencyChoice = z.object({
  currency: z.enum(displayCurrencies as ["EUR", "USD", "GBP"], { error: "currency.unknown" }),
  redirectTo: z.unknown().optional().transform(sameSitePath),
});
export type CurrencyChoice = z.infer<typeof CurrencyChoice>;

/** A stored rate set by hand (back office): per 1 EUR, positive, at most 6 decimals kept. */
export const ExchangeRateOverride = z.object({
  currency: z.enum(["USD", "GBP"]),
  ratePerEur: z.coerce.number().positive().max(999_999).finite(),
});
export type ExchangeRateOverride = z.infer<typeof ExchangeRateOverride>;
