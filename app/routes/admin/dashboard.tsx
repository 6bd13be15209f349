import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link } from "react-router";
import { localizedHref, localeOfPath } from "#app/lib/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { LoginRequiredPage } from "#app/ui/login-required-page.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { requireAdmin } from "#server/accounts/guards.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { Route } from "./+types/dashboard";

/** /admin: the back office's door. Only admins pass (401 logged out, 403 for customers). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "adminDashboard"), name: admin.name };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("adminDashboard.title")}>
        <p>{t("adminDashboard.greeting", { name: loaderData.name })}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-10">
        <p>{t("adminDashboard.comingSoon")}</p>
      </div>
    </>
  );
}

/** A customer gets "reserved for the shop's staff" (403); a visitor the login page (401). */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t, i18n } = useTranslation();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{t("adminDashboard.forbiddenTitle")}</h1>
        <p className="mt-4 text-muted">{t("adminDashboard.forbiddenText")}</p>
        <Link to={localizedHref("/", i18n.language === "en" ? "en" : "it")} className="btn-primary mt-8">
          {t("adminDashboard.home")}
        </Link>
      </div>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 401) return <LoginRequiredPage />;
  throw error;
}
