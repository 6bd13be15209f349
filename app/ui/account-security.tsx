import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AccountNotice, NewPasswordFields, SubmitButton, useErrorText, useFormWithProblems, type FormErrors } from "./account-form-parts";
import { TextField } from "./form-field";

type FormState = { errors?: FormErrors; values?: Partial<Record<string, string>> } | undefined;

export function ChangeEmailForm({ currentEmail, state, locale }: { currentEmail: string; state: FormState; locale: Locale }) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const errorText = useErrorText(errors);
  const formRef = useFormWithProblems(errors);
  return (
    <Form
      ref={formRef}
      method="post"
      action={localizedHref("/my-account", locale)}
      noValidate
      className="space-y-4"
      aria-labelledby="change-email-title"
    >
      <h3 id="change-email-title" className="text-lg font-bold">
        {t("myAccount.email.changeTitle")}
      </h3>
      <p className="text-sm text-muted">{t("myAccount.email.current", { email: currentEmail })}</p>
      <input type="hidden" name="intent" value="email" />
      <TextField
        label={t("myAccount.email.newEmail")}
        name="newEmail"
        type="email"
        autoComplete="email"
        required
        hint={t("myAccount.email.newEmailHint")}
        defaultValue={state?.values?.newEmail}
        error={errorText("newEmail")}
      />
      <SubmitButton intent="email" busyLabel={t("myAccount.sending")}>
        {t("myAccount.email.change")}
      </SubmitButton>
    </Form>
  );
}

export function ChangePasswordForm({
  hasPassword,
  oidcName,
  state,
  limits,
  locale,
}: {
  hasPassword: boolean;
  oidcName: string | null;
  state: FormState;
  limits: { password: number; passwordMin: number };
  locale: Locale;
}) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const errorText = useErrorText(errors, limits);
  const formRef = useFormWithProblems(errors);
  if (!hasPassword) {
    return (
      <div className="space-y-2">
        <h3 className="text-lg font-bold">{t("myAccount.password.title")}</h3>
        <p className="text-sm">{t("myAccount.password.noPassword", { provider: oidcName ?? "OpenID" })}</p>
      </div>
    );
  }
  return (
    <Form
      ref={formRef}
      method="post"
      action={localizedHref("/my-account", locale)}
      noValidate
      className="space-y-4"
      aria-labelledby="change-password-title"
    >
      <h3 id="change-password-title" className="text-lg font-bold">
        {t("myAccount.password.title")}
      </h3>
      <input type="hidden" name="intent" value="password" />
      {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
      <TextField
        label={t("myAccount.password.current")}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        error={errorText("currentPassword")}
      />
      <NewPasswordFields errorText={errorText} label="newPassword" limits={limits} />
      <p className="text-sm text-muted">{t("myAccount.password.othersSignedOut")}</p>
      <SubmitButton intent="password" busyLabel={t("myAccount.saving")}>
        {t("myAccount.password.change")}
      </SubmitButton>
    </Form>
  );
}

export function LogOutEverywhereForm({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action={localizedHref("/my-account", locale)} className="space-y-3" aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="text-lg font-bold">
        {t("myAccount.sessions.title")}
      </h3>
      <p className="text-sm">{t("myAccount.sessions.text")}</p>
      <input type="hidden" name="intent" value="logout-everywhere" />
      <SubmitButton intent="logout-everywhere" busyLabel={t("myAccount.sessions.submitting")} className="btn-secondary">
        {t("myAccount.sessions.submit")}
      </SubmitButton>
    </Form>
  );
}

export function PrivacyPanel({ hasPassword, state, locale }: { hasPassword: boolean; state: FormState; locale: Locale }) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const errorText = useErrorText(errors);
  const formRef = useFormWithProblems(errors);
  return (
    <div className="space-y-8">
      <div className="space-y-3">
        <h3 className="text-lg font-bold">{t("myAccount.privacy.downloadTitle")}</h3>
        <p className="text-sm">{t("myAccount.privacy.downloadText")}</p>
        {/* A file download, not a page: a plain link, outside the client router. */}
        <a href={localizedHref("/my-account/data", locale)} download className="btn-secondary">
          {t("myAccount.privacy.download")}
        </a>
      </div>
      <Form
        ref={formRef}
        method="post"
        action={localizedHref("/my-account", locale)}
        noValidate
        className="space-y-4 rounded-2xl border-2 border-coral-200 p-4"
        aria-labelledby="delete-title"
      >
        <h3 id="delete-title" className="text-lg font-bold text-coral-700">
          {t("myAccount.privacy.deleteTitle")}
        </h3>
        <p className="text-sm">{t("myAccount.privacy.deleteText")}</p>
        <input type="hidden" name="intent" value="delete-account" />
        {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
        {hasPassword ? (
          <TextField
            label={t("myAccount.privacy.deletePassword")}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={errorText("password")}
          />
        ) : (
          <TextField
            label={t("myAccount.privacy.deleteConfirmEmail")}
            name="confirmEmail"
            type="email"
            autoComplete="off"
            required
            error={errorText("confirmEmail")}
          />
        )}
        <SubmitButton intent="delete-account" busyLabel={t("myAccount.privacy.deleting")} className="btn-coral">
          {t("myAccount.privacy.delete")}
        </SubmitButton>
      </Form>
    </div>
  );
}
