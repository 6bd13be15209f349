import { answerMailLinkPost, loadMailLinkPage } from "#app/lib/mail-link-page.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterLinkPage } from "#app/ui/newsletter-link-page.tsx";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { CustomerMailsToken } from "#server/customer-mails/customer-mails.inputs.ts";
import { objectByMailLink } from "#server/customer-mails/mail-choice.service.ts";
import { shopContext } from "#server/http/context.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/opt-out";

export const handle = {
  messages: ["customerMails.unsubscribe", "customerMails.errors.linkInvalid", "customerMails.toShop"],
} satisfies MessagesHandle;

/** Every reminder and review invitation links here: one button, no sign-in. Opening the link alone changes nothing (mail scanners follow links). */
export function loader({ url }: Route.LoaderArgs) {
  return loadMailLinkPage(url, CustomerMailsToken, "customerMails.unsubscribe");
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/** The page's button posts the token; a mail client's one-click POST (RFC 8058) comes to the List-Unsubscribe link itself, token in the query. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { db, env } = context.get(shopContext);
  return answerMailLinkPost(request, url, (token) => objectByMailLink(db, resolveAuthSecret(env), token, "mail-link"), { tokenFromLink: true });
}

export default function CustomerMailsOptOutPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <NewsletterLinkPage
      page="unsubscribe"
      texts="customerMails"
      token={loaderData.token}
      done={loaderData.done && !actionData}
      error={actionData?.error ?? null}
    />
  );
}
