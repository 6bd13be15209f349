import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AccountNotice, NewAccountFields, SubmitButton, useErrorText, useFormWithProblems, type FormErrors } from "#app/ui/account-form-parts.tsx";
import { PrivacyConsentField, TextField } from "#app/ui/form-field.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { oidcSettingsOf } from "#server/accounts/auth.ts";
import { authLimits, pathAfterLogin } from "#server/accounts/auth.inputs.ts";
import { logIn, mergeCartIntoAccount, refusalInit, registerCustomer, startOidcSignIn } from "#server/accounts/auth-flows.service.ts";
import { echoFields, formFields } from "#server/accounts/form-values.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { keepRetryAfter } from "#app/lib/retry-after.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/login-register";

const notices = ["registered", "reset", "loggedOut", "verified"] as const;

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["auth"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const redirectTo = pathAfterLogin(url.searchParams.get("redirectTo"), localizedHref("/my-account", locale));
  const user = await getSessionUser(context, request);
  if (user) {
    // Back from the external provider: the visitor's cart joins the account's, then on to the page asked for.
    const headers = url.searchParams.get("completed") === "oidc" ? await mergeCartIntoAccount(services, request, user.id) : undefined;
    throw redirect(redirectTo, { headers });
  }
  const notice = notices.find((candidate) => candidate === url.searchParams.get("notice")) ?? null;
  return {
    meta: getPageMetaTexts(locale, "auth.loginRegister"),
    redirectTo: url.searchParams.has("redirectTo") ? redirectTo : "",
    oidcName: oidcSettingsOf(services.env)?.name ?? null,
    oidcFailed: url.searchParams.has("oidcError"),
    notice,
    limits: authLimits,
  };
}

export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export async function action({ request, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const caller = { request, clientIp: context.get(requestContext).clientIp, locale };
  const form = await request.formData();
  const fields = formFields(form);
  const redirectTo = pathAfterLogin(fields.redirectTo, localizedHref("/my-account", locale));
  switch (fields.intent) {
    case "login": {
      const result = await logIn(services, caller, fields);
      if (!result.ok) {
        return data({ intent: "login" as const, errors: result.errors, values: echoFields(form, ["email"]) }, refusalInit(result));
      }
      throw redirect(redirectTo, { headers: result.headers });
    }
    case "register": {
      const result = await registerCustomer(services, caller, fields);
      if (!result.ok) {
        return data({ intent: "register" as const, errors: result.errors, values: echoFields(form, ["name", "email"]) }, refusalInit(result));
      }
      // Post/Redirect/Get; the same answer whether or not the address already had an account.
      const query = new URLSearchParams({ notice: "registered" });
      if (fields.redirectTo) query.set("redirectTo", redirectTo);
      throw redirect(`${localizedHref("/login-register", locale)}?${query}`);
    }
    case "oidc": {
      const started = await startOidcSignIn(services, caller, redirectTo);
      if (started.ok) throw redirect(started.url, { headers: started.headers });
      return data({ intent: "oidc" as const, errors: { form: "auth.errors.oidcUnavailable" }, values: {} }, { status: 400 });
    }
  }
  return data({ intent: null, errors: { form: "auth.errors.invalidRequest" }, values: {} }, { status: 400 });
}

type ActionData = Route.ComponentProps["actionData"];

/** The hidden fields of every form on the page: what it does and the page asked for. */
function IntentFields({ intent, redirectTo }: { intent: "login" | "register" | "oidc"; redirectTo: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
    </>
  );
}

/** One of the page's two cards: a heading, a lead and a form that takes the keyboard to its first problem. */
function AuthFormCard({
  intent,
  title,
  lead,
  redirectTo,
  errors,
  children,
  after,
}: {
  intent: "login" | "register";
  title: string;
  lead: string;
  redirectTo: string;
  errors: FormErrors | undefined;
  children: ReactNode;
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  const formRef = useFormWithProblems(errors);
  return (
    <section aria-labelledby={`${intent}-title`} className="rounded-3xl bg-white p-6 shadow-card sm:p-8">
      <h2 id={`${intent}-title`} className="text-2xl font-bold">
        {title}
      </h2>
      <p className="mt-1 text-muted">{lead}</p>
      <Form ref={formRef} method="post" noValidate className="mt-6 space-y-5">
        <IntentFields intent={intent} redirectTo={redirectTo} />
        {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
        {children}
      </Form>
      {after}
    </section>
  );
}

function LoginForm({ actionData, redirectTo, oidcName }: { actionData: ActionData; redirectTo: string; oidcName: string | null }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const mine = actionData?.intent === "login" ? actionData : undefined;
  const errors: FormErrors | undefined = mine?.errors;
  const errorText = useErrorText(errors);
  const oidcErrors = actionData?.intent === "oidc" ? actionData.errors : undefined;
  const oidcForm = oidcName && (
    <Form method="post" className="mt-6 border-t border-brand-100 pt-6">
      <IntentFields intent="oidc" redirectTo={redirectTo} />
      {oidcErrors?.form && <AccountNotice kind="error">{t(oidcErrors.form)}</AccountNotice>}
      <SubmitButton intent="oidc" busyLabel={t("auth.login.oidcStarting")} className="btn-secondary w-full py-3 text-base">
        {t("auth.login.oidc", { provider: oidcName })}
      </SubmitButton>
    </Form>
  );
  return (
    <AuthFormCard intent="login" title={t("auth.login.title")} lead={t("auth.login.lead")} redirectTo={redirectTo} errors={errors} after={oidcForm}>
      <TextField
        label={t("auth.fields.email")}
        name="email"
        type="email"
        autoComplete="username"
        required
        defaultValue={mine?.values.email}
        error={errorText("email")}
      />
      <TextField
        label={t("auth.fields.password")}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={errorText("password")}
      />
      <div className="flex flex-wrap items-center justify-between gap-4">
        <SubmitButton intent="login" busyLabel={t("auth.login.submitting")} className="btn-primary px-8 py-3 text-base">
          {t("auth.login.submit")}
        </SubmitButton>
        <Link to={localizedHref("/forgot-password", locale)} className="link text-sm">
          {t("auth.login.forgot")}
        </Link>
      </div>
    </AuthFormCard>
  );
}

function RegisterForm({ actionData, redirectTo, limits }: { actionData: ActionData; redirectTo: string; limits: typeof authLimits }) {
  const { t, i18n } = useTranslation();
  const mine = actionData?.intent === "register" ? actionData : undefined;
  const errors: FormErrors | undefined = mine?.errors;
  const errorText = useErrorText(errors, limits);
  return (
    <AuthFormCard intent="register" title={t("auth.register.title")} lead={t("auth.register.lead")} redirectTo={redirectTo} errors={errors}>
      <NewAccountFields errorText={errorText} limits={limits} values={mine?.values} />
      <PrivacyConsentField
        label={t("auth.register.privacy")}
        linkText={t("auth.register.privacyLink")}
        privacyHref={localizedHref("/privacy", i18n.language === "en" ? "en" : "it")}
        error={errorText("privacy")}
      />
      <SubmitButton intent="register" busyLabel={t("auth.register.submitting")} className="btn-coral px-8 py-3 text-base">
        {t("auth.register.submit")}
      </SubmitButton>
    </AuthFormCard>
  );
}

export default function LoginRegisterPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const { notice, oidcFailed, oidcName, redirectTo, limits } = loaderData;
  const showNotice = notice && !actionData && searchParams.get("notice") === notice;
  return (
    <>
      <PageHeader title={t("auth.loginRegister.title")}>
        <p>{t("auth.loginRegister.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-10">
        {showNotice && (
          <div className="mb-8">
            <AccountNotice kind={notice === "registered" ? "info" : "success"}>
              <p>{t(`auth.notices.${notice}.title`)}</p>
              <p className="mt-1 font-normal">{t(`auth.notices.${notice}.text`)}</p>
            </AccountNotice>
          </div>
        )}
        {oidcFailed && !actionData && (
          <div className="mb-8">
            <AccountNotice kind="error">{t("auth.errors.oidcFailed", { provider: oidcName ?? "OpenID" })}</AccountNotice>
          </div>
        )}
        <div className="grid gap-8 lg:grid-cols-2 lg:items-start">
          <LoginForm key={`login:${notice ?? ""}`} actionData={actionData} redirectTo={redirectTo} oidcName={oidcName} />
          <RegisterForm key={`register:${notice ?? ""}`} actionData={actionData} redirectTo={redirectTo} limits={limits} />
        </div>
      </div>
    </>
  );
}
