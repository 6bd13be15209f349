import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, SubmitButton, useErrorText, useFormWithProblems } from "#app/ui/account-form-parts.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { FormCardPage } from "#app/ui/form-card-page.tsx";
import { refusalInit, requestPasswordReset } from "#server/accounts/auth-flows.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { keepRetryAfter } from "#app/lib/retry-after.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/forgot-password";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  return { meta: getPageMetaTexts(localeOfPath(url.pathname), "auth.forgot") };
}

export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const result = await requestPasswordReset(
    context.get(shopContext),
    { request, clientIp: context.get(requestContext).clientIp, locale },
    formFields(form),
  );
  if (!result.ok) {
    return data({ errors: result.errors, values: echoFields(form, ["email"]) }, refusalInit(result));
  }
  // The same answer for every address (never say whether it has an account).
  throw redirect(`${localizedHref("/forgot-password", locale)}?sent=1`);
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const [searchParams] = useSearchParams();
  const sent = searchParams.get("sent") === "1" && !actionData;
  const errors = actionData?.errors;
  const errorText = useErrorText(errors);
  const formRef = useFormWithProblems(errors);
  return (
    <FormCardPage title={t("auth.forgot.title")} lead={t("auth.forgot.lead")} cardId="forgot-title" cardTitle={t("auth.forgot.formTitle")}>
      {sent ? (
        <div className="mt-6 space-y-4">
          <AccountNotice kind="success">
            <p>{t("auth.forgot.sentTitle")}</p>
            <p className="mt-1 font-normal">{t("auth.forgot.sentText")}</p>
          </AccountNotice>
          <Link to={localizedHref("/login-register", locale)} className="link inline-block">
            {t("auth.forgot.backToLogin")}
          </Link>
        </div>
      ) : (
        <Form ref={formRef} method="post" noValidate className="mt-6 space-y-5">
          {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
          <TextField
            label={t("auth.fields.email")}
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.values.email}
            error={errorText("email")}
          />
          <div className="flex flex-wrap items-center justify-between gap-4">
            <SubmitButton busyLabel={t("auth.forgot.submitting")} className="btn-primary px-8 py-3 text-base">
              {t("auth.forgot.submit")}
            </SubmitButton>
            <Link to={localizedHref("/login-register", locale)} className="link text-sm">
              {t("auth.forgot.backToLogin")}
            </Link>
          </div>
        </Form>
      )}
    </FormCardPage>
  );
}
