import { data, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { logOut } from "#server/accounts/auth-flows.service.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { isCrossSiteRequest } from "#server/http/same-origin.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { Route } from "./+types/logout";

/** POST /logout (the account menu's form): ends this browser's session, then home with a toast. */
export async function action({ request, url, context }: Route.ActionArgs) {
  // Another site cannot log the visitor out (a resource route: React Router does not check it).
  if (isCrossSiteRequest(request)) throw data(null, { status: 403 });
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const headers = await logOut(services, { request, clientIp: context.get(requestContext).clientIp, locale });
  const flash = readCartRequest(request, services).cookieHeaders.flash([{ kind: "info", message: getTranslator(locale)("auth.logout.done") }]);
  headers.append("Set-Cookie", flash);
  throw redirect(localizedHref("/", locale), { headers });
}

/** Logging out is a POST; a link or a typed address just goes home. */
export function loader({ url }: Route.LoaderArgs) {
  throw redirect(localizedHref("/", localeOfPath(url.pathname)));
}
