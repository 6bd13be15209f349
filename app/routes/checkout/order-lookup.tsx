import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { orderLookupPath } from "#app/lib/order-lookup.ts";
import { keepRetryAfter } from "#app/lib/retry-after.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, SubmitButton, useErrorText, useFormWithProblems } from "#app/ui/account-form-parts.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { FormCardPage } from "#app/ui/form-card-page.tsx";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { refusalInit } from "#server/accounts/auth-flows.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { requestOrderLink } from "#server/orders/order-link.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/order-lookup";

/**
 * "Recedi dal contratto" for everyone (footer, help centre): the signed-in customer goes to her purchases; a
 * guest who lost the order's e-mail gets its link again by order number and e-mail
 * (docs/decisions/0090-withdrawal-function-for-guests.md).
 */

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["orderLookup", "auth.fields"] } satisfies MessagesHandle;

export async function loader({ url, context }: Route.LoaderArgs) {
  const { afterSales, shop } = await getSettings(context.get(shopContext).db, ["afterSales", "shop"]);
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "orderLookup"), withdrawalDays: afterSales.withdrawalDays, shopEmail: shop.email };
}

export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const result = await requestOrderLink(services.db, {
    raw: formFields(form),
    clientIp: context.get(requestContext).clientIp,
    now: shopNowOf(services, request),
    links: { publicUrl: services.publicUrl, secret: resolveAuthSecret(services.env) },
  });
  if (!result.ok) return data({ errors: result.errors, values: echoFields(form, ["orderNumber", "email"]) }, refusalInit(result));
  // The same answer whether or not the pair matched: a guess learns nothing.
  throw redirect(`${localizedHref(orderLookupPath, locale)}?sent=1`);
}

export default function OrderLookupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const [searchParams] = useSearchParams();
  const sent = searchParams.get("sent") === "1" && !actionData;
  const errors = actionData?.errors;
  const errorText = useErrorText(errors);
  const formRef = useFormWithProblems(errors);
  return (
    <FormCardPage
      title={t("orderLookup.title")}
      lead={t("orderLookup.lead", { days: loaderData.withdrawalDays })}
      cardId="lookup-title"
      cardTitle={t("orderLookup.formTitle")}
      before={
        <p>
          {t("orderLookup.signedIn")}{" "}
          <Link to={localizedHref("/shopping", locale)} className="link">
            {t("orderLookup.signedInLink")}
          </Link>
        </p>
      }
    >
      {sent ? (
        <div className="mt-6">
          <AccountNotice kind="success">
            <p>{t("orderLookup.sentTitle")}</p>
            <p className="mt-1 font-normal" data-testid="order-link-sent">
              {t("orderLookup.sent", { email: loaderData.shopEmail })}
            </p>
          </AccountNotice>
        </div>
      ) : (
        <Form ref={formRef} method="post" noValidate className="mt-4 space-y-5">
          <p>{t("orderLookup.formLead")}</p>
          {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
          <TextField
            label={t("orderLookup.orderNumber")}
            name="orderNumber"
            inputMode="numeric"
            autoComplete="off"
            required
            maxLength={20}
            hint={t("orderLookup.orderNumberHint")}
            defaultValue={actionData?.values.orderNumber}
            error={errorText("orderNumber")}
          />
          <TextField
            label={t("orderLookup.email")}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={actionData?.values.email}
            error={errorText("email")}
          />
          <SubmitButton busyLabel={t("orderLookup.submitting")} className="btn-primary px-8 py-3 text-base">
            {t("orderLookup.submit")}
          </SubmitButton>
        </Form>
      )}
    </FormCardPage>
  );
}
