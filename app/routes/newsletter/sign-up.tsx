import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { NewsletterSignUp, type NewsletterAnswer } from "#app/ui/newsletter-sign-up.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { signUpForNewsletter } from "#server/newsletter/newsletter.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/sign-up";

/** The sign-up form's texts come with the shell (the footer); this page has only its title. */
export const handle = { messages: ["newsletter.signUp"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "newsletter.signUp") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

/** The footer's sign-up posts here (by fetcher, or as a whole page without JavaScript). */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { db, publicUrl } = context.get(shopContext);
  const form = await request.formData();
  const result = await signUpForNewsletter(db, Object.fromEntries(form), {
    locale: localeOfPath(url.pathname),
    publicUrl,
    clientIp: context.get(requestContext).clientIp,
  });
  if (!result.ok) return data<NewsletterAnswer>({ ok: false, error: result.error }, { status: result.throttled ? 429 : 400 });
  return data<NewsletterAnswer>({ ok: true });
}

export default function NewsletterPage({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  return (
    <>
      <PageHeader title={t("footer.newsletterTitle")}>
        <p>{t("footer.newsletterText")}</p>
      </PageHeader>
      <div className="mx-auto max-w-xl px-4 py-10">
        <section aria-label={t("footer.newsletterTitle")} className="rounded-3xl bg-white p-6 shadow-card sm:p-8">
          <NewsletterSignUp locale={root.locale} shopName={root.shop.name} answer={actionData} tone="light" />
        </section>
      </div>
    </>
  );
}
