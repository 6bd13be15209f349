import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";

/** What the sign-up action answers: done, or the message key of the problem. */
export type NewsletterAnswer = { ok: true } | { ok: false; error: string };

/**
 * The sign-up to the shop's own list: one address, the consent text beside it with the privacy link.
 * Without JavaScript it posts to /newsletter, which answers with this same form and its message;
 * with it, the answer shows here, the page stays. `answer` is that page's own (no-JavaScript) answer.
 */
export function NewsletterSignUp({
  locale,
  shopName,
  answer,
  tone,
}: {
  locale: Locale;
  shopName: string;
  answer?: NewsletterAnswer;
  tone: "dark" | "light";
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<NewsletterAnswer>();
  const result = fetcher.data ?? answer;
  const inputRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const id = useId();
  const error = result && !result.ok ? result.error : null;
  const busy = fetcher.state !== "idle";

  // A refused address takes the keyboard back to the field; a sign-up clears it.
  useEffect(() => {
    if (!fetcher.data) return;
    if (fetcher.data.ok) {
      if (inputRef.current) inputRef.current.value = "";
      statusRef.current?.focus();
    } else inputRef.current?.focus();
  }, [fetcher.data]);

  const label = tone === "dark" ? "text-white" : "text-ink";
  const note = tone === "dark" ? "text-brand-100" : "text-muted";
  const link = tone === "dark" ? "underline text-white hover:no-underline" : "link";
  return (
    <fetcher.Form method="post" action={localizedHref("/newsletter", locale)} noValidate className="space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={`${id}-email`} className={`mb-1 block text-sm font-semibold ${label}`}>
            {t("footer.newsletterEmail")}
          </label>
          <input
            ref={inputRef}
            id={`${id}-email`}
            type="email"
            name="email"
            required
            maxLength={254}
            autoComplete="email"
            aria-invalid={error ? true : undefined}
            aria-describedby={`${error ? `${id}-error ` : ""}${id}-consent`}
            className="block w-full rounded-full border border-brand-300 bg-white px-4 py-2 text-ink"
          />
        </div>
        <button type="submit" className="btn bg-coral-200 text-ink hover:bg-white" disabled={busy}>
          {busy ? t("newsletter.sending") : t("footer.newsletterSubmit")}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="rounded-xl bg-white px-4 py-2 font-semibold text-coral-700">
          {t(error)}
        </p>
      )}
      {result?.ok && (
        <p ref={statusRef} role="status" tabIndex={-1} className="rounded-xl bg-white px-4 py-2 font-semibold text-brand-800">
          {t("newsletter.sent")}
        </p>
      )}
      <p id={`${id}-consent`} className={`text-xs ${note}`}>
        {t("newsletter.consent", { shopName })}{" "}
        <Link to={localizedHref("/privacy", locale)} className={link}>
          {t("newsletter.privacyLink")}
        </Link>
      </p>
    </fetcher.Form>
  );
}
