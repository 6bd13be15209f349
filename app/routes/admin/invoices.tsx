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
import { listInvoicesOfMonth } from "#server/invoices/invoice.service.ts";
import { latestSdiStatusOf } from "#server/invoices/sdi-view.service.ts";
import { askedMonth } from "#server/invoices/monthly-export.ts";
import type { Route } from "./+types/invoices";

/** The messages this page renders besides the back office's own (app/lib/route-messages.ts). */
export const handle = { messages: ["invoices.export", "sdi.status", "sdi.detail.open"] } satisfies MessagesHandle;

/** /admin/fatture?mese=2026-11: a month's invoices and credit notes, and its export for the accountant. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const { month, invalidMonth } = askedMonth(url, new Date());
  const documents = await listInvoicesOfMonth(db, month);
  const sdiStatus = await latestSdiStatusOf(
    db,
    documents.map((invoice) => invoice.id),
  );
  return {
    meta: getPageMetaTexts(locale, "invoices.export"),
    locale,
    month,
    invalidMonth,
    documents: documents.map((invoice) => ({
      id: invoice.id,
      kind: invoice.kind,
      number: invoice.number,
      issuedOn: invoice.issuedOn,
      orderId: invoice.orderId,
      orderNumber: invoice.document.orderNumber,
      buyer:
        invoice.document.buyer.kind === "company"
          ? invoice.document.buyer.name
          : `${invoice.document.buyer.firstName} ${invoice.document.buyer.lastName}`,
      totalCents: invoice.totalCents,
      sdiStatus: sdiStatus.get(invoice.id) ?? "none",
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminInvoices({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, month, invalidMonth, documents } = loaderData;
  const exportHref = localizedHref(`/admin/fatture/esporta/${month}`, locale);
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("invoices.export.title")}</h1>
      <p className="mt-2 max-w-3xl">{t("invoices.export.lead")}</p>
      <MonthPicker
        month={month}
        label={t("invoices.export.month")}
        submitLabel={t("invoices.export.show")}
        invalidMessage={invalidMonth ? t("invoices.export.invalidMonth") : null}
      />
      {documents.length === 0 ? (
        <p className="mt-6">{t("invoices.export.none")}</p>
      ) : (
        <>
          <div className="mt-6 flex flex-wrap gap-3">
            <a href={exportHref} className="btn-primary" download>
              {t("invoices.export.download")}
            </a>
            <a href={`${exportHref}?formato=csv`} className="btn-secondary" download>
              {t("invoices.export.downloadCsv")}
            </a>
          </div>
          <AdminTable
            label={t("invoices.export.title")}
            className="mt-4"
            minWidth="min-w-[44rem]"
            columns={[
              { label: t("invoices.export.columns.number") },
              { label: t("invoices.export.columns.date") },
              { label: t("invoices.export.columns.kind") },
              { label: t("invoices.export.columns.order") },
              { label: t("invoices.export.columns.buyer") },
              { label: t("invoices.export.columns.total"), isNumeric: true },
              { label: t("sdi.detail.open") },
            ]}
          >
            {documents.map((document) => (
              <tr key={document.id} className="border-b border-brand-100">
                <td className="p-2">
                  <a className="link" href={localizedHref(`/admin/fatture/${document.id}`, locale)}>
                    {document.number}
                  </a>
                </td>
                <td className="p-2">{formatDate(document.issuedOn, locale)}</td>
                <td className="p-2">{t(`invoices.export.kinds.${document.kind}`)}</td>
                <td className="p-2">
                  <a className="link" href={localizedHref(`/admin/ordini/${document.orderId}`, locale)}>
                    {document.orderNumber}
                  </a>
                </td>
                <td className="p-2">{document.buyer}</td>
                <td className="p-2 text-right">
                  {formatMoney(document.kind === "credit_note" ? -document.totalCents : document.totalCents, locale)}
                </td>
                <td className="p-2">
                  <a className="link" href={localizedHref(`/admin/sdi/${document.id}`, locale)}>
                    {t(`sdi.status.${document.sdiStatus}`)}
                  </a>
                </td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
