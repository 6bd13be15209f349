import { answerMailLinkPost, loadMailLinkPage } from "#app/lib/mail-link-page.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { shopContext } from "#server/http/context.ts";
import { NewsletterToken } from "#server/newsletter/newsletter.inputs.ts";
import { unsubscribeFromNewsletter } from "#server/newsletter/newsletter.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/unsubscribe";

export const handle = { messages: ["newsletter.unsubscribe", "newsletter.errors.linkInvalid", "newsletter.toShop"] } satisfies MessagesHandle;

/** Every newsletter mail links here: one button, no login. Opening the link alone changes nothing (mail scanners follow links). */
export function loader({ url }: Route.LoaderArgs) {
  return loadMailLinkPage(url, NewsletterToken, "newsletter.unsubscribe");
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/**
 * The page's button posts the token in the form; a mail client's one-click unsubscribe (RFC 8058) posts
 * "List-Unsubscribe=One-Click" to the very link of the List-Unsubscribe header, token in the query.
 */
export function action({ request, url, context }: Route.ActionArgs) {
  return answerMailLinkPost(request, url, (token) => unsubscribeFromNewsletter(context.get(shopContext).db, token), { tokenFromLink: true });
}

export default function NewsletterUnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterLinkPage page="unsubscribe" token={loaderData.token} done={loaderData.done && !actionData} error={actionData?.error ?? null} />;
}
