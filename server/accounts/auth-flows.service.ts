/**
 * The account use-cases behind the pages: register, log in and out, reset the password, verify the
 * e-mail address, sign in with the external provider. Each calls better-auth server-side
 * (auth.api.*) and returns values: field errors as message keys, or the Set-Cookie headers the
 * page must forward. Messages never say whether an address has an account.
 */
import { isAPIError } from "better-auth/api";
import { localizedHref, type Locale } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { findCartIdOfUser, mergeCarts } from "#server/cart/cart.service.ts";
import { moveCartVouchers } from "#server/vouchers/voucher.service.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput, VerificationToken } from "./auth.inputs";
import { oidcProviderId, oidcSettingsOf } from "./auth";
import { authHookErrors } from "./auth-hooks";
import { authHeaders, withAuthLocale } from "./auth-request";
import { findPasswordProblem } from "./passwords";
import { errorKey, parseWith, type FieldErrors } from "./text-rules";

export type AuthServices = Pick<ShopServices, "db" | "auth" | "env" | "publicUrl">;

/** The person's request as the page action sees it. */
export type AuthCaller = { request: Request; clientIp: string; locale: Locale };

/** A refused form; `retryAfterSeconds` when it was refused for too many attempts (the answer is then 429). */
export type FormRefusal = { ok: false; errors: FieldErrors; retryAfterSeconds?: number };
export type FormResult = { ok: true } | FormRefusal;
export type SignedInResult = { ok: true; headers: Headers; userId: string } | FormRefusal;

const formError = (code: string): FormRefusal => ({ ok: false, errors: { form: errorKey(code) } });

/** A throttled attempt: the form's message, and the wait our hook put in Retry-After (auth-hooks.ts). */
function throttled(code: string, error: { headers?: HeadersInit }): FormRefusal {
  const seconds = Number(new Headers(error.headers).get("Retry-After"));
  return { ...formError(code), retryAfterSeconds: Number.isInteger(seconds) && seconds > 0 ? seconds : 60 };
}

/** How a page answers a refused form: 429 with Retry-After (seconds) when throttled, else 400. */
export function refusalInit(refusal: FormRefusal): ResponseInit {
  if (refusal.retryAfterSeconds === undefined) return { status: 400 };
  return { status: 429, headers: { "Retry-After": String(refusal.retryAfterSeconds) } };
}

/** Maps our hooks' and better-auth's refusals to the form's messages; anything else is a bug. */
function refusalOf(error: unknown, fields: Record<string, string> = {}): FormRefusal {
  if (!isAPIError(error)) throw error;
  const code = (error.body as { code?: string } | undefined)?.code ?? "";
  switch (code) {
    case authHookErrors.tooManyAttempts:
      return throttled("tooManyAttempts", error);
    case authHookErrors.tooManyResetRequests:
      return throttled("tooManyResetRequests", error);
    case authHookErrors.tooManySignUps:
      return throttled("tooManySignUps", error);
    case authHookErrors.passwordTooCommon:
      return { ok: false, errors: { [fields.password ?? "password"]: errorKey("passwordTooCommon") } };
    case authHookErrors.passwordLikePersonal:
      return { ok: false, errors: { [fields.password ?? "password"]: errorKey("passwordLikePersonal") } };
    case authHookErrors.nameInvalid:
      return { ok: false, errors: { name: errorKey("nameInvalid") } };
    case "INVALID_EMAIL":
      return { ok: false, errors: { email: errorKey("emailInvalid") } };
    case "PASSWORD_TOO_SHORT":
      return { ok: false, errors: { [fields.password ?? "password"]: errorKey("passwordTooShort") } };
    case "PASSWORD_TOO_LONG":
      return { ok: false, errors: { [fields.password ?? "password"]: errorKey("passwordTooLong") } };
  }
  throw error;
}

/** The Set-Cookie headers of a better-auth answer, to forward on the page's response. */
export function cookiesOf(headers: Headers | null | undefined): Headers {
  const out = new Headers();
  for (const cookie of headers?.getSetCookie() ?? []) out.append("Set-Cookie", cookie);
  return out;
}

/**
 * The visitor's anonymous cart joins the account's cart (docs/rules.md#cart): its cookie then names
 * the account's cart.
 */
export async function mergeCartIntoAccount(services: AuthServices, request: Request, userId: string): Promise<Headers> {
  const cartRequest = readCartRequest(request, services);
  // Her voucher lines first: the merge below deletes the guest's cart, and its voucher lines with it.
  const accountCartId = cartRequest.cartId ? await findCartIdOfUser(services.db, userId) : null;
  if (cartRequest.cartId && accountCartId && accountCartId !== cartRequest.cartId) {
    await moveCartVouchers(services.db, { fromCartId: cartRequest.cartId, toCartId: accountCartId });
  }
  const merged = await mergeCarts(services.db, { fromCartId: cartRequest.cartId, toUserId: userId });
  const headers = new Headers();
  if (merged.cartId && merged.cartId !== cartRequest.cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(merged.cartId));
  return headers;
}

/**
 * A new account. Never signs in and always answers the same: "check your e-mail" (a new address gets
 * the verification link, an existing one a note to its owner), so the page reveals nothing.
 */
export async function registerCustomer(services: AuthServices, caller: AuthCaller, raw: unknown): Promise<FormResult> {
  const parsed = parseWith(RegisterInput, raw);
  if (!parsed.ok) return parsed;
  const { name, email, password } = parsed.value;
  const problem = await findPasswordProblem(password, [name, email]);
  if (problem) return { ok: false, errors: { password: errorKey(problem) } };
  try {
    await withAuthLocale(caller.locale, () =>
      services.auth.api.signUpEmail({
        body: { name, email, password, callbackURL: localizedHref("/my-account", caller.locale) },
        headers: authHeaders(caller.request, caller.clientIp),
      }),
    );
  } catch (error) {
    return refusalOf(error);
  }
  return { ok: true };
}

/** Logs in with e-mail and password; the 6th wrong password within a minute is refused (auth-hooks.ts). */
export async function logIn(services: AuthServices, caller: AuthCaller, raw: unknown): Promise<SignedInResult> {
  const parsed = parseWith(LoginInput, raw);
  if (!parsed.ok) return parsed;
  let result;
  try {
    result = await withAuthLocale(caller.locale, () =>
      services.auth.api.signInEmail({
        body: { email: parsed.value.email, password: parsed.value.password, rememberMe: true },
        headers: authHeaders(caller.request, caller.clientIp),
        returnHeaders: true,
      }),
    );
  } catch (error) {
    if (isAPIError(error) && (error.statusCode === 401 || error.body?.code === "INVALID_EMAIL_OR_PASSWORD")) return formError("invalidCredentials");
    if (isAPIError(error) && error.statusCode === 403) return formError("accountBlocked");
    return refusalOf(error);
  }
  const headers = cookiesOf(result.headers);
  const userId = result.response.user.id;
  for (const cookie of (await mergeCartIntoAccount(services, caller.request, userId)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ok: true, headers, userId };
}

/** Ends this browser's session; the cart cookie goes too (the cart stays with the account). */
export async function logOut(services: AuthServices, caller: AuthCaller): Promise<Headers> {
  let headers: Headers;
  try {
    const result = await services.auth.api.signOut({ headers: authHeaders(caller.request, caller.clientIp), returnHeaders: true });
    headers = cookiesOf(result.headers);
  } catch (error) {
    if (!isAPIError(error)) throw error;
    headers = new Headers();
  }
  headers.append("Set-Cookie", readCartRequest(caller.request, services).cookieHeaders.clearCart());
  return headers;
}

/** Ends every session of the account, on every device, this one included. */
export async function logOutEverywhere(services: AuthServices, caller: AuthCaller): Promise<Headers> {
  await services.auth.api.revokeSessions({ headers: authHeaders(caller.request, caller.clientIp) });
  return logOut(services, caller);
}

/** Always the same answer for known and unknown addresses; the link is single use and lasts an hour. */
export async function requestPasswordReset(services: AuthServices, caller: AuthCaller, raw: unknown): Promise<FormResult> {
  const parsed = parseWith(ForgotPasswordInput, raw);
  if (!parsed.ok) return parsed;
  try {
    await withAuthLocale(caller.locale, () =>
      services.auth.api.requestPasswordReset({
        body: { email: parsed.value.email, redirectTo: localizedHref("/reset-password", caller.locale) },
        headers: authHeaders(caller.request, caller.clientIp),
      }),
    );
  } catch (error) {
    return refusalOf(error);
  }
  return { ok: true };
}

/** Sets the new password; every session of the account ends (revokeSessionsOnPasswordReset). */
export async function resetPassword(services: AuthServices, caller: AuthCaller, raw: unknown): Promise<FormResult> {
  const parsed = parseWith(ResetPasswordInput, raw);
  if (!parsed.ok) return parsed.errors.token ? formError("resetLinkInvalid") : parsed;
  const problem = await findPasswordProblem(parsed.value.password);
  if (problem) return { ok: false, errors: { password: errorKey(problem) } };
  try {
    await services.auth.api.resetPassword({
      body: { newPassword: parsed.value.password, token: parsed.value.token },
      headers: authHeaders(caller.request, caller.clientIp),
    });
  } catch (error) {
    if (isAPIError(error) && error.body?.code === "INVALID_TOKEN") return formError("resetLinkInvalid");
    return refusalOf(error, { password: "password" });
  }
  return { ok: true };
}

export type VerifyResult =
  { ok: true; headers: Headers; signedInUserId: string | null } | { ok: false; error: "verifyLinkInvalid" | "verifyLinkExpired" };

/** Confirms an address (a new account's, or the new one of an e-mail change); a new account is signed in. */
export async function verifyEmail(services: AuthServices, caller: AuthCaller, rawToken: unknown): Promise<VerifyResult> {
  const token = VerificationToken.safeParse(rawToken);
  if (!token.success) return { ok: false, error: "verifyLinkInvalid" };
  let result;
  try {
    result = await services.auth.api.verifyEmail({
      query: { token: token.data },
      headers: authHeaders(caller.request, caller.clientIp),
      returnHeaders: true,
    });
  } catch (error) {
    if (!isAPIError(error)) throw error;
    return { ok: false, error: error.body?.code === "TOKEN_EXPIRED" ? "verifyLinkExpired" : "verifyLinkInvalid" };
  }
  const headers = cookiesOf(result.headers);
  // A new account is signed in by the link: better-auth sets the session cookie (and answers no user).
  const userId = await userIdOfNewSession(services, headers);
  if (userId)
    for (const cookie of (await mergeCartIntoAccount(services, caller.request, userId)).getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ok: true, headers, signedInUserId: userId };
}

/** The account a response's fresh session cookie belongs to, or null when it sets none. */
async function userIdOfNewSession(services: AuthServices, headers: Headers): Promise<string | null> {
  const pairs = headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((pair) => /session_token=./.test(pair));
  if (pairs.length === 0) return null;
  const session = await services.auth.api.getSession({ headers: new Headers({ Cookie: pairs.join("; ") }) });
  return session?.user.id ?? null;
}

/** Sends the verification link again to the signed-in person's address. */
export async function resendVerificationEmail(services: AuthServices, caller: AuthCaller, email: string): Promise<FormResult> {
  try {
    await withAuthLocale(caller.locale, () =>
      services.auth.api.sendVerificationEmail({
        body: { email, callbackURL: localizedHref("/my-account", caller.locale) },
        headers: authHeaders(caller.request, caller.clientIp),
      }),
    );
  } catch (error) {
    return refusalOf(error);
  }
  return { ok: true };
}

/**
 * Starts the sign-in with the external OpenID Connect provider: the page redirects the browser to
 * `url` with `headers` (better-auth's state cookie). Back from the provider, better-auth sends the
 * browser to `callbackPath`, which finishes the login (cart merge) and goes on to `redirectTo`.
 */
export async function startOidcSignIn(
  services: AuthServices,
  caller: AuthCaller,
  redirectTo: string,
): Promise<{ ok: true; url: string; headers: Headers } | { ok: false }> {
  if (!oidcSettingsOf(services.env)) return { ok: false };
  const loginPath = localizedHref("/login-register", caller.locale);
  const result = await services.auth.api.signInSocial({
    body: {
      provider: oidcProviderId,
      callbackURL: `${loginPath}?${new URLSearchParams({ completed: "oidc", redirectTo })}`,
      errorCallbackURL: `${loginPath}?${new URLSearchParams({ oidcError: "1", redirectTo })}`,
      disableRedirect: true,
    },
    headers: authHeaders(caller.request, caller.clientIp),
    returnHeaders: true,
  });
  const url = (result.response as { url?: string }).url;
  if (!url) return { ok: false };
  return { ok: true, url, headers: cookiesOf(result.headers) };
}
