import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AdminTable } from "#app/ui/admin-form.tsx";
import type { AdminOrderRow } from "#server/admin/orders-admin.service.ts";

/** Orders as the back office lists them (the orders page, a customer's, a gift list's), each linking to its detail. */
export function AdminOrdersTable({
  label,
  rows,
  locale,
  className = "mt-2",
}: {
  label: string;
  rows: AdminOrderRow[];
  locale: Locale;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <AdminTable
      label={label}
      className={className}
      minWidth="min-w-[44rem]"
      columns={[
        { label: t("admin.orders.number") },
        { label: t("admin.orders.date") },
        { label: t("admin.orders.customer") },
        { label: t("admin.orders.status") },
        { label: t("admin.orders.payment") },
        { label: t("admin.orders.delivery") },
        { label: t("admin.orders.total"), isNumeric: true },
      ]}
    >
      {rows.map((row) => (
        <tr key={row.id} className="border-b border-brand-100 align-top">
          <td className="p-2">
            <Link to={localizedHref(`/admin/ordini/${row.id}`, locale)} className="font-semibold text-brand-800 underline">
              {t("admin.orders.numberLink", { number: row.number })}
            </Link>
          </td>
          <td className="p-2 whitespace-nowrap">{formatDate(row.createdAt, locale)}</td>
          <td className="p-2">
            {row.customer}
            <br />
            <span className="text-muted break-all">{row.email}</span>
          </td>
          <td className="p-2">{t(`orderStatus.${row.status}`)}</td>
          <td className="p-2">
            {t(`order.payment.${row.paymentMethod}`)}
            <br />
            <span className="text-muted">{row.isPaid ? t("admin.orders.paid") : t("admin.orders.unpaid")}</span>
            {row.hasPaymentMismatch && (
              <>
                <br />
                <strong className="text-coral-700">{t("admin.orders.paymentMismatch")}</strong>
              </>
            )}
          </td>
          <td className="p-2">{t(`order.delivery.${row.deliveryMethod}`)}</td>
          <td className="p-2 text-right whitespace-nowrap">{formatMoney(row.totalCents, locale)}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
