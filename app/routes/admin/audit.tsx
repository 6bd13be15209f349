import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { localeOfPath } from "#app/lib/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminPagination, SelectField } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { requireAdmin } from "#server/accounts/guards.ts";
import { listAudit } from "#server/admin/audit.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/audit";

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
  const dateTime = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "it-IT", { dateStyle: "short", timeStyle: "medium", timeZone: "Europe/Rome" });
  const pageHref = (page: number) => `?${new URLSearchParams({ ...(entity && { entity }), ...(actor && { actor }), page: String(page) })}`;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.audit.metaTitle")}</h1>
      <Form method="get" className="mt-6 grid gap-4 rounded-xl border border-brand-100 bg-white p-4 sm:grid-cols-3">
        <SelectField label={t("admin.audit.entity")} name="entity" defaultValue={entity}>
          <option value="">{t("admin.products.all")}</option>
          {audit.entities.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </SelectField>
        <TextField label={t("admin.audit.actor")} name="actor" defaultValue={actor} hint={t("admin.audit.actorHint")} />
        <div className="flex items-end">
          <button type="submit" className="btn-primary w-full">
            {t("admin.products.filter")}
          </button>
        </div>
      </Form>
      <p className="mt-4" role="status">
        {t("admin.audit.count", { count: audit.total })}
      </p>
      {/* Focusable, so a keyboard can scroll the table sideways on a narrow screen. */}
      <div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label={t("admin.audit.metaTitle")}>
        <table className="w-full min-w-[40rem] border-collapse text-left text-sm">
          <caption className="sr-only">{t("admin.audit.metaTitle")}</caption>
          <thead>
            <tr className="border-b-2 border-brand-200">
              <th scope="col" className="p-2">{t("admin.audit.when")}</th>
              <th scope="col" className="p-2">{t("admin.audit.who")}</th>
              <th scope="col" className="p-2">{t("admin.audit.what")}</th>
              <th scope="col" className="p-2">{t("admin.audit.entity")}</th>
              <th scope="col" className="p-2">{t("admin.audit.details")}</th>
            </tr>
          </thead>
          <tbody>
            {audit.rows.map((row) => (
              <tr key={row.id} className="border-b border-brand-100 align-top">
                <td className="p-2 whitespace-nowrap">{dateTime.format(new Date(row.createdAt))}</td>
                <td className="p-2">{row.actorName ?? "—"}</td>
                <td className="p-2 font-mono">{row.action}</td>
                <td className="p-2">
                  {row.entity}
                  {row.entityId && ` #${row.entityId}`}
                </td>
                <td className="max-w-md p-2 font-mono break-all">{JSON.stringify(row.details)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AdminPagination
        page={audit.page}
        pageCount={audit.pageCount}
        hrefFor={pageHref}
      />
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
