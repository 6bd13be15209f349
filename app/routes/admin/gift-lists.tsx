import { useTranslation } from "react-i18next";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminPagination, filteredPageHref } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import { AdminGiftListsTable } from "./gift-lists-table";
import { requireAdmin } from "#server/http/guards.ts";
import { listAdminGiftLists, parseAdminGiftListFilters } from "#server/admin/gift-lists-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/gift-lists";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["giftLists"] } satisfies MessagesHandle;

/** /admin/liste-regalo: every gift list, found by code, title or names, or the owner's e-mail. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const filters = parseAdminGiftListFilters(url.searchParams);
  return {
    meta: getPageMetaTexts(locale, "admin.giftLists"),
    locale,
    filters,
    list: await listAdminGiftLists(db, filters),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminGiftLists({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, filters, list } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.giftLists.title")}</h1>
      <AdminFilterForm>
        <TextField label={t("admin.giftLists.search")} name="q" type="search" defaultValue={filters.q} />
        <SelectField label={t("admin.giftLists.state")} name="status" defaultValue={filters.status}>
          <option value="">{t("admin.products.all")}</option>
          {(["open", "closed"] as const).map((status) => (
            <option key={status} value={status}>
              {t(`giftLists.status.${status}`)}
            </option>
          ))}
        </SelectField>
      </AdminFilterForm>
      <p className="mt-4" role="status">
        {t("admin.giftLists.count", { count: list.total })}
      </p>
      <AdminGiftListsTable label={t("admin.giftLists.title")} rows={list.rows} locale={locale} />
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => filteredPageHref(filters, page)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
