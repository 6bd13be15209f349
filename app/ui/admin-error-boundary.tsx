import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link } from "react-router";
import { localizedHref } from "#common/locale.ts";
import { ErrorPage } from "#app/ui/error-page.tsx";
import { LoginRequiredPage } from "#app/ui/login-required-page.tsx";

/** What /admin says while the shop has no administrator, translated on the server (app/routes/admin/owner-setup-guide.server.ts). */
export type OwnerSetupGuide = { title: string; steps: string[] };

/** /admin before the shop has an administrator: how the owner's account is made. */
function OwnerSetupGuidePage({ guide }: { guide: OwnerSetupGuide }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16" data-testid="owner-setup-guide">
      <h1 className="text-3xl font-bold">{guide.title}</h1>
      {guide.steps.map((step) => (
        <p key={step} className="mt-4 text-muted">
          {step}
        </p>
      ))}
    </div>
  );
}

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
  if (isRouteErrorResponse(error) && error.status === 401) {
    const ownerSetup = (error.data as { ownerSetup?: OwnerSetupGuide } | null)?.ownerSetup;
    return ownerSetup ? <OwnerSetupGuidePage guide={ownerSetup} /> : <LoginRequiredPage />;
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">{t("admin.notFound")}</h1>
      </div>
    );
  }
  // Anything else (a refusal at the edge, a post to a page that takes none, a bug) as every page shows it: a
  // boundary that rethrows during the server's render answers a bare 500.
  return <ErrorPage error={error} />;
}
