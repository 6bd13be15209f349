import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { localizedHref } from "#common/locale.ts";
import { PageHeader } from "./page-header";

function Notice({ kind, children }: { kind: "success" | "error"; children: string }) {
  const styles = kind === "success" ? "border-brand-600 bg-brand-50 text-brand-900" : "border-coral-600 bg-coral-50 text-coral-700";
  return (
    <p role={kind === "error" ? "alert" : "status"} className={`rounded-xl border-2 p-4 font-semibold ${styles}`}>
      {children}
    </p>
  );
}

/**
 * The pages the newsletter and back-in-stock mails link to (confirm, unsubscribe): one button that posts
 * the link's token, then what happened. A missing, spent or expired token says so and points back to the
 * shop. `texts`: the messages' area (`newsletter`, `stockAlerts`), each with the same keys.
 */
export function NewsletterLinkPage({
  page,
  token,
  done,
  error,
  texts = "newsletter",
}: {
  page: "confirm" | "unsubscribe";
  token: string | null;
  done: boolean;
  error: string | null;
  texts?: "newsletter" | "stockAlerts" | "customerMails";
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const busy = useNavigation().state === "submitting";
  const problem = done ? null : (error ?? (token ? null : `${texts}.errors.linkInvalid`));
  return (
    <>
      <PageHeader title={t(`${texts}.${page}.title`)} />
      <div className="mx-auto max-w-xl px-4 py-10">
        <section aria-label={t(`${texts}.${page}.title`)} className="space-y-5 rounded-3xl bg-white p-6 shadow-card sm:p-8">
          {done ? (
            <Notice kind="success">{t(`${texts}.${page}.done`)}</Notice>
          ) : problem ? (
            <Notice kind="error">{t(problem)}</Notice>
          ) : (
            <Form method="post" className="space-y-5">
              <p>{t(`${texts}.${page}.lead`)}</p>
              <input type="hidden" name="token" value={token ?? ""} />
              <button type="submit" className="btn-primary px-8 py-3 text-base" disabled={busy}>
                {busy ? t(`${texts}.${page}.submitting`) : t(`${texts}.${page}.submit`)}
              </button>
            </Form>
          )}
          {(done || problem) && (
            <Link to={localizedHref("/", locale)} className="btn-secondary inline-block">
              {t(`${texts}.toShop`)}
            </Link>
          )}
        </section>
      </div>
    </>
  );
}
