import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { AccountNotice, SubmitButton, useErrorText, useFormWithProblems, type FormErrors } from "./account-form-parts";
import { TextField } from "./form-field";

type FormState = { errors?: FormErrors; values?: Partial<Record<string, string>> } | undefined;

export type ProfileView = { name: string; email: string; emailVerified: boolean; phone: string | null; fiscalCode: string | null };

/** Whether the address is confirmed, with a button to send the link again when it is not. */
export function EmailStatus({ profile, locale, state }: { profile: ProfileView; locale: Locale; state: FormState }) {
  const { t } = useTranslation();
  if (profile.emailVerified) {
    return <p className="inline-flex rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-900">{t("myAccount.email.verified")}</p>;
  }
  return (
    <div className="mt-2 space-y-3 rounded-2xl border-2 border-sun-100 bg-sun-50 p-4">
      <p className="font-semibold">{t("myAccount.email.notVerified")}</p>
      <p className="text-sm">{t("myAccount.email.notVerifiedHelp")}</p>
      {state?.errors?.form && <AccountNotice kind="error">{t(state.errors.form)}</AccountNotice>}
      <Form method="post" action={localizedHref("/my-account", locale)}>
        <input type="hidden" name="intent" value="resend-verification" />
        <SubmitButton intent="resend-verification" busyLabel={t("myAccount.sending")} className="btn-secondary">
          {t("myAccount.email.resend")}
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ProfileForm({
  profile,
  state,
  limits,
  locale,
}: {
  profile: ProfileView;
  state: FormState;
  limits: Record<string, number>;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const errors = state?.errors;
  const errorText = useErrorText(errors, limits);
  const formRef = useFormWithProblems(errors);
  const value = (field: "name" | "phone" | "fiscalCode") => state?.values?.[field] ?? profile[field] ?? "";
  return (
    <Form ref={formRef} method="post" action={localizedHref("/my-account", locale)} noValidate className="space-y-5">
      <input type="hidden" name="intent" value="profile" />
      {errors?.form && <AccountNotice kind="error">{t(errors.form)}</AccountNotice>}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2"
          label={t("auth.fields.name")}
          name="name"
          autoComplete="name"
          required
          maxLength={limits.name}
          defaultValue={value("name")}
          error={errorText("name")}
        />
        <TextField
          label={t("myAccount.profile.phone")}
          name="phone"
          type="tel"
          autoComplete="tel"
          maxLength={limits.phone}
          hint={t("myAccount.profile.phoneHint")}
          defaultValue={value("phone")}
          error={errorText("phone")}
        />
        <TextField
          label={t("myAccount.profile.fiscalCode")}
          name="fiscalCode"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={limits.fiscalCode}
          hint={t("myAccount.profile.fiscalCodeHint")}
          defaultValue={value("fiscalCode")}
          error={errorText("fiscalCode")}
        />
      </div>
      <SubmitButton intent="profile" busyLabel={t("myAccount.saving")}>
        {t("myAccount.profile.save")}
      </SubmitButton>
    </Form>
  );
}
