/**
 * The withdrawal page's edge: who may use it (the order's link or its signed-in customer; an admin sees
 * the page but withdraws only through the link), the two steps' form and the answers in the page's words.
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { formFields } from "#server/accounts/form-values.ts";
import { parseWithdrawalForm } from "#server/after-sales/withdrawal.inputs.ts";
import {
  getWithdrawalOptions,
  reviewWithdrawal,
  submitWithdrawal,
  type SubmitWithdrawalError,
  type WithdrawalOptions,
} from "#server/after-sales/withdrawal.service.ts";
import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { orderLookupPath, type NotYourOrderData } from "#app/lib/order-lookup.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { findOrderAccess, type OrderAccess } from "./order-access.server";

/** `quantities`: the per-line fields as posted, units ("qty:{line}") and the exchange chosen ("swap:{line}"). */
export type WithdrawalFormValues = { submissionKey: string; name: string; iban: string; quantities: Record<string, string> };

export type WithdrawalActionData = { step: 1 | 2; values: WithdrawalFormValues; errors: Record<string, string> };

/** The page's own address, keeping the order link's token. */
export function withdrawalHref(locale: "it" | "en", orderId: string, token: string | null, extra = ""): string {
  const query = [token ? `t=${encodeURIComponent(token)}` : "", extra].filter(Boolean).join("&");
  return `${localizedHref(`/ordine/${orderId}/recesso`, locale)}${query ? `?${query}` : ""}`;
}

export async function loadWithdrawal(
  context: Readonly<RouterContextProvider>,
  request: Request,
  url: URL,
  rawOrderId: string,
): Promise<{ access: OrderAccess; options: WithdrawalOptions }> {
  const services = context.get(shopContext);
  const options = await getWithdrawalOptions(services.db, { orderId: rawOrderId, now: shopNowOf(services, request) });
  if (!options) throw data(null, { status: 404 });
  const access = await findOrderAccess(context, request, url, options.orderId, options.userId);
  if (!access) throw data(notYourOrder(localeOfPath(url.pathname)), { status: 403 });
  return { access, options };
}

/** Another customer's order: the shop's own words for it, translated here as the page's messages are not loaded. */
function notYourOrder(locale: "it" | "en"): NotYourOrderData {
  const t = getTranslator(locale);
  return {
    refusal: "not-your-order",
    title: t("afterSales.page.title"),
    message: t("afterSales.errors.not-your-order"),
    lookupLabel: t("orderLookup.findYourOrder"),
    lookupHref: localizedHref(orderLookupPath, locale),
  };
}

/** Which part of the form a refusal is about. */
function errorsOf(error: SubmitWithdrawalError): Record<string, string> {
  const field =
    error === "iban-required"
      ? "iban"
      : ["not-found", "not-your-order", "period-over", "not-yet", "already-received", "replacement-order"].includes(error)
        ? "form"
        : "lines";
  return { [field]: error.startsWith("exchange-") ? `exchanges.errors.${error}` : `afterSales.errors.${error}` };
}

function valuesOf(fields: Record<string, string>): WithdrawalFormValues {
  return {
    submissionKey: fields.submissionKey ?? "",
    name: fields.name ?? "",
    iban: fields.iban ?? "",
    quantities: Object.fromEntries(Object.entries(fields).filter(([name]) => name.startsWith("qty:") || name.startsWith("swap:"))),
  };
}

/** Step 1 checks and shows step 2; step 2 ("Conferma il recesso") sends the statement; "edit" goes back. */
export async function withdrawalAction(context: Readonly<RouterContextProvider>, request: Request, url: URL, rawOrderId: string) {
  const { access, options } = await loadWithdrawal(context, request, url, rawOrderId);
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const fields = formFields(await request.formData());
  const values = valuesOf(fields);
  const back = (errors: Record<string, string>, status = 400) => data<WithdrawalActionData>({ step: 1, values, errors }, { status });
  if (fields.intent === "edit") return data<WithdrawalActionData>({ step: 1, values, errors: {} });
  const parsed = parseWithdrawalForm(fields);
  if (!parsed.ok) return back(parsed.errors);
  if (fields.intent === "review") {
    const checked = reviewWithdrawal(options, parsed.input);
    return checked.ok ? data<WithdrawalActionData>({ step: 2, values, errors: {} }) : back(errorsOf(checked.error), 409);
  }
  if (fields.intent !== "confirm") return back({ form: "afterSales.errors.form" });
  const done = await submitWithdrawal(services.db, {
    orderId: access.orderId,
    access: { hasOrderLink: access.hasOrderLink, userId: access.isAdmin ? null : access.userId },
    input: parsed.input,
    locale,
    now: shopNowOf(services, request),
    links: { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) },
  });
  if (!done.ok) return back(errorsOf(done.error), done.error === "not-your-order" ? 403 : 409);
  return redirect(withdrawalHref(locale, access.orderId, access.token, `ricevuta=${done.withdrawalId}`), 303);
}
