import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { InvoiceSummary } from "#server/invoices/invoice.service.ts";
import type { OrderView } from "#server/orders/order-view.service.ts";

/** The order's invoice: what the customer asked for, the documents issued, and the button that issues it once paid. */
export function OrderInvoicePanel({
  order,
  documents,
  canIssue,
  locale,
}: {
  order: Pick<OrderView, "invoice" | "firstName" | "lastName" | "payment">;
  documents: InvoiceSummary[];
  canIssue: boolean;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const request = order.invoice;
  return (
    <div className="rounded-xl border border-brand-100 bg-white p-4" aria-labelledby="invoice-title">
      <h2 id="invoice-title" className="text-xl font-bold">
        {t("invoices.admin.title")}
      </h2>
      <p className="mt-2">
        {!request
          ? t("invoices.admin.notRequested")
          : request.kind === "private"
            ? t("invoices.admin.requestedPrivate", { name: `${order.firstName} ${order.lastName}`, fiscalCode: request.fiscalCode })
            : t("invoices.admin.requestedCompany", { name: request.companyName, vatNumber: request.vatNumber })}
        {request?.kind === "company" && request.sdiCode && ` SDI ${request.sdiCode}.`}
        {request?.kind === "company" && request.pec && ` PEC ${request.pec}.`}
      </p>
      {documents.length > 0 && (
        <ul className="mt-3 space-y-2">
          {documents.map((document) => (
            <li key={document.id} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <span className="font-semibold">
                {t(document.kind === "invoice" ? "invoices.admin.issued" : "invoices.admin.creditNote", {
                  number: document.number,
                  date: formatDate(document.issuedOn, locale),
                })}
              </span>
              <a className="link" href={localizedHref(`/admin/fatture/${document.id}`, locale)} target="_blank" rel="noopener">
                {t("invoices.admin.view")}
              </a>
              <a className="link" href={localizedHref(`/admin/fatture/${document.id}/xml`, locale)} download>
                {t("invoices.admin.downloadXml")}
              </a>
            </li>
          ))}
        </ul>
      )}
      {request && documents.length === 0 && !order.payment.paidAt && <p className="mt-2 text-muted">{t("invoices.admin.notPaid")}</p>}
      {canIssue && (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="issue-invoice" />
          <button type="submit" className="btn-primary">
            {t("invoices.admin.issue")}
          </button>
        </Form>
      )}
    </div>
  );
}
