import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { localizedHref } from "#app/lib/locale.ts";
import { AccountNotice, SubmitButton } from "./account-form-parts";
import { PageHeader } from "./page-header";

/**
 * The pages the newsletter mails link to (confirm, unsubscribe): one button that posts the link's
 * token, then what happened. A missing, spent or expired token says so and points back to the sign-up.
 */
export function NewsletterLinkPage({ page, token, done, error }: { page: "confirm" | "unsubscribe"; token: string | null; done: boolean; error: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const problem = done ? null : (error ?? (token ? null : "newsletter.errors.linkInvalid"));
  return (
    <>
      <PageHeader title={t(`newsletter.${page}.title`)} />
      <div className="mx-auto max-w-xl px-4 py-10">
        <section aria-label={t(`newsletter.${page}.title`)} className="space-y-5 rounded-3xl bg-white p-6 shadow-card sm:p-8">
          {done ? (
            <AccountNotice kind="success">{t(`newsletter.${page}.done`)}</AccountNotice>
          ) : problem ? (
            <AccountNotice kind="error">{t(problem)}</AccountNotice>
          ) : (
            <Form method="post" className="space-y-5">
              <p>{t(`newsletter.${page}.lead`)}</p>
              <input type="hidden" name="token" value={token ?? ""} />
              <SubmitButton busyLabel={t(`newsletter.${page}.submitting`)} className="btn-primary px-8 py-3 text-base">
                {t(`newsletter.${page}.submit`)}
              </SubmitButton>
            </Form>
          )}
          {(done || problem) && (
            <Link to={localizedHref("/", locale)} className="btn-secondary inline-block">
              {t("newsletter.toShop")}
            </Link>
          )}
        </section>
      </div>
    </>
  );
}
