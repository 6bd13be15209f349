import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminTable, FormAlert } from "#app/ui/admin-form.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { listInvoicesOfMonth } from "#server/invoices/invoice.service.ts";
import { latestSdiStatusOf } from "#server/invoices/sdi-view.service.ts";
import { isExportMonth } from "#server/invoices/monthly-export.ts";
import type { Route } from "./+types/invoices";

/** The messages this page renders besides the back office's own (app/lib/route-messages.ts). */
export const handle = { messages: ["invoices.export", "sdi.status", "sdi.detail.open"] } satisfies MessagesHandle;

/** /admin/fatture?mese=2026-11: a month's invoices and credit notes, and its export for the accountant. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const asked = url.searchParams.get("mese");
  const month = asked && isExportMonth(asked) ? asked : italianDayOf(new Date()).slice(0, 7);
  const documents = await listInvoicesOfMonth(db, month);
  const sdiStatus = await latestSdiStatusOf(
    db,
    documents.map((invoice) => invoice.id),
  );
  return {
    meta: getPageMetaTexts(locale, "invoices.export"),
    locale,
    month,
    invalidMonth: asked !== null && !isExportMonth(asked),
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
      {invalidMonth && (
        <div className="mt-4">
          <FormAlert>{t("invoices.export.invalidMonth")}</FormAlert>
        </div>
      )}
      <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="invoices-month" className="field-label">
            {t("invoices.export.month")}
          </label>
          <input id="invoices-month" type="month" name="mese" defaultValue={month} required className="field-input" />
        </div>
        <button type="submit" className="btn-secondary">
          {t("invoices.export.show")}
        </button>
      </Form>
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
