/**
 * Rules better-auth applies on every path that reaches it, the /api/auth endpoints and the page
 * actions' auth.api calls alike: login and reset limits per account and per address (counted in
 * the database, login-throttle.ts), refusal of common passwords, and name checks on sign-up.
 */
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { Db } from "#server/db/client.ts";
import { personName } from "./auth.inputs";
import { clientIpOf } from "./auth-request";
import { accountThrottleKey, ipThrottleKey, throttleRules, type ThrottleRule } from "./login-throttle";
import { countAttempt, forgetAttempts, takeBackAttempt } from "./login-throttle.service";
import { findPasswordProblem } from "./passwords";

/** Error codes our hooks answer with; the pages map them to messages (auth.errors.*). */
export const authHookErrors = {
  tooManyAttempts: "TOO_MANY_ATTEMPTS",
  tooManyResetRequests: "TOO_MANY_RESET_REQUESTS",
  tooManySignUps: "TOO_MANY_SIGN_UPS",
  passwordTooCommon: "PASSWORD_TOO_COMMON",
  passwordLikePersonal: "PASSWORD_LIKE_PERSONAL",
  nameInvalid: "NAME_INVALID",
  imageNotAllowed: "IMAGE_NOT_ALLOWED",
} as const;

type Body = Record<string, unknown> | undefined;
const stringOf = (value: unknown) => (typeof value === "string" ? value : "");

async function limit(db: Db, key: string, rule: ThrottleRule, code: string, message: string) {
  const verdict = await countAttempt(db, key, rule);
  if (!verdict.allowed) {
    throw new APIError("TOO_MANY_REQUESTS", { code, message }, { "Retry-After": String(Math.ceil(verdict.retryAfterMs / 1000)) });
  }
}

async function refuseWeakPassword(password: string, personal: string[]) {
  const problem = await findPasswordProblem(password, personal);
  if (problem === "passwordTooCommon") {
    throw new APIError("BAD_REQUEST", { code: authHookErrors.passwordTooCommon, message: "This password is too common or easy to guess." });
  }
  if (problem === "passwordLikePersonal") {
    throw new APIError("BAD_REQUEST", { code: authHookErrors.passwordLikePersonal, message: "The password must not contain your name or e-mail." });
  }
}

export function createAuthHooks(db: Db) {
  const before = createAuthMiddleware(async (ctx) => {
    const body = ctx.body as Body;
    const ip = clientIpOf(ctx.headers ?? ctx.request?.headers);
    switch (ctx.path) {
      case "/sign-in/email": {
        const message = "Too many attempts: try again in a minute.";
        if (ip) await limit(db, ipThrottleKey("login", ip), throttleRules.loginIp, authHookErrors.tooManyAttempts, message);
        await limit(db, accountThrottleKey("login", stringOf(body?.email)), throttleRules.loginAccount, authHookErrors.tooManyAttempts, message);
        return;
      }
      case "/request-password-reset": {
        const message = "Too many reset requests: try again later.";
        if (ip) await limit(db, ipThrottleKey("reset", ip), throttleRules.resetIp, authHookErrors.tooManyResetRequests, message);
        await limit(db, accountThrottleKey("reset", stringOf(body?.email)), throttleRules.resetAccount, authHookErrors.tooManyResetRequests, message);
        return;
      }
      case "/send-verification-email":
        await limit(
          db,
          accountThrottleKey("verification", stringOf(body?.email)),
          throttleRules.verificationAccount,
          authHookErrors.tooManyResetRequests,
          "Too many e-mails: try again later.",
        );
        return;
      case "/sign-up/email": {
        if (ip)
          await limit(
            db,
            ipThrottleKey("sign-up", ip),
            throttleRules.signUpIp,
            authHookErrors.tooManySignUps,
            "Too many sign-ups from this address: try again later.",
          );
        if (!personName().safeParse(body?.name).success)
          throw new APIError("BAD_REQUEST", { code: authHookErrors.nameInvalid, message: "Invalid name." });
        await refuseWeakPassword(stringOf(body?.password), [stringOf(body?.name), stringOf(body?.email)]);
        return;
      }
      case "/update-user":
        if (body && "name" in body && !personName().safeParse(body.name).success) {
          throw new APIError("BAD_REQUEST", { code: authHookErrors.nameInvalid, message: "Invalid name." });
        }
        // The shop shows no profile pictures: any value would be stored unchecked (objects, megabytes).
        if (body && "image" in body && body.image !== null && body.image !== undefined) {
          throw new APIError("BAD_REQUEST", { code: authHookErrors.imageNotAllowed, message: "Profile pictures are not used by the shop." });
        }
        return;
      case "/reset-password":
      case "/change-password":
        await refuseWeakPassword(stringOf(body?.newPassword), []);
        return;
    }
  });

  const after = createAuthMiddleware(async (ctx) => {
    if (ctx.path !== "/sign-in/email" || isAPIError(ctx.context.returned)) return;
    // A successful login: its account starts afresh and its address keeps its allowance.
    const body = ctx.body as Body;
    await forgetAttempts(db, accountThrottleKey("login", stringOf(body?.email)));
    const ip = clientIpOf(ctx.headers ?? ctx.request?.headers);
    if (ip) await takeBackAttempt(db, ipThrottleKey("login", ip));
  });

  return { before, after };
}
