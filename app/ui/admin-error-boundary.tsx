import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link } from "react-router";
import { isEdgeRefusalData } from "#app/lib/edge-refusal.ts";
import { localizedHref } from "#app/lib/locale.ts";
import { EdgeRefusalPage } from "#app/ui/edge-refusal-page.tsx";
import { LoginRequiredPage } from "#app/ui/login-required-page.tsx";

/** Every /admin page: a customer gets "reserved for the shop's staff" (403); a visitor the login page (401). */
export function AdminErrorBoundary({ error }: { error: unknown }) {
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
  if (isRouteErrorResponse(error) && isEdgeRefusalData(error.data)) return <EdgeRefusalPage refusal={error.data} />;
  // A post to a back-office page that takes none (React Router's 405): a refusal, not a failure of the page.
  if (isRouteErrorResponse(error) && error.status === 405) {
    return (
      <EdgeRefusalPage
        refusal={{ edgeRefusal: "method-not-allowed", title: t("errors.badRequestTitle"), message: t("errors.methodNotAllowedBody") }}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{t("admin.notFound")}</h1>
      </div>
    );
  }
  throw error;
}
