/** Login, registration and password-reset forms as they arrive from outside. */
import { z } from "zod";
import { sameSitePath } from "#server/http/same-site-path.ts";
import {
  checkNewPasswordPair,
  whenPasswordsTyped,
  emailField,
  errorKey,
  passwordConfirmField,
  passwordField,
  personNameChars,
  textLine,
} from "./text-rules";

export const authLimits = { name: 100, email: 254, password: 128, passwordMin: 8 } as const;

export const LoginInput = z.object({
  email: emailField(),
  password: passwordField(),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const personName = () => textLine({ required: "nameRequired", max: authLimits.name, allowed: personNameChars, invalid: "nameInvalid" });

export const RegisterInput = z
  .object({
    name: personName(),
    email: emailField(),
    password: passwordField(),
    passwordConfirm: passwordConfirmField,
    privacy: z.literal("on", { error: errorKey("privacyRequired") }),
  })
  .superRefine(checkNewPasswordPair, whenPasswordsTyped);
export type RegisterInput = z.infer<typeof RegisterInput>;

export const ForgotPasswordInput = z.object({ email: emailField() });

/** Reset tokens are better-auth's random ids: letters and digits only. */
export const tokenField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,200}$/, errorKey("resetLinkInvalid"));

export const ResetPasswordInput = z
  .object({ token: tokenField, password: passwordField(), passwordConfirm: passwordConfirmField })
  .superRefine(checkNewPasswordPair, whenPasswordsTyped);
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

/** E-mail verification tokens are signed JWTs. */
export const VerificationToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  .max(2000);

/** Where to go after logging in: a path of this shop, but never back to the pages that only make sense logged out. */
export function pathAfterLogin(value: unknown, fallback: string): string {
  const path = sameSitePath(value);
  if (!path || /^(\/en)?\/(login-register|logout)([/?#]|$)/.test(path)) return fallback;
  return path;
}
