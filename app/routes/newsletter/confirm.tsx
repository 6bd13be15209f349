import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { NewsletterToken } from "#server/newsletter/newsletter.inputs.ts";
import { confirmNewsletterSubscription } from "#server/newsletter/newsletter.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/confirm";

export const handle = { messages: ["newsletter.confirm", "newsletter.errors.linkInvalid", "newsletter.toShop"] } satisfies MessagesHandle;

/**
 * The opt-in mail's link opens this page; its button (a POST) confirms, so mail scanners that
 * follow links confirm nobody.
 */
export function loader({ url }: Route.LoaderArgs) {
  const token = NewsletterToken.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "newsletter.confirm"),
    token: token.success ? token.data : null,
    done: url.searchParams.get("done") === "1",
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await confirmNewsletterSubscription(context.get(shopContext).db, form.get("token"));
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  // Post/Redirect/Get: a reload shows the confirmation, not a spent link.
  throw redirect(`${url.pathname}?done=1`);
}

export default function NewsletterConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterLinkPage page="confirm" token={loaderData.token} done={loaderData.done && !actionData} error={actionData?.error ?? null} />;
}
