/**
 * Changes the signed-in person makes to their own access: e-mail (confirmed from the new address),
 * password (the current one is required), and deleting the account. better-auth does the work;
 * these map its answers to the form's messages.
 */
import { isAPIError } from "better-auth/api";
import { localizedHref } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { auditLog } from "#server/db/schema.ts";
import { DeleteAccountInput, ChangeEmailInput, ChangePasswordInput } from "./profile.inputs";
import { authHeaders, withAuthLocale } from "./auth-request";
import { cookiesOf, type AuthCaller, type AuthServices, type FormResult } from "./auth-flows.service";
import type { SessionUser } from "./session-user";
import { findPasswordProblem } from "./passwords";
import { errorKey, parseWith, type FieldErrors } from "./text-rules";

type WithCookies = { ok: true; headers: Headers } | { ok: false; errors: FieldErrors };

/**
 * Sends a confirmation link to the new address; the address changes when it is opened. An address
 * that belongs to another account gets the same answer (and no mail), so nothing is revealed.
 */
export async function changeEmail(services: AuthServices, caller: AuthCaller, user: SessionUser, raw: unknown): Promise<FormResult> {
  const parsed = parseWith(ChangeEmailInput, raw);
  if (!parsed.ok) return parsed;
  if (parsed.value.newEmail === user.email.toLowerCase()) return { ok: false, errors: { newEmail: errorKey("sameEmail") } };
  await withAuthLocale(caller.locale, () =>
    services.auth.api.changeEmail({
      body: { newEmail: parsed.value.newEmail, callbackURL: localizedHref("/my-account", caller.locale) },
      headers: authHeaders(caller.request, caller.clientIp),
    }),
  );
  return { ok: true };
}

/** A new password; the other devices are signed out and this one gets a fresh session cookie. */
export async function changePassword(services: AuthServices, caller: AuthCaller, user: SessionUser, raw: unknown): Promise<WithCookies> {
  const parsed = parseWith(ChangePasswordInput, raw);
  if (!parsed.ok) return parsed;
  const problem = await findPasswordProblem(parsed.value.password, [user.name, user.email]);
  if (problem) return { ok: false, errors: { password: errorKey(problem) } };
  try {
    const result = await services.auth.api.changePassword({
      body: { currentPassword: parsed.value.currentPassword, newPassword: parsed.value.password, revokeOtherSessions: true },
      headers: authHeaders(caller.request, caller.clientIp),
      returnHeaders: true,
    });
    return { ok: true, headers: cookiesOf(result.headers) };
  } catch (error) {
    if (!isAPIError(error)) throw error;
    const code = error.body?.code;
    if (code === "INVALID_PASSWORD") return { ok: false, errors: { currentPassword: errorKey("currentPasswordWrong") } };
    if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") return { ok: false, errors: { form: errorKey("noPasswordSet") } };
    if (code === "PASSWORD_TOO_COMMON") return { ok: false, errors: { password: errorKey("passwordTooCommon") } };
    throw error;
  }
}

/**
 * Deletes the account after the password (or, for accounts without one, the e-mail address typed
 * again). Sessions, addresses, profile, wishlist, carts and gift lists go with it (database
 * cascades); orders stay, without the account, as the shop's accounting records.
 */
export async function deleteAccount(
  services: AuthServices,
  caller: AuthCaller,
  user: SessionUser & { hasPassword: boolean },
  raw: unknown,
): Promise<WithCookies> {
  const parsed = parseWith(DeleteAccountInput, raw);
  if (!parsed.ok) return parsed;
  const { password = "", confirmEmail = "" } = parsed.value;
  if (user.hasPassword && password === "") return { ok: false, errors: { password: errorKey("currentPasswordRequired") } };
  if (!user.hasPassword && confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) {
    return { ok: false, errors: { confirmEmail: errorKey("deleteConfirmWrong") } };
  }
  let headers: Headers;
  try {
    const result = await services.auth.api.deleteUser({
      body: user.hasPassword ? { password } : {},
      headers: authHeaders(caller.request, caller.clientIp),
      returnHeaders: true,
    });
    headers = cookiesOf(result.headers);
  } catch (error) {
    if (!isAPIError(error)) throw error;
    const code = error.body?.code;
    if (code === "INVALID_PASSWORD") return { ok: false, errors: { password: errorKey("currentPasswordWrong") } };
    if (code === "SESSION_EXPIRED") return { ok: false, errors: { form: errorKey("sessionNotFresh") } };
    throw error;
  }
  await services.db.insert(auditLog).values({ action: "account.deleted", entity: "user", entityId: user.id, details: {} });
  headers.append("Set-Cookie", readCartRequest(caller.request, services).cookieHeaders.clearCart());
  return { ok: true, headers };
}
