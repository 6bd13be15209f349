import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { StockAlertToken } from "#server/stock-alerts/stock-alerts.inputs.ts";
import { confirmStockAlert } from "#server/stock-alerts/stock-alerts.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/confirm";

export const handle = { messages: ["stockAlerts.confirm", "stockAlerts.errors.linkInvalid", "stockAlerts.toShop"] } satisfies MessagesHandle;

/**
 * A guest's confirmation mail links here; the button (a POST) confirms, so mail scanners that follow
 * links confirm nobody.
 */
export function loader({ url }: Route.LoaderArgs) {
  const token = StockAlertToken.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "stockAlerts.confirm"),
    token: token.success ? token.data : null,
    done: url.searchParams.get("done") === "1",
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await confirmStockAlert(context.get(shopContext).db, form.get("token"));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  // Post/Redirect/Get: a reload shows the confirmation, not a spent link.
  throw redirect(`${url.pathname}?done=1`);
}

export default function StockAlertConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsletterLinkPage
      texts="stockAlerts"
      page="confirm"
      token={loaderData.token}
      done={loaderData.done && !actionData}
      error={actionData?.error ?? null}
    />
  );
}
