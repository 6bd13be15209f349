import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { TextField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { deliverDayRange } from "#server/vouchers/voucher.ts";
import { handleVoucherAction } from "../vouchers/voucher-action.server";
import type { Route } from "./+types/gift-card-purchase";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["vouchers.purchase", "vouchers.errors", "giftCards.balance.title"] } satisfies MessagesHandle;

/** /carta-regalo/acquista: a gift card goes into the cart as a voucher line (docs/decisions/0106-voucher-lines.md). */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const { giftCardSales } = await getSettings(services.db, ["giftCardSales"]);
  const today = italianDayOf(shopNowOf(services, request));
  return {
    meta: getPageMetaTexts(locale, "vouchers.purchase"),
    presetCents: giftCardSales.presetCents,
    minCents: giftCardSales.minCents,
    maxCents: giftCardSales.maxCents,
    validityMonths: giftCardSales.validityMonths,
    days: deliverDayRange(today),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  return handleVoucherAction(services, request, localeOfPath(url.pathname), shopNowOf(services, request));
}

export default function GiftCardPurchasePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const navigation = useNavigation();
  const values = actionData?.values ?? {};
  const errors = actionData?.errors ?? {};
  const error = (field: string) => (errors[field] ? t(errors[field]) : undefined);
  const [preset, setPreset] = useState(values.preset ?? String(loaderData.presetCents[1] ?? loaderData.presetCents[0] ?? ""));
  const [delivery, setDelivery] = useState(values.delivery ?? "email");
  return (
    <>
      <PageHeader title={t("vouchers.purchase.title")}>
        <p>{t("vouchers.purchase.intro", { months: loaderData.validityMonths })}</p>
      </PageHeader>
      <div className="mx-auto max-w-2xl space-y-6 px-4 py-10">
        <Form method="post" noValidate className="space-y-6 rounded-3xl bg-white p-6 shadow-card" aria-describedby="gift-card-form-error">
          <input type="hidden" name="intent" value="buy" />
          {errors.form && (
            <p id="gift-card-form-error" role="alert" className="rounded-xl bg-coral-50 p-3 font-semibold text-coral-700">
              {t(errors.form)}
            </p>
          )}
          <fieldset>
            <legend className="field-label">{t("vouchers.purchase.amountLegend")}</legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {loaderData.presetCents.map((cents) => (
                <label
                  key={cents}
                  className="flex cursor-pointer items-center gap-2 rounded-full border border-brand-200 px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                >
                  <input
                    type="radio"
                    name="preset"
                    value={String(cents)}
                    checked={preset === String(cents)}
                    onChange={() => setPreset(String(cents))}
                  />
                  {formatMoney(cents, locale)}
                </label>
              ))}
              <label className="flex cursor-pointer items-center gap-2 rounded-full border border-brand-200 px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                <input type="radio" name="preset" value="" checked={preset === ""} onChange={() => setPreset("")} />
                {t("vouchers.purchase.other")}
              </label>
            </div>
            {preset === "" && (
              <TextField
                className="mt-3"
                label={t("vouchers.purchase.otherLabel")}
                name="amount"
                inputMode="decimal"
                defaultValue={values.amount ?? ""}
                hint={t("vouchers.purchase.otherHint", {
                  min: formatMoney(loaderData.minCents, locale),
                  max: formatMoney(loaderData.maxCents, locale),
                })}
                error={error("amount")}
              />
            )}
            {preset !== "" && error("amount") && <p className="field-error">{error("amount")}</p>}
          </fieldset>
          <TextField
            label={t("vouchers.purchase.senderName")}
            name="senderName"
            autoComplete="name"
            maxLength={100}
            defaultValue={values.senderName ?? ""}
            error={error("senderName")}
          />
          <TextField
            label={t("vouchers.purchase.recipientName")}
            name="recipientName"
            maxLength={100}
            defaultValue={values.recipientName ?? ""}
            error={error("recipientName")}
          />
          <fieldset>
            <legend className="field-label">{t("vouchers.purchase.deliveryLegend")}</legend>
            <div className="mt-2 space-y-2">
              <label className="flex items-center gap-2">
                <input type="radio" name="delivery" value="email" checked={delivery === "email"} onChange={() => setDelivery("email")} />
                {t("vouchers.purchase.byEmail")}
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="delivery" value="print" checked={delivery === "print"} onChange={() => setDelivery("print")} />
                {t("vouchers.purchase.print")}
              </label>
            </div>
          </fieldset>
          {delivery === "email" ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label={t("vouchers.purchase.recipientEmail")}
                name="recipientEmail"
                type="email"
                autoComplete="off"
                defaultValue={values.recipientEmail ?? ""}
                error={error("recipientEmail")}
              />
              <TextField
                label={t("vouchers.purchase.deliverOn")}
                name="deliverOn"
                type="date"
                min={loaderData.days.first}
                max={loaderData.days.last}
                defaultValue={values.deliverOn ?? loaderData.days.first}
                hint={t("vouchers.purchase.deliverOnHint")}
                error={error("deliverOn")}
              />
            </div>
          ) : (
            <p className="text-sm text-muted">{t("vouchers.purchase.printHint")}</p>
          )}
          <TextField
            multiline
            label={t("vouchers.purchase.message")}
            name="message"
            rows={3}
            maxLength={500}
            defaultValue={values.message ?? ""}
            error={error("message")}
          />
          <button type="submit" className="btn-primary w-full py-3 text-base sm:w-auto" disabled={navigation.state === "submitting"}>
            {t("vouchers.purchase.add")}
          </button>
        </Form>
        <p className="text-sm text-muted">{t("vouchers.purchase.noVat")}</p>
        <p>
          <Link to={localizedHref("/carta-regalo", locale)} className="font-semibold text-brand-800 underline">
            {t("giftCards.balance.title")}
          </Link>
        </p>
      </div>
    </>
  );
}
