import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, NewPasswordFields, SubmitButton, useErrorText, useFormWithProblems } from "#app/ui/account-form-parts.tsx";
import { FormCardPage } from "#app/ui/form-card-page.tsx";
import { authLimits, tokenField } from "#server/accounts/auth.inputs.ts";
import { resetPassword } from "#server/accounts/auth-flows.service.ts";
import { formFields } from "#server/accounts/form-values.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/reset-password";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth"] } satisfies MessagesHandle;

export function loader({ url }: Route.LoaderArgs) {
  const token = tokenField.safeParse(url.searchParams.get("token") ?? "");
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "auth.reset"),
    token: token.success ? token.data : null,
    limits: authLimits,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const locale = localeOfPath(url.pathname);
  const form = await request.formData();
  const result = await resetPassword(context.get(shopContext), { request, clientIp: context.get(requestContext).clientIp, locale }, formFields(form));
  if (!result.ok) return data({ errors: result.errors }, { status: 400 });
  throw redirect(`${localizedHref("/login-register", locale)}?notice=reset`);
}

function InvalidLink() {
  const { t, i18n } = useTranslation();
  return (
    <div className="mt-6 space-y-4">
      <AccountNotice kind="error">{t("auth.errors.resetLinkInvalid")}</AccountNotice>
      <Link to={localizedHref("/forgot-password", i18n.language === "en" ? "en" : "it")} className="btn-primary">
        {t("auth.reset.requestNew")}
      </Link>
    </div>
  );
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { token, limits } = loaderData;
  const errors = actionData?.errors;
  const errorText = useErrorText(errors, limits);
  const formRef = useFormWithProblems(errors);
  return (
    <FormCardPage title={t("auth.reset.title")} lead={t("auth.reset.lead")} cardId="reset-title" cardTitle={t("auth.reset.formTitle")}>
      {!token || errors?.form === "auth.errors.resetLinkInvalid" ? (
        <InvalidLink />
      ) : (
        <Form ref={formRef} method="post" noValidate className="mt-6 space-y-5">
          <input type="hidden" name="token" value={token} />
          {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
          <NewPasswordFields errorText={errorText} label="newPassword" limits={limits} />
          <SubmitButton busyLabel={t("auth.reset.submitting")} className="btn-primary px-8 py-3 text-base">
            {t("auth.reset.submit")}
          </SubmitButton>
        </Form>
      )}
    </FormCardPage>
  );
}
