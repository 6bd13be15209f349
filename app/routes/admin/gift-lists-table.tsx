import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AdminTable } from "#app/ui/admin-form.tsx";
import type { AdminGiftListRow } from "#server/admin/gift-lists-admin.service.ts";

/** Gift lists as the back office lists them (the search page, a customer's page), each linking to its detail. */
export function AdminGiftListsTable({
  label,
  rows,
  locale,
  className = "mt-2",
}: {
  label: string;
  rows: AdminGiftListRow[];
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
        { label: t("admin.giftLists.list") },
        { label: t("admin.giftLists.code") },
        { label: t("admin.giftLists.owner") },
        { label: t("admin.giftLists.eventDate") },
        { label: t("admin.giftLists.state") },
        { label: t("admin.giftLists.bought"), isNumeric: true },
      ]}
    >
      {rows.map((row) => (
        <tr key={row.id} className="border-b border-brand-100 align-top">
          <td className="p-2">
            <Link to={localizedHref(`/admin/liste-regalo/${row.id}`, locale)} className="font-semibold text-brand-800 underline">
              {row.title}
            </Link>
            <br />
            <span className="text-muted">{t(`giftLists.types.${row.type}`)}</span>
          </td>
          <td className="p-2 font-mono">{row.code}</td>
          <td className="p-2">
            {row.ownerName}
            <br />
            <span className="text-muted break-all">{row.ownerEmail}</span>
          </td>
          <td className="p-2 whitespace-nowrap">{formatDate(row.eventDate, locale)}</td>
          <td className="p-2">
            {t(`giftLists.status.${row.status}`)}
            <br />
            <span className="text-muted">{t(`giftLists.visibility.${row.visibility}`)}</span>
          </td>
          <td className="p-2 text-right whitespace-nowrap">{t("admin.giftLists.boughtOf", { bought: row.bought, wished: row.wished })}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
