import { useTranslation } from "react-i18next";
import { formatDate, formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, MonthPicker } from "#app/ui/admin-form.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { askedMonth } from "#server/invoices/monthly-export.ts";
import { listTakingsOfMonth } from "#server/invoices/takings.service.ts";
import type { Route } from "./+types/takings";

export const handle = { messages: ["takings"] } satisfies MessagesHandle;

/** /admin/corrispettivi?mese=2026-11: the register of daily takings without an invoice, per day and VAT rate. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const { month, invalidMonth } = askedMonth(url, new Date());
  const rows = await listTakingsOfMonth(db, month);
  return {
    meta: getPageMetaTexts(locale, "takings"),
    locale,
    month,
    invalidMonth,
    rows,
    totals: rows.reduce(
      (sum, row) => ({ grossCents: sum.grossCents + row.grossCents, netCents: sum.netCents + row.netCents, vatCents: sum.vatCents + row.vatCents }),
      { grossCents: 0, netCents: 0, vatCents: 0 },
    ),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminTakings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, month, invalidMonth, rows, totals } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("takings.title")}</h1>
      <p className="mt-2 max-w-3xl">{t("takings.lead")}</p>
      <MonthPicker
        month={month}
        label={t("takings.month")}
        submitLabel={t("takings.show")}
        invalidMessage={invalidMonth ? t("takings.invalidMonth") : null}
      />
      {rows.length === 0 ? (
        <p className="mt-6">{t("takings.none")}</p>
      ) : (
        <>
          <div className="mt-6">
            <a href={localizedHref(`/admin/corrispettivi/esporta/${month}`, locale)} className="btn-primary" download>
              {t("takings.downloadCsv")}
            </a>
          </div>
          <AdminTable
            label={t("takings.title")}
            className="mt-4"
            minWidth="min-w-[40rem]"
            columns={[
              { label: t("takings.columns.day") },
              { label: t("takings.columns.rate"), isNumeric: true },
              { label: t("takings.columns.orders"), isNumeric: true },
              { label: t("takings.columns.gross"), isNumeric: true },
              { label: t("takings.columns.net"), isNumeric: true },
              { label: t("takings.columns.vat"), isNumeric: true },
            ]}
          >
            {rows.map((row) => (
              <tr key={`${row.day}-${row.vatRatePercent}`} className="border-b border-brand-100">
                <td className="p-2">{formatDate(row.day, locale)}</td>
                <td className="p-2 text-right">{row.vatRatePercent} %</td>
                <td className="p-2 text-right">{row.orderCount}</td>
                <td className="p-2 text-right">{formatMoney(row.grossCents, locale)}</td>
                <td className="p-2 text-right">{formatMoney(row.netCents, locale)}</td>
                <td className="p-2 text-right">{formatMoney(row.vatCents, locale)}</td>
              </tr>
            ))}
            <tr className="font-semibold">
              <th scope="row" className="p-2 text-left" colSpan={3}>
                {t("takings.total")}
              </th>
              <td className="p-2 text-right">{formatMoney(totals.grossCents, locale)}</td>
              <td className="p-2 text-right">{formatMoney(totals.netCents, locale)}</td>
              <td className="p-2 text-right">{formatMoney(totals.vatCents, locale)}</td>
            </tr>
          </AdminTable>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
