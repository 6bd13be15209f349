import { formatMoney, type DisplayCurrency } from "#common/format.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { usePageI18n, useSharedTexts } from "./use-shared-texts";

export type DisplayCurrencyState = { code: DisplayCurrency; ratePerEur: number };

const euro: DisplayCurrencyState = { code: "EUR", ratePerEur: 1 };

/** The visitor's display currency (root loader); prices are always charged in EUR. */
export function useDisplayCurrency(): DisplayCurrencyState {
  return useRootData()?.currency ?? euro;
}

/** EUR cents shown in the display currency, converted with the stored rate (docs/rules.md#money). */
export function useFormatPrice() {
  const currency = useDisplayCurrency();
  const locale = usePageI18n().language === "en" ? "en" : "it";
  return (eurCents: number) => formatMoney(currency.code === "EUR" ? eurCents : Math.round(eurCents * currency.ratePerEur), locale, currency.code);
}

/**
 * A price, with the old price struck through when discounted. Every price on the site goes
 * through here, so currency and formatting are one piece of code.
 */
export function Price({
  cents,
  originalCents,
  size = "md",
  className = "",
}: {
  /** What the customer pays per unit, in EUR cents. */
  cents: number;
  /** The list price when a discount applies. */
  originalCents?: number | null;
  size?: "sm" | "md" | "lg";
  className?: string;
}) {
  const { text } = useSharedTexts();
  const format = useFormatPrice();
  const discounted = originalCents != null && originalCents > cents;
  const sizeClass = size === "lg" ? "text-2xl" : size === "sm" ? "text-base" : "text-lg";
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 ${className}`}>
      <span className={`${sizeClass} font-bold ${discounted ? "text-coral-700" : "text-ink"}`}>
        {discounted && <span className="sr-only">{text("product.currentPrice")} </span>}
        {format(cents)}
      </span>
      {discounted && (
        <s className="text-sm text-muted">
          <span className="sr-only">{text("product.oldPrice")} </span>
          {format(originalCents)}
        </s>
      )}
    </span>
  );
}
