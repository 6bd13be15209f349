import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useActionData, useFetcher, useLocation } from "react-router";
import { useRootData } from "#app/lib/root-data.ts";

export const stockAlertIntent = "stock-alert";

/** What the product page's action answers: done (active at once, or waiting for the mail's click), or the message key of the problem. */
export type StockAlertAnswer = { ok: true; confirmed: boolean } | { ok: false; error: string };

/**
 * "Avvisami quando torna disponibile" under a sold-out colour and size. Guests give an address and confirm
 * it from a mail; a signed-in customer is told at their account's address. It posts to the page's own
 * address (colour and size in the query): with JavaScript by fetcher, the page stays; without, the page
 * comes back with the answer in `actionData`. Keyed by the variant, so a new choice starts clean.
 */
export function StockAlertForm({ variantId }: { variantId: number }) {
  const { t } = useTranslation();
  const location = useLocation();
  const email = useRootData()?.user?.email ?? null;
  const fetcher = useFetcher<{ stockAlert: StockAlertAnswer }>();
  const pageAnswer = useActionData<{ stockAlert?: StockAlertAnswer }>()?.stockAlert;
  const answer = fetcher.data?.stockAlert ?? pageAnswer;
  const error = answer && !answer.ok ? answer.error : null;
  const inputRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const busy = fetcher.state !== "idle";

  // A refused address takes the keyboard back to the field; a done request moves it to the answer.
  useEffect(() => {
    const sent = fetcher.data?.stockAlert;
    if (sent) (sent.ok ? statusRef : inputRef).current?.focus();
  }, [fetcher.data]);

  return (
    <section aria-labelledby="stock-alert-title" className="rounded-3xl bg-brand-50 p-5">
      <h2 id="stock-alert-title" className="text-lg font-bold">
        {t("stockAlerts.form.title")}
      </h2>
      {answer?.ok ? (
        <p ref={statusRef} role="status" tabIndex={-1} className="mt-2 font-semibold text-brand-900">
          {answer.confirmed ? t("stockAlerts.form.active", { email }) : t("stockAlerts.form.sent")}
        </p>
      ) : (
        <fetcher.Form method="post" action={`${location.pathname}${location.search}`} noValidate className="mt-2 space-y-3">
          <p id="stock-alert-lead" className="text-muted">
            {email ? t("stockAlerts.form.leadSignedIn", { email }) : t("stockAlerts.form.lead")}
          </p>
          <input type="hidden" name="intent" value={stockAlertIntent} />
          <input type="hidden" name="variantId" value={variantId} />
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            {!email && (
              <div className="flex-1">
                <label htmlFor="stock-alert-email" className="mb-1 block text-sm font-semibold">
                  {t("stockAlerts.form.email")}
                </label>
                <input
                  ref={inputRef}
                  id="stock-alert-email"
                  type="email"
                  name="email"
                  required
                  maxLength={254}
                  autoComplete="email"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "stock-alert-error" : "stock-alert-privacy"}
                  className="block w-full rounded-full border border-brand-300 bg-white px-4 py-2 text-ink"
                />
              </div>
            )}
            <button type="submit" className="btn-primary h-11 px-6" disabled={busy}>
              {busy ? t("stockAlerts.form.sending") : t("stockAlerts.form.submit")}
            </button>
          </div>
          {error && (
            <p id="stock-alert-error" role="alert" className="font-semibold text-coral-700">
              {t(error)}
            </p>
          )}
          {!email && (
            <p id="stock-alert-privacy" className="text-xs text-muted">
              {t("stockAlerts.form.privacy")}
            </p>
          )}
        </fetcher.Form>
      )}
    </section>
  );
}
