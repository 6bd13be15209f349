import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { AdminFilterForm, AdminTable, FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField, SelectField } from "#app/ui/form-field.tsx";
import { LoyaltyHistoryTable } from "#app/ui/loyalty-history.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { formatCardNumber } from "#common/loyalty-card-number.ts";
import { CounterEarnInput, CounterRedeemInput, fieldErrorsOf } from "#server/loyalty/loyalty.inputs.ts";
import { addCounterPoints, redeemAtCounter } from "#server/loyalty/loyalty.service.ts";
import { findCardsForCounter, getCounterCard } from "#server/loyalty/loyalty-view.service.ts";
import type { Route } from "./+types/loyalty-counter";

/** The messages this page renders besides the back office's own, which come with its layout (app/lib/route-messages.ts). */
export const handle = { messages: ["loyalty"] } satisfies MessagesHandle;

/**
 * /admin/carta-fedelta: the shop's counter. Find a card by its number, the customer's e-mail or phone; add
 * the points of a till receipt (once per receipt number) or redeem points as a discount on the till.
 * Every change is an entry of the card's history with the staff member who made it.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const cardId = Number(url.searchParams.get("carta"));
  const card = Number.isSafeInteger(cardId) && cardId > 0 ? await getCounterCard(db, cardId) : null;
  const done = url.searchParams.get("fatto");
  return {
    meta: getPageMetaTexts(locale, "loyalty.counter"),
    locale,
    q,
    results: card ? [] : await findCardsForCounter(db, q),
    card: card ? { ...card, printedNumber: formatCardNumber(card.number) } : null,
    done: done === "earned" || done === "redeemed" ? done : null,
    doneValue: Number(url.searchParams.get("valore")) || 0,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const fields = formFields(await request.formData());
  const now = shopNowOf(services, request);
  const back = (cardId: number, done: string, value: number) =>
    redirect(`${localizedHref("/admin/carta-fedelta", locale)}?carta=${cardId}&fatto=${done}&valore=${value}`);
  const refused = (intent: "earn" | "redeem" | null, errors: Record<string, string>, status: number) =>
    data({ intent, errors, values: fields }, { status });
  if (fields.intent === "earn") {
    const parsed = CounterEarnInput.safeParse(fields);
    if (!parsed.success) return refused("earn", fieldErrorsOf(parsed.error), 400);
    const { cardId, receiptNumber, amount } = parsed.data;
    const result = await addCounterPoints(services.db, { cardId, receiptNumber, receiptCents: amount, actorUserId: admin.id, now });
    if (!result.ok) return refused("earn", { form: `loyalty.errors.${result.error}` }, 409);
    return back(cardId, "earned", result.points);
  }
  if (fields.intent === "redeem") {
    const parsed = CounterRedeemInput.safeParse(fields);
    if (!parsed.success) return refused("redeem", fieldErrorsOf(parsed.error), 400);
    const result = await redeemAtCounter(services.db, { ...parsed.data, actorUserId: admin.id, now });
    if (!result.ok) return refused("redeem", { form: `loyalty.errors.${result.error}` }, 409);
    return back(parsed.data.cardId, "redeemed", result.discountCents);
  }
  return refused(null, { form: "admin.errors.invalid" }, 400);
}

export default function AdminLoyaltyCounter({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, q, results, card, done, doneValue } = loaderData;
  const failed = (intent: string) => (actionData?.intent === intent ? actionData : null);
  const errorOf = (intent: string, name: string) => {
    const key = failed(intent)?.errors[name];
    return key ? t(key) : undefined;
  };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("loyalty.counter.title")}</h1>
      <AdminFilterForm columns="sm:grid-cols-2">
        <TextField label={t("loyalty.counter.search")} hint={t("loyalty.counter.searchHint")} name="q" type="search" defaultValue={q} />
      </AdminFilterForm>
      {actionData?.intent === null && <FormAlert>{t(actionData.errors.form ?? "admin.errors.invalid")}</FormAlert>}
      {card ? (
        <div className="mt-6 space-y-6">
          {done && (
            <Notice>
              {done === "earned"
                ? t("loyalty.counter.earned", { count: doneValue })
                : t("loyalty.counter.redeemed", { amount: formatMoney(doneValue, locale) })}
            </Notice>
          )}
          <div className="rounded-xl border border-brand-100 bg-white p-4">
            <h2 className="text-xl font-bold">{card.holder.name}</h2>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              <dt className="font-semibold">{t("loyalty.card.number")}</dt>
              <dd className="font-mono">{card.printedNumber}</dd>
              <dt className="font-semibold">{t("loyalty.counter.email")}</dt>
              <dd className="break-all">{card.holder.email}</dd>
              <dt className="font-semibold">{t("loyalty.counter.phone")}</dt>
              <dd>{card.holder.phone ?? "—"}</dd>
              <dt className="font-semibold">{t("loyalty.card.balance")}</dt>
              <dd data-testid="counter-balance">{t("loyalty.points", { count: card.balance })}</dd>
            </dl>
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <Form method="post" className="rounded-xl border border-brand-100 bg-white p-4" aria-labelledby="earn-title">
              <h2 id="earn-title" className="text-xl font-bold">
                {t("loyalty.counter.earnTitle")}
              </h2>
              {errorOf("earn", "form") && <FormAlert>{errorOf("earn", "form")}</FormAlert>}
              <input type="hidden" name="intent" value="earn" />
              <input type="hidden" name="cardId" value={card.id} />
              <div className="mt-3 grid gap-4">
                <TextField
                  label={t("loyalty.counter.receiptNumber")}
                  name="receiptNumber"
                  required
                  defaultValue={failed("earn")?.values.receiptNumber ?? ""}
                  error={errorOf("earn", "receiptNumber")}
                />
                <TextField
                  label={t("loyalty.counter.receiptAmount")}
                  name="amount"
                  inputMode="decimal"
                  required
                  hint={t("loyalty.counter.receiptAmountHint", { perEuro: card.rules.pointsPerEuro })}
                  defaultValue={failed("earn")?.values.amount ?? ""}
                  error={errorOf("earn", "amount")}
                />
              </div>
              <button type="submit" className="btn-primary mt-4">
                {t("loyalty.counter.earnSubmit")}
              </button>
            </Form>
            <Form method="post" className="rounded-xl border border-brand-100 bg-white p-4" aria-labelledby="redeem-title">
              <h2 id="redeem-title" className="text-xl font-bold">
                {t("loyalty.counter.redeemTitle")}
              </h2>
              {errorOf("redeem", "form") && <FormAlert>{errorOf("redeem", "form")}</FormAlert>}
              <input type="hidden" name="intent" value="redeem" />
              <input type="hidden" name="cardId" value={card.id} />
              <div className="mt-3 grid gap-4">
                <SelectField label={t("loyalty.counter.points")} name="points" error={errorOf("redeem", "points")}>
                  {Array.from({ length: Math.floor(card.balance / card.rules.stepPoints) }, (_, index) => (index + 1) * card.rules.stepPoints).map(
                    (points) => (
                      <option key={points} value={points}>
                        {t("loyalty.stepOption", {
                          count: points,
                          amount: formatMoney((points / card.rules.stepPoints) * card.rules.stepCents, locale),
                        })}
                      </option>
                    ),
                  )}
                </SelectField>
                <TextField label={t("loyalty.counter.note")} name="note" maxLength={200} defaultValue={failed("redeem")?.values.note ?? ""} />
              </div>
              <button type="submit" className="btn-primary mt-4" disabled={card.balance < card.rules.stepPoints}>
                {t("loyalty.counter.redeemSubmit")}
              </button>
              {card.balance < card.rules.stepPoints && (
                <p className="mt-2 text-sm text-muted">{t("loyalty.counter.notEnough", { count: card.rules.stepPoints })}</p>
              )}
            </Form>
          </div>
          <div>
            <h2 className="text-xl font-bold">{t("loyalty.history.title")}</h2>
            {card.history.length === 0 ? (
              <p className="mt-2">{t("loyalty.history.empty")}</p>
            ) : (
              <LoyaltyHistoryTable rows={card.history} locale={locale} showActor />
            )}
          </div>
          <Link to={localizedHref("/admin/carta-fedelta", locale)} className="btn-secondary">
            {t("loyalty.counter.another")}
          </Link>
        </div>
      ) : (
        q && (
          <>
            <p className="mt-4" role="status">
              {t("loyalty.counter.found", { count: results.length })}
            </p>
            {results.length > 0 && (
              <AdminTable
                label={t("loyalty.counter.results")}
                className="mt-2"
                minWidth="min-w-[40rem]"
                columns={[
                  { label: t("loyalty.card.number") },
                  { label: t("loyalty.counter.customer") },
                  { label: t("loyalty.card.balance"), isNumeric: true },
                ]}
              >
                {results.map((row) => (
                  <tr key={row.cardId} className="border-b border-brand-100 align-top">
                    <td className="p-2 font-mono">
                      <Link to={`${localizedHref("/admin/carta-fedelta", locale)}?carta=${row.cardId}`} className="text-brand-800 underline">
                        {formatCardNumber(row.number)}
                      </Link>
                    </td>
                    <td className="p-2">
                      {row.name}
                      <span className="block break-all text-muted">{row.email}</span>
                      {row.phone && <span className="block text-muted">{row.phone}</span>}
                    </td>
                    <td className="p-2 text-right">{row.balance}</td>
                  </tr>
                ))}
              </AdminTable>
            )}
          </>
        )
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
