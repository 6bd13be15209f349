import { useTranslation } from "react-i18next";
import { formatMoney } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { summaryLineText, summaryPaymentTexts } from "#common/order-summary.ts";
import type { OrderView } from "#server/orders/order.service.ts";
import { shownSize } from "#common/sizes.ts";
import { useColourName } from "#app/lib/colour-name.ts";

/** Lines with personalisation and totals (the packing slip prints its own list, without prices). */
export function OrderLinesTable({ order, locale }: { order: OrderView; locale: Locale }) {
  const { t } = useTranslation();
  const money = (cents: number) => formatMoney(cents, locale);
  const colourName = useColourName();
  const variantText = (colour: string | null, size: string | null) =>
    [colour ? colourName(colour) : null, shownSize(size)].filter(Boolean).join(" · ");
  return (
    <div className="mt-6 overflow-x-auto" role="region" aria-label={t("order.linesTitle")} tabIndex={0}>
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption className="text-left text-xl font-bold">{t("order.linesTitle")}</caption>
        <thead>
          <tr className="border-b-2 border-brand-200">
            <th scope="col" className="p-2">
              SKU
            </th>
            <th scope="col" className="p-2">
              {t("order.product")}
            </th>
            <th scope="col" className="p-2 text-right">
              {t("order.quantity")}
            </th>
            <th scope="col" className="p-2 text-right">
              {t("order.unitPrice")}
            </th>
            <th scope="col" className="p-2 text-right">
              {t("order.lineTotal")}
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.id} className="border-b border-brand-100 align-top">
              <td className="p-2 font-mono">{line.sku}</td>
              <td className="p-2">
                <strong>{line.name}</strong>
                {variantText(line.colour, line.size) && <span> · {variantText(line.colour, line.size)}</span>}
                {line.isPreorder && <span> · {t("admin.order.preorder")}</span>}
                {line.personalisation.length > 0 && (
                  <ul className="mt-1">
                    {line.personalisation.map((entry) => (
                      <li key={entry.label}>
                        {entry.label}: <strong>«{entry.text}»</strong>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="p-2 text-right">{line.quantity}</td>
              <td className="p-2 text-right whitespace-nowrap">{money(line.unitCents + line.personalisationUnitCents)}</td>
              <td className="p-2 text-right whitespace-nowrap">{money(line.lineTotalCents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {order.summary.lines.map((line) => {
            const { term, value } = summaryLineText(t, line, money);
            return (
              <tr key={line.kind}>
                <th scope="row" colSpan={4} className="p-2 text-right font-normal">
                  {term}
                </th>
                <td className="p-2 text-right whitespace-nowrap">{value}</td>
              </tr>
            );
          })}
          <tr>
            <th scope="row" colSpan={4} className="p-2 text-right">
              {t("orderSummary.total")}
            </th>
            <td className="p-2 text-right font-bold whitespace-nowrap">{money(order.summary.totalCents)}</td>
          </tr>
          {summaryPaymentTexts(t, order.summary, money).map((row) => (
            <tr key={row.kind}>
              <th scope="row" colSpan={4} className="p-2 text-right font-normal">
                {row.term}
              </th>
              <td className="p-2 text-right whitespace-nowrap" data-testid={`order-${row.kind}`}>
                {row.value}
              </td>
            </tr>
          ))}
        </tfoot>
      </table>
    </div>
  );
}
