import { useTranslation } from "react-i18next";
import { useActionData, useFetcher } from "react-router";
import { useRootData } from "#app/lib/root-data.ts";
import { stockAlertIntent } from "#common/variant-selection.ts";

/** What the product page's action answers: done (active at once, or waiting for the mail's click), or the message key of the problem. */
export type StockAlertAnswer = { ok: true; confirmed: boolean } | { ok: false; error: string };

/**
 * "Avvisami quando torna disponibile" under a sold-out colour and size. Guests give an address and confirm
 * it from a mail; a signed-in customer is told at their account's address. It posts to the page's own
 * address (a form without `action` keeps the query, colour and size): with JavaScript by fetcher, the page
 * stays; without, the page comes back with the answer in `actionData`. Keyed by the variant, so a new
 * choice starts clean. Nothing is removed or disabled when the answer comes, so the keyboard stays where it
 * was; the answer is read out from a live region that is there from the start (a refusal is an alert).
 */
export function StockAlertForm({ variantId }: { variantId: number }) {
  const { t } = useTranslation();
  const email = useRootData()?.user?.email;
  const fetcher = useFetcher<{ stockAlert: StockAlertAnswer }>();
  const pageAnswer = useActionData<{ stockAlert?: StockAlertAnswer }>();
  const answer = (fetcher.data ?? pageAnswer)?.stockAlert;
  const error = answer?.ok === false ? answer.error : null;

  return (
    <section className="rounded-3xl bg-brand-50 p-5">
      <h2 className="text-lg font-bold">{t("stockAlerts.form.title")}</h2>
      <fetcher.Form method="post" noValidate className="mt-2 space-y-3">
        <p className="text-muted">{t(email ? "stockAlerts.form.leadSignedIn" : "stockAlerts.form.lead", { email })}</p>
        <input type="hidden" name="variantId" value={variantId} />
        {!email && (
          <label className="block text-sm font-semibold">
            {t("stockAlerts.form.email")}
            <input
              type="email"
              name="email"
              required
              autoComplete="email"
              aria-invalid={Boolean(error)}
              aria-describedby={error ? "stock-alert-error" : undefined}
              className="mt-1 block w-full rounded-full border border-brand-300 bg-white px-4 py-2 font-normal text-ink"
            />
          </label>
        )}
        {error && (
          <p id="stock-alert-error" role="alert" className="font-semibold text-coral-700">
            {t(error)}
          </p>
        )}
        {/* The intent rides on the button: a browser sends the submitter's value, and so does the fetcher. */}
        <button name="intent" value={stockAlertIntent} className="btn-primary h-11 px-6">
          {t(fetcher.state === "idle" ? "stockAlerts.form.submit" : "stockAlerts.form.sending")}
        </button>
        <p role="status" className="font-semibold">
          {answer?.ok && t(answer.confirmed ? "stockAlerts.form.active" : "stockAlerts.form.sent", { email })}
        </p>
      </fetcher.Form>
    </section>
  );
}
