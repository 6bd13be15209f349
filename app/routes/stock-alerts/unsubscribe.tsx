import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { StockAlertToken } from "#server/stock-alerts/stock-alerts.inputs.ts";
import { unsubscribeFromStockAlert } from "#server/stock-alerts/stock-alerts.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/unsubscribe";

export const handle = { messages: ["stockAlerts.unsubscribe", "stockAlerts.errors.linkInvalid", "stockAlerts.toShop"] } satisfies MessagesHandle;

/** Every alert mail links here: one button, no login. Opening the link alone changes nothing (mail scanners follow links). */
export function loader({ url }: Route.LoaderArgs) {
  const token = StockAlertToken.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "stockAlerts.unsubscribe"),
    token: token.success ? token.data : null,
    done: url.searchParams.get("done") === "1",
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/**
 * The page's button posts the token in the form; a mail client's one-click unsubscribe (RFC 8058) posts
 * "List-Unsubscribe=One-Click" to the very link of the List-Unsubscribe header, token in the query.
 */
export async function action({ request, url, context }: Route.ActionArgs) {
  // A mail client's post may come without a form body: then the link's own token is enough.
  const form = await request.formData().catch(() => new FormData());
  const token = form.get("token") ?? url.searchParams.get("token");
  const result = await unsubscribeFromStockAlert(context.get(shopContext).db, token);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  throw redirect(`${url.pathname}?done=1`);
}

export default function StockAlertUnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsletterLinkPage
      texts="stockAlerts"
      page="unsubscribe"
      token={loaderData.token}
      done={loaderData.done && !actionData}
      error={actionData?.error ?? null}
    />
  );
}
