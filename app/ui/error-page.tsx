import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { isEdgeRefusalData } from "#common/edge-refusal.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { EdgeRefusalPage } from "./edge-refusal-page";
import { LoginRequiredPage } from "./login-required-page";
import { NotFoundPage } from "./not-found-page";

/** What an error page says, from the error a loader, action or render threw. */
export type ErrorPageKind = "notFound" | "loginRequired" | "forbidden" | "badRequest" | "unavailable" | "unexpected";

export function errorPageKindOf(error: unknown): ErrorPageKind {
  if (!isRouteErrorResponse(error)) return "unexpected";
  if (error.status === 404) return "notFound";
  if (error.status === 401) return "loginRequired";
  if (error.status === 403) return "forbidden";
  // A client navigation while the database was away (entry.server.tsx, handleDataRequest).
  if (error.status === 503) return "unavailable";
  // A post the page cannot take: a form it did not send, an address with no form (405), too large a body.
  if (error.status >= 400 && error.status < 500) return "badRequest";
  return "unexpected";
}

/** The page title's key for each kind (listed in the root's messages: error pages render only those). */
export const errorPageTitleKey: Record<ErrorPageKind, string> = {
  notFound: "notFound.metaTitle",
  loginRequired: "loginRequired.title",
  forbidden: "errors.forbiddenTitle",
  badRequest: "errors.badRequestTitle",
  unavailable: "serviceUnavailable.title",
  unexpected: "errors.unexpectedTitle",
};

const bodyKey: Record<"forbidden" | "badRequest" | "unavailable" | "unexpected", string> = {
  forbidden: "errors.forbiddenBody",
  badRequest: "errors.badRequestBody",
  unavailable: "serviceUnavailable.body",
  unexpected: "errors.unexpectedBody",
};

/** The page shown for any error, in the page's language, with a way back to the shop. */
export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const locale = localeOfPath(useLocation().pathname);
  const kind = errorPageKindOf(error);
  if (kind === "notFound") return <NotFoundPage />;
  if (kind === "loginRequired") return <LoginRequiredPage />;
  // Refused at the server's edge (server/http/request-edge.ts): its texts came translated with it.
  if (isRouteErrorResponse(error) && isEdgeRefusalData(error.data)) return <EdgeRefusalPage refusal={error.data} />;
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{t(errorPageTitleKey[kind])}</h1>
      <p className="mt-4 text-muted">{t(isRouteErrorResponse(error) && error.status === 405 ? "errors.methodNotAllowedBody" : bodyKey[kind])}</p>
      <Link to={localizedHref("/", locale)} className="btn-primary mt-8">
        {t("errors.home")}
      </Link>
    </div>
  );
}
