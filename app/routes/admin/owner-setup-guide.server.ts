import { data, type RouterContextProvider } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { hasOwner } from "#server/accounts/owner-setup.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { OwnerSetupGuide } from "#app/ui/admin-error-boundary.tsx";

/**
 * A visitor at /admin while the shop has no administrator gets a 401 that explains the setup link instead of
 * the login page. Its texts are translated here and travel in the error's data: a failed layout sends no page
 * messages, and the root's go with every page (docs/decisions/0086-owner-setup-link.md).
 */
export async function refuseWithOwnerSetupGuide(context: Readonly<RouterContextProvider>, request: Request, url: URL) {
  if ((await getSessionUser(context, request)) || (await hasOwner(context.get(shopContext).db))) return;
  const t = getTranslator(localeOfPath(url.pathname));
  const ownerSetup: OwnerSetupGuide = { title: t("ownerSetup.guide.title"), steps: [t("ownerSetup.guide.link"), t("ownerSetup.guide.newLink")] };
  throw data({ ownerSetup }, { status: 401 });
}
