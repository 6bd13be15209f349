import { useTranslation } from "react-i18next";
import { Form, isRouteErrorResponse, Link, useLocation, type ShouldRevalidateFunction } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { variantLabel } from "#common/variant-label.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice } from "#app/ui/account-form-parts.tsx";
import { ErrorPage } from "#app/ui/error-page.tsx";
import { isNotYourOrderData } from "#app/lib/order-lookup.ts";
import { TextField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/withdrawal";
import { loadWithdrawal, withdrawalAction, type WithdrawalFormValues } from "./withdrawal.server";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "afterSales.withdraw",
    "afterSales.orderPanel",
    "afterSales.page",
    "afterSales.statement",
    "afterSales.errors",
    "auth.fields",
    "exchanges.form",
    "exchanges.errors",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { access, options } = await loadWithdrawal(context, request, url, params.orderId);
  const receiptId = url.searchParams.get("ricevuta");
  const receipt = options.statements.find((statement) => statement.id === receiptId) ?? null;
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "afterSales.page"),
    options,
    receipt,
    // A fresh key per page view: the same form posted twice is one statement.
    submissionKey: crypto.randomUUID(),
    orderHref: `${localizedHref(`/ordine/${options.orderId}`, localeOfPath(url.pathname))}${access.token ? `?t=${encodeURIComponent(access.token)}` : ""}`,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => [
  // This page has its own error page: then the root's words title it, as they title every error page.
  ...(error ? (matches.find((match) => match?.id === "root")?.meta ?? []) : pageMeta(matches, loaderData?.meta)),
  { name: "robots", content: "noindex" },
];

export async function action({ request, url, params, context }: Route.ActionArgs) {
  return withdrawalAction(context, request, url, params.orderId);
}

// A refused statement (409) may mean the order changed meanwhile (another statement came first): the
// form is shown again from the order as it is now, never with a quantity for units already withdrawn.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus === 409 || defaultShouldRevalidate;

/** Another customer's order says so in the shop's words (withdrawal.server.ts); any other error is the shop's error page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (!isRouteErrorResponse(error) || !isNotYourOrderData(error.data)) return <ErrorPage error={error} />;
  const refusal = error.data;
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{refusal.title}</h1>
      <p className="mt-4" data-testid="withdrawal-refused">
        {refusal.message}
      </p>
      <Link to={refusal.lookupHref} className="btn-secondary mt-8">
        {refusal.lookupLabel}
      </Link>
    </div>
  );
}

type Options = Route.ComponentProps["loaderData"]["options"];

function useLineLabel() {
  const { t } = useTranslation();
  return (line: Options["lines"][number]) => [line.name, variantLabel(t, line)].filter(Boolean).join(" · ");
}

/** The variant chosen in exchange for a line, or null for a refund. */
function swapOf(line: Options["lines"][number], values: WithdrawalFormValues) {
  const chosen = values.quantities[`swap:${line.id}`];
  return line.exchangeTo.find((option) => String(option.variantId) === chosen) ?? null;
}

function Statement({ options, values }: { options: Options; values: WithdrawalFormValues }) {
  const { t } = useTranslation();
  const lineLabel = useLineLabel();
  const chosen = options.lines.filter((line) => Number(values.quantities[`qty:${line.id}`] ?? 0) > 0);
  return (
    <div className="rounded-2xl border-2 border-brand-200 bg-white p-5">
      <p>{t("afterSales.page.statementText", { name: values.name, number: options.orderNumber })}</p>
      <ul className="mt-3 list-disc space-y-1 pl-6">
        {chosen.map((line) => (
          <li key={line.id}>
            {lineLabel(line)} ({line.sku}): {t("afterSales.statement.units", { count: Number(values.quantities[`qty:${line.id}`]) })}
            {swapOf(line, values) && (
              <span className="block font-semibold" data-testid="exchange-review">
                {t("exchanges.form.reviewLine", { variant: variantLabel(t, swapOf(line, values)!) })}
              </span>
            )}
          </li>
        ))}
      </ul>
      <dl className="mt-3 grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="font-semibold">{t("afterSales.statement.contact")}</dt>
        <dd>{t("afterSales.statement.contactByEmail", { email: options.email })}</dd>
        {values.iban && (
          <>
            <dt className="font-semibold">{t("afterSales.statement.iban")}</dt>
            <dd className="break-all">{values.iban}</dd>
          </>
        )}
      </dl>
    </div>
  );
}

function HiddenValues({ values }: { values: WithdrawalFormValues }) {
  return (
    <>
      <input type="hidden" name="submissionKey" value={values.submissionKey} />
      <input type="hidden" name="name" value={values.name} />
      {values.iban && <input type="hidden" name="iban" value={values.iban} />}
      {Object.entries(values.quantities).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * Refund or exchange for a line of a product with other variants in stock: the same product, so the same
 * price (docs/decisions/0105-exchanges.md); the replacement is set aside when the request is confirmed.
 */
function ExchangeChoice({ line, values }: { line: Options["lines"][number]; values: WithdrawalFormValues }) {
  const { t } = useTranslation();
  if (!line.exchangeTo.some((option) => option.stock > 0)) return null;
  const id = `swap-${line.id}`;
  return (
    <div className="mt-3">
      <label htmlFor={id} className="block font-semibold">
        {t("exchanges.form.label", { name: line.name })}
      </label>
      <select
        id={id}
        name={`swap:${line.id}`}
        defaultValue={values.quantities[`swap:${line.id}`] ?? "refund"}
        aria-describedby={`${id}-hint`}
        className="mt-1 w-full max-w-sm rounded-xl border border-brand-200 bg-white px-3 py-2"
      >
        <option value="refund">{t("exchanges.form.refund")}</option>
        {line.exchangeTo.map((option) => (
          <option key={option.variantId} value={option.variantId} disabled={option.stock === 0}>
            {t(option.stock === 0 ? "exchanges.form.optionSoldOut" : "exchanges.form.option", { variant: variantLabel(t, option) || option.sku })}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
        {t("exchanges.form.hint")}
      </p>
    </div>
  );
}

export default function WithdrawalPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const lineLabel = useLineLabel();
  const { options, receipt, submissionKey, orderHref } = loaderData;
  const values: WithdrawalFormValues = actionData?.values ?? { submissionKey, name: options.customerName, iban: "", quantities: {} };
  const errors = actionData?.errors ?? {};
  const period = options.window;
  const dateTime = (at: Date | string) => formatShopDateTime(at, locale, { dateStyle: "long", timeStyle: "short" });
  const errorText = (key: string | undefined) => (key ? t(key) : undefined);

  return (
    <>
      <PageHeader title={t("afterSales.page.title")}>
        <p>{t(options.isOffered ? "afterSales.page.lead" : "afterSales.page.leadOrder", { number: options.orderNumber })}</p>
        {period.state === "open" && (
          <p className="text-base font-semibold">
            {period.closesAt
              ? t("afterSales.page.until", { date: dateTime(period.closesAt) })
              : t("afterSales.page.untilOpen", { days: options.withdrawalDays })}
          </p>
        )}
      </PageHeader>
      <div className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-10">
        {receipt ? (
          <AccountNotice kind="success">
            <strong className="block text-lg">{t("afterSales.page.receivedTitle")}</strong>
            <span data-testid="withdrawal-received">
              {t("afterSales.page.received", {
                receivedAt: formatShopDateTime(receipt.receivedAt, locale, { dateStyle: "long", timeStyle: "medium" }),
                returnNumber: receipt.returnNumber ?? "",
              })}
            </span>
          </AccountNotice>
        ) : !options.isOffered ? (
          <AccountNotice kind="info">
            {options.isReplacement
              ? t("afterSales.orderPanel.replacement")
              : period.state === "closed"
                ? t("afterSales.orderPanel.closed")
                : period.state === "not-yet"
                  ? t("afterSales.orderPanel.notYet")
                  : options.statements.length > 0
                    ? t("afterSales.orderPanel.allWithdrawn")
                    : t("afterSales.page.notOffered")}
          </AccountNotice>
        ) : actionData?.step === 2 ? (
          <section aria-labelledby="step-title" className="space-y-4">
            <h2 id="step-title" className="text-2xl font-bold">
              {t("afterSales.page.step2")}
            </h2>
            <p>{t("afterSales.page.reviewLead")}</p>
            <Statement options={options} values={values} />
            <div className="flex flex-wrap gap-3">
              <Form method="post">
                <HiddenValues values={values} />
                <button type="submit" name="intent" value="confirm" className="btn-primary">
                  {t("afterSales.page.confirm")}
                </button>
              </Form>
              <Form method="post">
                <HiddenValues values={values} />
                <button type="submit" name="intent" value="edit" className="btn-secondary">
                  {t("afterSales.page.change")}
                </button>
              </Form>
            </div>
          </section>
        ) : (
          <Form method="post" className="space-y-6" aria-labelledby="step-title" noValidate>
            <h2 id="step-title" className="text-2xl font-bold">
              {t("afterSales.page.step1")}
            </h2>
            {(errors.form || errors.lines) && <AccountNotice kind="error">{errorText(errors.form ?? errors.lines)}</AccountNotice>}
            <input type="hidden" name="submissionKey" value={values.submissionKey} />
            <TextField
              label={t("afterSales.page.name")}
              name="name"
              defaultValue={values.name}
              required
              maxLength={120}
              autoComplete="name"
              error={errorText(errors.name)}
            />
            <p>
              <span className="font-semibold">{t("afterSales.page.order")}:</span> {options.orderNumber}
            </p>
            <fieldset className="space-y-3">
              <legend className="text-lg font-bold">{t("afterSales.page.linesLegend")}</legend>
              <p className="text-sm text-muted">{t("afterSales.page.linesHint")}</p>
              <ul className="space-y-3">
                {options.lines.map((line) => (
                  <li key={line.id} className="rounded-2xl border border-brand-100 bg-white p-4" data-testid="withdrawal-line">
                    <p className="font-semibold">{lineLabel(line)}</p>
                    <p className="text-sm text-muted">
                      {t("afterSales.page.bought", { count: line.quantity })}
                      {line.exclusion === null && line.left < line.quantity ? ` · ${t("afterSales.page.left", { count: line.left })}` : ""}
                    </p>
                    {line.exclusion ? (
                      <p className="mt-2 text-sm font-semibold text-coral-700">{t(`afterSales.page.excluded.${line.exclusion}`)}</p>
                    ) : line.left > 0 ? (
                      <div className="mt-2 max-w-48">
                        <TextField
                          label={t("afterSales.page.howMany", { name: line.name })}
                          name={`qty:${line.id}`}
                          type="number"
                          inputMode="numeric"
                          min={0}
                          max={line.left}
                          defaultValue={values.quantities[`qty:${line.id}`] ?? "0"}
                        />
                      </div>
                    ) : null}
                    {line.exclusion === null && line.left > 0 && <ExchangeChoice line={line} values={values} />}
                  </li>
                ))}
              </ul>
            </fieldset>
            <fieldset>
              <legend className="text-lg font-bold">{t("afterSales.page.contactLegend")}</legend>
              <p className="mt-1">{t("afterSales.page.contactByEmail", { email: options.email })}</p>
            </fieldset>
            {options.needsIban && (
              <TextField
                label={t("afterSales.page.iban")}
                name="iban"
                defaultValue={values.iban}
                required
                maxLength={50}
                autoComplete="off"
                hint={t("afterSales.page.ibanHint")}
                error={errorText(errors.iban)}
              />
            )}
            <button type="submit" name="intent" value="review" className="btn-primary">
              {t("afterSales.page.review")}
            </button>
          </Form>
        )}
        {options.statements.length > 0 && (
          <section aria-labelledby="earlier-title">
            <h2 id="earlier-title" className="text-xl font-bold">
              {t("afterSales.page.earlier")}
            </h2>
            <ul className="mt-2 space-y-2">
              {options.statements.map((statement) => (
                <li key={statement.id} className="rounded-2xl bg-white p-4">
                  <p className="font-semibold">{formatShopDateTime(statement.receivedAt, locale, { dateStyle: "long", timeStyle: "medium" })}</p>
                  <p>{statement.lines.map((line) => `${line.name}: ${t("afterSales.statement.units", { count: line.quantity })}`).join(" · ")}</p>
                </li>
              ))}
            </ul>
          </section>
        )}
        <Link to={orderHref} className="btn-secondary">
          {t("afterSales.page.backToOrder")}
        </Link>
      </div>
    </>
  );
}
