import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";

type Document = { id: string; kind: "invoice" | "credit_note"; number: string; issuedOn: string };

/** The customer's invoice on their order page: waiting for payment, or its printable copy (the link's token goes along). */
export function OrderInvoices({ orderId, documents, locale }: { orderId: string; documents: Document[]; locale: Locale }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const token = new URLSearchParams(search).get("t");
  const query = token ? `?${new URLSearchParams({ t: token })}` : "";
  return (
    <section aria-labelledby="order-invoice-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="order-invoice-title" className="text-xl font-bold">
        {t("invoices.customer.title")}
      </h2>
      {documents.length === 0 ? (
        <p className="mt-2">{t("invoices.customer.pending")}</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {documents.map((document) => (
            <li key={document.id} className="flex flex-wrap items-center gap-x-4 gap-y-1">
              <span>
                {t(document.kind === "invoice" ? "invoices.customer.issued" : "invoices.customer.creditNote", {
                  number: document.number,
                  date: formatDate(document.issuedOn, locale),
                })}
              </span>
              <a className="link" href={`${localizedHref(`/ordine/${orderId}/fattura/${document.id}`, locale)}${query}`}>
                {t("invoices.customer.view")}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
