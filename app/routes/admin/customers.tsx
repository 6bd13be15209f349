import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminPagination, AdminTable, filteredPageHref } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { listAdminCustomers, parseAdminCustomerFilters } from "#server/admin/customers-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/customers";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

/** /admin/clienti: the shop's accounts, found by name or e-mail. Read only. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const filters = parseAdminCustomerFilters(url.searchParams);
  return {
    meta: getPageMetaTexts(locale, "admin.customers"),
    locale,
    filters,
    list: await listAdminCustomers(db, filters),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, filters, list } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.customers.title")}</h1>
      <AdminFilterForm columns="sm:grid-cols-2">
        <TextField label={t("admin.customers.search")} name="q" type="search" defaultValue={filters.q} />
      </AdminFilterForm>
      <p className="mt-4" role="status">
        {t("admin.customers.count", { count: list.total })}
      </p>
      <AdminTable
        label={t("admin.customers.title")}
        className="mt-2"
        minWidth="min-w-[40rem]"
        columns={[
          { label: t("admin.customers.name") },
          { label: t("admin.customers.since") },
          { label: t("admin.customers.orders"), isNumeric: true },
          { label: t("admin.customers.giftLists"), isNumeric: true },
        ]}
      >
        {list.rows.map((row) => (
          <tr key={row.id} className="border-b border-brand-100 align-top">
            <td className="p-2">
              <Link to={localizedHref(`/admin/clienti/${row.id}`, locale)} className="font-semibold text-brand-800 underline">
                {row.name}
              </Link>
              {row.isAdmin && <span className="text-muted"> · {t("admin.customers.admin")}</span>}
              <br />
              <span className="text-muted break-all">{row.email}</span>
            </td>
            <td className="p-2 whitespace-nowrap">{formatDate(row.createdAt, locale)}</td>
            <td className="p-2 text-right">{row.orderCount}</td>
            <td className="p-2 text-right">{row.giftListCount}</td>
          </tr>
        ))}
      </AdminTable>
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => filteredPageHref(filters, page)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
