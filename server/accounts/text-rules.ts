/**
 * Shared zod pieces for the accounts forms. Every message is a key of messages/{it,en}.json under
 * `auth.errors` (the code is also the message key); the page translates it, passing the field's
 * limit as `max`.
 */
import { z } from "zod";

export const errorKey = (code: string) => `auth.errors.${code}`;

/** Control characters, NUL included. */
export const controlChars = /[\u0000-\u001F\u007F-\u009F]/;

/** Field -> message key of its first problem. */
export type FieldErrors = Partial<Record<string, string>>;

type TextLineOptions = { max: number; allowed: RegExp; invalid: string };

/** A single line within `max` characters, refused with control characters or outside `allowed` (keeps out markup and SQL-looking input). */
function checkedLine({ max, allowed, invalid }: TextLineOptions, required: string) {
  return z
    .string({ error: errorKey(required) })
    .trim()
    .max(max, errorKey("tooLong"))
    .refine((value) => !controlChars.test(value), errorKey("invalidCharacters"))
    .refine((value) => value === "" || allowed.test(value), errorKey(invalid));
}

export function textLine(options: TextLineOptions & { required: string }) {
  return checkedLine(options, options.required).refine((value) => value.length > 0, errorKey(options.required));
}

/** Optional: absent or blank is null. */
export function optionalTextLine(options: TextLineOptions) {
  return z.preprocess((value) => value ?? "", checkedLine(options, options.invalid)).transform((value) => value || null);
}

/** Letters of any language, spaces, apostrophes (D'Angelo), dots and hyphens. */
export const personNameChars = /^[\p{L}\p{M}][\p{L}\p{M}' .\u2019-]*$/u;

export const emailLimit = 254;

export const emailField = (required = "emailRequired") =>
  z
    .string({ error: errorKey(required) })
    .trim()
    .min(1, errorKey(required))
    .max(emailLimit, errorKey("emailInvalid"))
    .pipe(z.email({ error: errorKey("emailInvalid") }))
    .transform((value) => value.toLowerCase());

/** A password as typed: kept verbatim (spaces count), only control characters are refused. */
export const passwordField = (required = "passwordRequired") =>
  z
    .string({ error: errorKey(required) })
    .min(1, errorKey(required))
    .max(128, errorKey("passwordTooLong"))
    .refine((value) => !controlChars.test(value), errorKey("invalidCharacters"));

export const passwordConfirmField = z.string({ error: errorKey("passwordConfirmRequired") });

/** A new password: at least 8 characters, and both entries must match (said on the second one). */
export function checkNewPasswordPair(value: { password: string; passwordConfirm: string }, ctx: z.RefinementCtx) {
  if (value.password.length > 0 && value.password.length < 8) {
    ctx.addIssue({ code: "custom", path: ["password"], message: errorKey("passwordTooShort") });
  }
  if (value.passwordConfirm === "") ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: errorKey("passwordConfirmRequired") });
  else if (value.passwordConfirm !== value.password) {
    ctx.addIssue({ code: "custom", path: ["passwordConfirm"], message: errorKey("passwordsDoNotMatch") });
  }
}

/** Compare the two entries even when other fields of the form have problems. */
export const whenPasswordsTyped = {
  when: (payload: { value: unknown }) => {
    const value = payload.value as { password?: unknown; passwordConfirm?: unknown } | undefined;
    return typeof value?.password === "string" && typeof value.passwordConfirm === "string";
  },
};

/** Collects zod issues into one message per field (the first). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export function parseWith<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.infer<S>> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, errors: fieldErrorsOf(parsed.error) };
}
