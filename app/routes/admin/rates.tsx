import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { formText } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { clearExchangeRate, listExchangeRates, refreshRatesNow, setExchangeRate } from "#server/admin/settings-admin.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/rates";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: [] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const done = url.searchParams.get("done");
  return {
    meta: getPageMetaTexts(locale, "admin.rates"),
    locale,
    rates: await listExchangeRates(db),
    canRefresh: Boolean(env.RATES_URL),
    done: done && ["set", "cleared", "refreshed"].includes(done) ? done : null,
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const { db, env } = context.get(shopContext);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const currency = formText(form, "currency");
  const back = (done: string) => redirect(`${url.pathname}?done=${done}`);
  if (intent === "set") {
    const result = await setExchangeRate(db, { currency, rate: formText(form, "rate"), actorUserId: admin.id });
    return result.ok ? back("set") : data({ error: result.error, currency }, { status: 400 });
  }
  if (intent === "clear") {
    const result = await clearExchangeRate(db, { currency, actorUserId: admin.id });
    return result.ok ? back("cleared") : data({ error: result.error, currency }, { status: 400 });
  }
  if (intent === "refresh") {
    const result = await refreshRatesNow(db, { url: env.RATES_URL, actorUserId: admin.id });
    return result.ok ? back("refreshed") : data({ error: result.error, currency: null }, { status: 502 });
  }
  return data({ error: "admin.errors.invalid", currency: null }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminRates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, rates, canRefresh, done } = loaderData;
  const dateTime = (at: Date | string) => formatShopDateTime(at, locale);
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("admin.rates.title")}</h1>
      <p className="mt-2">{t("admin.rates.intro")}</p>
      <div className="mt-4 space-y-3">
        {done && <Notice>{t(`admin.rates.done.${done}`)}</Notice>}
        {actionData?.error && <FormAlert>{t(actionData.error)}</FormAlert>}
      </div>
      {canRefresh && (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="refresh" />
          <button type="submit" className="btn-primary">
            {t("admin.rates.refresh")}
          </button>
        </Form>
      )}
      <ul className="mt-6 grid gap-4 md:grid-cols-2">
        {rates.map((rate) => (
          <li key={rate.currency} className="rounded-xl border border-brand-100 bg-white p-4">
            <h2 className="text-xl font-bold">{t("admin.rates.pair", { currency: rate.currency })}</h2>
            <p className="mt-1 text-lg">
              1 € = {rate.ratePerEur} {rate.currency}
            </p>
            <p className="text-muted">
              {t(`admin.rates.source.${rate.source}`)}
              {rate.updatedAt && ` · ${dateTime(rate.updatedAt)}`}
            </p>
            <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="set" />
              <input type="hidden" name="currency" value={rate.currency} />
              <TextField
                label={t("admin.rates.override", { currency: rate.currency })}
                name="rate"
                inputMode="decimal"
                required
                error={actionData?.currency === rate.currency && actionData.error ? t(actionData.error) : undefined}
              />
              <button type="submit" className="btn-primary">
                {t("admin.rates.set")}
              </button>
            </Form>
            {rate.source === "manual" && (
              <Form method="post" className="mt-3">
                <input type="hidden" name="intent" value="clear" />
                <input type="hidden" name="currency" value={rate.currency} />
                <button type="submit" className="btn-secondary">
                  {t("admin.rates.clear")}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
