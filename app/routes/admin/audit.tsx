import { useTranslation } from "react-i18next";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminPagination, AdminTable, filteredPageHref } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { listAudit } from "#server/admin/audit.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/audit";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const entity = (url.searchParams.get("entity") ?? "").slice(0, 40);
  const actor = (url.searchParams.get("actor") ?? "").trim().slice(0, 200);
  const page = Number(url.searchParams.get("page")) || 1;
  const audit = await listAudit(db, { entity: entity || null, actor: actor || null, page: Number.isSafeInteger(page) ? page : 1 });
  return { meta: getPageMetaTexts(locale, "admin.audit"), locale, entity, actor, audit };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { audit, entity, actor, locale } = loaderData;
  const dateTime = (at: Date | string) => formatShopDateTime(at, locale, { dateStyle: "short", timeStyle: "medium" });
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.audit.metaTitle")}</h1>
      <AdminFilterForm columns="sm:grid-cols-3">
        <SelectField label={t("admin.audit.entity")} name="entity" defaultValue={entity}>
          <option value="">{t("admin.products.all")}</option>
          {audit.entities.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <TextField label={t("admin.audit.actor")} name="actor" defaultValue={actor} hint={t("admin.audit.actorHint")} />
      </AdminFilterForm>
      <p className="mt-4" role="status">
        {t("admin.audit.count", { count: audit.total })}
      </p>
      <AdminTable
        label={t("admin.audit.metaTitle")}
        className="mt-2"
        minWidth="min-w-[40rem]"
        columns={[
          { label: t("admin.audit.when") },
          { label: t("admin.audit.who") },
          { label: t("admin.audit.what") },
          { label: t("admin.audit.entity") },
          { label: t("admin.audit.details") },
        ]}
      >
        {audit.rows.map((row) => (
          <tr key={row.id} className="border-b border-brand-100 align-top">
            <td className="p-2 whitespace-nowrap">{dateTime(row.createdAt)}</td>
            <td className="p-2">{row.actorName ?? "—"}</td>
            <td className="p-2 font-mono">{row.action}</td>
            <td className="p-2">
              {row.entity}
              {row.entityId && ` #${row.entityId}`}
            </td>
            <td className="max-w-md p-2 font-mono break-all">{JSON.stringify(row.details)}</td>
          </tr>
        ))}
      </AdminTable>
      <AdminPagination page={audit.page} pageCount={audit.pageCount} hrefFor={(page) => filteredPageHref({ entity, actor }, page)} />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
