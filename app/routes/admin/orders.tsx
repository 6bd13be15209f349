import { useTranslation } from "react-i18next";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminPagination, filteredPageHref } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import { AdminOrdersTable } from "./orders-table";
import { requireAdmin } from "#server/http/guards.ts";
import { listAdminOrders, parseAdminOrderFilters } from "#server/admin/orders-admin.service.ts";
import { deliveryMethod, paymentMethod } from "#server/db/schema.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { orderStatuses } from "#server/orders/order-status.ts";
import type { Route } from "./+types/orders";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["order", "orderStatus"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const filters = parseAdminOrderFilters(url.searchParams);
  const list = await listAdminOrders(db, filters);
  return {
    meta: getPageMetaTexts(locale, "admin.orders"),
    locale,
    filters,
    list,
    statuses: [...orderStatuses],
    payments: paymentMethod.enumValues,
    deliveries: deliveryMethod.enumValues,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, filters, list, statuses, payments, deliveries } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.orders.title")}</h1>
      <AdminFilterForm>
        <TextField label={t("admin.orders.search")} name="q" type="search" defaultValue={filters.q} />
        <SelectField label={t("admin.orders.status")} name="status" defaultValue={filters.status}>
          <option value="">{t("admin.products.all")}</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {t(`orderStatus.${status}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("admin.orders.payment")} name="payment" defaultValue={filters.payment}>
          <option value="">{t("admin.products.all")}</option>
          {payments.map((method) => (
            <option key={method} value={method}>
              {t(`order.payment.${method}`)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("admin.orders.delivery")} name="delivery" defaultValue={filters.delivery}>
          <option value="">{t("admin.products.all")}</option>
          {deliveries.map((method) => (
            <option key={method} value={method}>
              {t(`order.delivery.${method}`)}
            </option>
          ))}
        </SelectField>
      </AdminFilterForm>
      <p className="mt-4" role="status">
        {t("admin.orders.count", { count: list.total })}
      </p>
      <AdminOrdersTable label={t("admin.orders.title")} rows={list.rows} locale={locale} />
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => filteredPageHref(filters, page)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
