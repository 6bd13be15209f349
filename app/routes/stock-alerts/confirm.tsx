import { answerMailLinkPost, loadMailLinkPage } from "#app/lib/mail-link-page.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
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
  return loadMailLinkPage(url, StockAlertToken, "stockAlerts.confirm");
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export function action({ request, url, context }: Route.ActionArgs) {
  return answerMailLinkPost(request, url, (token) => confirmStockAlert(context.get(shopContext).db, token));
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
