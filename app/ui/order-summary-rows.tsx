import { useTranslation } from "react-i18next";
import { summaryLineText, summaryPaymentTexts, type OrderSummary } from "#common/order-summary.ts";

/**
 * The summary's lines and total as the server computed them (common/order-summary.ts), the same on the cart,
 * the checkout, the order page and the back office: each row is `<testIdPrefix>-<kind>`, the total `<testIdPrefix>-total`.
 */
export function OrderSummaryRows({
  summary,
  format,
  testIdPrefix,
  className = "",
}: {
  summary: OrderSummary;
  format: (cents: number) => string;
  testIdPrefix: "cart" | "summary" | "order";
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <dl className={`space-y-2 ${className}`}>
      {summary.lines.map((line) => {
        const { term, value } = summaryLineText(t, line, format);
        return <AmountRow key={line.kind} term={term} value={value} testId={`${testIdPrefix}-${line.kind}`} isSaving={line.cents < 0} />;
      })}
      <AmountRow term={t("orderSummary.total")} value={format(summary.totalCents)} testId={`${testIdPrefix}-total`} isTotal />
      {summaryPaymentTexts(t, summary, format).map((row) => (
        <AmountRow key={row.kind} term={row.term} value={row.value} testId={`${testIdPrefix}-${row.kind}`} />
      ))}
    </dl>
  );
}

/** A row of totals (`<dl>`): what, and how much; the total stands out, a saving shows in the offers' colour. */
export function AmountRow({
  term,
  value,
  testId,
  isTotal = false,
  isSaving = false,
}: {
  term: string;
  value: string;
  testId?: string;
  isTotal?: boolean;
  isSaving?: boolean;
}) {
  return isTotal ? (
    <div className="flex justify-between gap-4 border-t border-brand-100 pt-3 text-lg font-bold">
      <dt>{term}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  ) : (
    <div className={`flex justify-between gap-4 ${isSaving ? "text-coral-700" : ""}`}>
      <dt>{term}</dt>
      <dd className="font-semibold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
