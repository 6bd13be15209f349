import { useEffect, useRef, type ReactNode, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { useNavigation } from "react-router";
import { TextField } from "./form-field";

/** Field -> message key (auth.errors.*), as the accounts actions return them. */
export type FormErrors = Partial<Record<string, string>>;

/** Translates a field's message key, with the field's length limit for "too long". */
export function useErrorText(errors: FormErrors | undefined, limits: Partial<Record<string, number>> = {}) {
  const { t } = useTranslation();
  return (field: string) => {
    const key = errors?.[field];
    return key ? t(key, { max: limits[field] }) : undefined;
  };
}

/** After a refused submission, take the keyboard to the first field to fix (or the form's message). */
export function useFocusFirstProblem(formRef: RefObject<HTMLFormElement | null>, errors: FormErrors | undefined) {
  useEffect(() => {
    if (!errors || Object.keys(errors).length === 0) return;
    const target = formRef.current?.querySelector<HTMLElement>("[aria-invalid=true], [data-form-message]");
    target?.focus();
  }, [errors, formRef]);
}

/** A message about the whole form (or the page): success and information are polite, problems assertive. */
export function AccountNotice({ kind, children, id }: { kind: "success" | "error" | "info"; children: ReactNode; id?: string }) {
  const styles = {
    success: "border-brand-600 bg-brand-50 text-brand-900",
    info: "border-brand-200 bg-white text-ink",
    error: "border-coral-600 bg-coral-50 text-coral-700",
  }[kind];
  return (
    <div
      id={id}
      role={kind === "error" ? "alert" : "status"}
      tabIndex={-1}
      data-form-message={kind === "error" ? "" : undefined}
      className={`rounded-xl border-2 p-4 font-semibold ${styles}`}
    >
      {children}
    </div>
  );
}

/** The form's submit button, which says so while the form (the one with this `intent`) is being sent. */
export function SubmitButton({
  children,
  busyLabel,
  intent,
  className = "btn-primary",
}: {
  children: ReactNode;
  busyLabel: string;
  intent?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button type="submit" className={className} disabled={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}

/** A form and its refs, so the focus moves to its first problem. */
export function useFormWithProblems(errors: FormErrors | undefined) {
  const ref = useRef<HTMLFormElement>(null);
  useFocusFirstProblem(ref, errors);
  return ref;
}

/** A new password and its confirmation (registration, reset, change), with the rules as hints. */
export function NewPasswordFields({
  errorText,
  label,
  limits,
}: {
  errorText: (field: string) => string | undefined;
  label: "password" | "newPassword";
  limits: { password: number; passwordMin: number };
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t(`auth.fields.${label}`)}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={limits.passwordMin}
        maxLength={limits.password}
        hint={t("auth.fields.passwordHint", { min: limits.passwordMin })}
        error={errorText("password")}
      />
      <TextField
        label={t("auth.fields.passwordConfirm")}
        name="passwordConfirm"
        type="password"
        autoComplete="new-password"
        required
        maxLength={limits.password}
        hint={t("auth.fields.passwordConfirmHint")}
        error={errorText("passwordConfirm")}
      />
    </>
  );
}

/** A new account's name, e-mail and password (registration, the owner's setup), with what was typed kept after a refusal. */
export function NewAccountFields({
  errorText,
  limits,
  values,
}: {
  errorText: (field: string) => string | undefined;
  limits: { name: number; email: number; password: number; passwordMin: number };
  values?: { name?: string; email?: string };
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={t("auth.fields.name")}
        name="name"
        autoComplete="name"
        required
        maxLength={limits.name}
        defaultValue={values?.name}
        error={errorText("name")}
      />
      <TextField
        label={t("auth.fields.email")}
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={limits.email}
        defaultValue={values?.email}
        error={errorText("email")}
      />
      <NewPasswordFields errorText={errorText} label="password" limits={limits} />
    </>
  );
}
