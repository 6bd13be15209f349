import { answerMailLinkPost, loadMailLinkPage } from "#app/lib/mail-link-page.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
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
  return loadMailLinkPage(url, NewsletterToken, "newsletter.confirm");
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export function action({ request, url, context }: Route.ActionArgs) {
  return answerMailLinkPost(request, url, (token) => confirmNewsletterSubscription(context.get(shopContext).db, token));
}

export default function NewsletterConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterLinkPage page="confirm" token={loaderData.token} done={loaderData.done && !actionData} error={actionData?.error ?? null} />;
}
