/** The /my-account forms (profile, e-mail, password, account deletion) as they arrive from outside. */
import { z } from "zod";
import { personName } from "./auth.inputs";
import { isValidFiscalCode, normaliseFiscalCode } from "./fiscal-code";
import { checkNewPasswordPair, whenPasswordsTyped, emailField, errorKey, passwordConfirmField, passwordField, optionalTextLine } from "./text-rules";

export const profileLimits = { name: 100, phone: 20, fiscalCode: 16 } as const;

export const phoneChars = /^\+?[0-9][0-9 ./()-]{5,}$/;

export const optionalPhone = () => optionalTextLine({ max: profileLimits.phone, allowed: phoneChars, invalid: "phoneInvalid" });

export const ProfileInput = z.object({
  name: personName(),
  phone: optionalPhone(),
  fiscalCode: z.preprocess(
    (value) => (typeof value === "string" ? normaliseFiscalCode(value) : (value ?? "")),
    z
      .string({ error: errorKey("fiscalCodeInvalid") })
      .max(profileLimits.fiscalCode, errorKey("fiscalCodeInvalid"))
      .refine((value) => value === "" || isValidFiscalCode(value), errorKey("fiscalCodeInvalid"))
      .transform((value) => value || null),
  ),
});
export type ProfileInput = z.infer<typeof ProfileInput>;

export const ChangeEmailInput = z.object({ newEmail: emailField() });

export const ChangePasswordInput = z
  .object({ currentPassword: passwordField("currentPasswordRequired"), password: passwordField(), passwordConfirm: passwordConfirmField })
  .superRefine(checkNewPasswordPair, whenPasswordsTyped);
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

/** Deleting the account: the password, or (accounts without one, e.g. OpenID) the e-mail address typed again. */
export const DeleteAccountInput = z.object({
  password: z.string().max(128, errorKey("passwordTooLong")).optional(),
  confirmEmail: z.string().max(254, errorKey("deleteConfirmWrong")).optional(),
});
