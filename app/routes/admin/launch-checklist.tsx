import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { requireAdmin } from "#server/http/guards.ts";
import { getLaunchChecklist } from "#server/admin/launch-checklist.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/launch-checklist";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["invoices.settings", "productSafety.launch"] } satisfies MessagesHandle;

/** The fiscal data's texts live with the invoices' messages, as on the settings page. */
const fieldLabelKey = (section: string, field: string) =>
  section === "fiscal" ? `invoices.settings.fields.${field}` : `admin.settings.fields.${field}`;
const sectionTitleKey = (section: string) => (section === "fiscal" ? "invoices.settings.title" : `admin.settings.sections.${section}`);

/** /admin/messa-online: every setting still at its sample value, with where to fix it. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env, publicUrl } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  return { meta: getPageMetaTexts(locale, "admin.launch"), locale, checks: await getLaunchChecklist(db, { env, publicUrl }) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminLaunchChecklist({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, checks } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.launch.title")}</h1>
      {checks.length === 0 ? (
        <p className="mt-4 rounded-xl border border-brand-100 bg-white p-4">{t("admin.launch.allDone")}</p>
      ) : (
        <>
          <p className="mt-3 max-w-prose">{t("admin.launch.intro")}</p>
          <ul className="mt-6 space-y-3">
            {checks.map((check) => (
              <li
                key={
                  check.where === "env"
                    ? `${check.code}-${check.variable}`
                    : check.where === "settings"
                      ? `${check.section}-${check.field}`
                      : check.code
                }
                className="rounded-xl border border-brand-100 bg-white p-4 break-words"
              >
                {check.where === "safety" ? (
                  <>
                    <p className="font-semibold">{t(`productSafety.launch.${check.code}`, { count: check.count })}</p>
                    <p className="mt-1 text-sm">
                      <Link to={localizedHref(check.code === "productSafety" ? "/admin/prodotti" : "/admin/sicurezza", locale)} className="link">
                        {t("productSafety.launch.where")}
                      </Link>
                    </p>
                  </>
                ) : check.where === "env" ? (
                  <>
                    <p className="font-semibold">{t(`admin.launch.items.${check.code}`, { value: check.value })}</p>
                    <p className="mt-1 text-sm text-muted">{t("admin.launch.whereEnv", { variable: check.variable })}</p>
                  </>
                ) : (
                  <>
                    <p className="font-semibold">
                      {t("admin.launch.items.sampleValue", { field: t(fieldLabelKey(check.section, check.field)), value: check.value })}
                    </p>
                    <p className="mt-1 text-sm">
                      <Link to={`${localizedHref("/admin/impostazioni", locale)}#${check.section}`} className="link">
                        {t("admin.launch.whereSettings", {
                          section: t(sectionTitleKey(check.section)),
                          field: t(fieldLabelKey(check.section, check.field)),
                        })}
                      </Link>
                    </p>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
