import { useTranslation } from "react-i18next";
import { formatMoney } from "#common/format.ts";
import type { CheckoutSummary } from "#server/checkout/checkout.service.ts";
import { LineDetails } from "./cart-line-item";
import { PricedLine } from "./order-lines";
import { OrderSummaryRows } from "./order-summary-rows";
import { useDisplayCurrency, useFormatPrice } from "./price";

/**
 * The order as the server priced it just now: lines, subtotal, delivery, cash-on-delivery fee and
 * total. Nothing here is computed in the browser; `updating` dims it while a new one is on its way.
 */
export function CheckoutSummaryPanel({ summary, updating = false }: { summary: CheckoutSummary; updating?: boolean }) {
  const { t, i18n } = useTranslation();
  const format = useFormatPrice();
  const currency = useDisplayCurrency();
  const locale = i18n.language === "en" ? "en" : "it";
  const { cart } = summary;
  return (
    <section aria-labelledby="checkout-summary-title" aria-busy={updating} className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="checkout-summary-title" className="text-xl font-bold">
        {t("checkout.summary.title")}
      </h2>
      <ul aria-label={t("checkout.summary.linesLabel")} className="mt-3 divide-y divide-brand-100">
        {cart.lines.map((line) => (
          <PricedLine
            key={line.id}
            image={line.image}
            imageSize="small"
            name={line.name}
            details={
              <>
                <LineDetails line={line} />
                <p className="text-sm text-muted">{t("checkout.summary.quantity", { count: line.quantity })}</p>
              </>
            }
            amount={format(line.lineTotalCents)}
          />
        ))}
      </ul>
      <OrderSummaryRows
        summary={summary.summary}
        format={format}
        testIdPrefix="summary"
        className={`mt-3 border-t border-brand-100 pt-3 transition-opacity ${updating ? "opacity-60" : ""}`}
      />
      <p className="mt-2 text-sm text-muted">{t("checkout.summary.vatIncluded")}</p>
      {currency.code !== "EUR" && (
        <p className="mt-2 rounded-lg bg-sun-50 px-3 py-2 text-sm" data-testid="summary-eur-note">
          {t("checkout.summary.eurNote", { total: formatMoney(summary.totalCents, locale, "EUR") })}
        </p>
      )}
    </section>
  );
}
