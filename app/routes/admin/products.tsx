import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { formatMoney } from "#common/format.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminPagination, filteredPageHref } from "#app/ui/admin-form.tsx";
import { TextField, CheckboxField, SelectField } from "#app/ui/form-field.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { getTaxonomyOptions, listAdminProducts, parseAdminProductFilters } from "#server/admin/product-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { listSafetyGaps } from "#server/product-safety/product-safety.service.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/products";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["productSafety.gaps"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const filters = parseAdminProductFilters(url.searchParams);
  const [list, options] = await Promise.all([listAdminProducts(db, filters, locale), getTaxonomyOptions(db, locale)]);
  const gaps = await listSafetyGaps(db, { productIds: list.rows.map((row) => row.id) });
  return {
    safetyGaps: Object.fromEntries(gaps),
    meta: getPageMetaTexts(locale, "admin.products"),
    locale,
    filters,
    list,
    categories: options.categories.map(({ slug, name }) => ({ slug, name })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, filters, list, categories, safetyGaps } = loaderData;
  const href = (path: string) => localizedHref(path, locale);
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{t("admin.products.title")}</h1>
        <div className="flex flex-wrap gap-3">
          <Link to={href("/admin/prodotti/nuovo")} className="btn-primary">
            {t("admin.products.new")}
          </Link>
          <Link to={href("/admin/importa")} className="btn-secondary">
            {t("admin.import.title")}
          </Link>
          <a href={href("/admin/prodotti/esporta.csv")} className="btn-secondary" download>
            {t("admin.products.export")}
          </a>
        </div>
      </div>
      <AdminFilterForm>
        <TextField label={t("admin.products.search")} name="q" type="search" defaultValue={filters.q} />
        <SelectField label={t("admin.products.category")} name="category" defaultValue={filters.category}>
          <option value="">{t("admin.products.all")}</option>
          {categories.map((category) => (
            <option key={category.slug} value={category.slug}>
              {category.name}
            </option>
          ))}
        </SelectField>
        <SelectField label={t("admin.products.published")} name="published" defaultValue={filters.published}>
          <option value="">{t("admin.products.all")}</option>
          <option value="yes">{t("admin.yes")}</option>
          <option value="no">{t("admin.no")}</option>
        </SelectField>
        <SelectField label={t("admin.products.onRequest")} name="onRequest" defaultValue={filters.onRequest}>
          <option value="">{t("admin.products.all")}</option>
          <option value="yes">{t("admin.yes")}</option>
          <option value="no">{t("admin.no")}</option>
        </SelectField>
        <div className="flex items-end">
          <CheckboxField label={t("admin.products.lowStock")} name="lowStock" defaultChecked={filters.lowStock} />
        </div>
      </AdminFilterForm>
      <p className="mt-4" role="status">
        {t("admin.products.count", { count: list.total })}
      </p>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full min-w-[40rem] border-collapse text-left">
          <caption className="sr-only">{t("admin.products.title")}</caption>
          <thead>
            <tr className="border-b-2 border-brand-200">
              <th scope="col" className="p-2">
                {t("admin.products.name")}
              </th>
              <th scope="col" className="p-2">
                SKU
              </th>
              <th scope="col" className="p-2">
                {t("admin.products.category")}
              </th>
              <th scope="col" className="p-2 text-right">
                {t("admin.products.price")}
              </th>
              <th scope="col" className="p-2 text-right">
                {t("admin.products.stock")}
              </th>
              <th scope="col" className="p-2">
                {t("admin.products.state")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((row) => (
              <tr key={row.id} className="border-b border-brand-100">
                <td className="p-2">
                  <Link to={href(`/admin/prodotti/${row.id}`)} className="font-semibold underline">
                    {row.name}
                  </Link>
                </td>
                <td className="p-2 font-mono text-sm">{row.sku}</td>
                <td className="p-2">{row.category}</td>
                <td className="p-2 text-right">
                  {formatMoney(row.priceCents, locale)}
                  {row.discountPercent > 0 && <span className="ml-1 text-sm text-coral-700">−{row.discountPercent}%</span>}
                </td>
                <td className="p-2 text-right">
                  {row.stock}
                  {row.lowStockCount > 0 && (
                    <span className="ml-1 text-sm font-semibold text-coral-700">
                      ({t("admin.products.lowStockBadge", { count: row.lowStockCount })})
                    </span>
                  )}
                </td>
                <td className="p-2 text-sm">
                  {row.isPublished ? t("admin.products.isPublished") : t("admin.products.hidden")}
                  {row.isOnRequest && ` · ${t("admin.products.onRequest")}`}
                  {safetyGaps[row.id] && (
                    <Link
                      to={href(`/admin/prodotti/${row.id}/sicurezza`)}
                      className="block font-semibold text-coral-700 underline"
                      data-testid="safety-gaps"
                    >
                      {t("productSafety.gaps.label")}: {safetyGaps[row.id]!.map((gap) => t(`productSafety.gaps.${gap}`)).join(", ")}
                    </Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AdminPagination page={list.page} pageCount={list.pageCount} hrefFor={(page) => filteredPageHref(filters, page)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
