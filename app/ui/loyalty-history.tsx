import { useTranslation } from "react-i18next";
import type { Locale } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { ScrollRegion } from "./scroll-region";

type HistoryRow = {
  id: number;
  kind: string;
  points: number;
  at: Date | string;
  orderNumber: number | null;
  receiptNumber: string | null;
  actorKind: string;
  note: string | null;
};

/** A card's history, newest first: when, what (with its order or till receipt), the points; for the staff also who. */
export function LoyaltyHistoryTable({ rows, locale, showActor }: { rows: readonly HistoryRow[]; locale: Locale; showActor: boolean }) {
  const { t } = useTranslation();
  const label = t("loyalty.history.title");
  return (
    <ScrollRegion label={label} className="mt-2">
      <table className="w-full border-collapse text-left text-sm" data-testid="loyalty-history">
        <caption className="sr-only">{label}</caption>
        <thead>
          <tr className="border-b-2 border-brand-200">
            <th scope="col" className="p-2">
              {t("loyalty.history.when")}
            </th>
            <th scope="col" className="p-2">
              {t("loyalty.history.what")}
            </th>
            {showActor && (
              <th scope="col" className="p-2">
                {t("loyalty.history.who")}
              </th>
            )}
            <th scope="col" className="p-2 text-right">
              {t("loyalty.history.points")}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-brand-100">
              <td className="p-2 whitespace-nowrap">{formatShopDateTime(row.at, locale)}</td>
              <td className="p-2">
                {t(`loyalty.kinds.${row.kind}`, { number: row.orderNumber ?? "", receipt: row.receiptNumber ?? "" })}
                {showActor && row.note && <span className="block text-muted">{row.note}</span>}
              </td>
              {showActor && <td className="p-2">{t(`loyalty.actors.${row.actorKind}`)}</td>}
              <td className={`p-2 text-right font-semibold whitespace-nowrap ${row.points < 0 ? "text-coral-700" : ""}`}>
                {row.points > 0 ? `+${row.points}` : row.points === 0 ? "0" : `−${-row.points}`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
