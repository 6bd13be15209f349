import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { drizzleAdapter } from "@better-auth/drizzle-adapter";
import { admin, bearer, genericOAuth } from "better-auth/plugins";
import type { Db } from "#server/db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "#server/db/schema.ts";
import type { Env } from "#server/env.ts";
import { queueExistingAccountEmail, queuePasswordResetEmail, queueVerificationEmail } from "./account-emails.service";
import { createAuthHooks } from "./auth-hooks";
import { clientIpHeader, currentAuthLocale } from "./auth-request";
import { passwordLimits } from "./passwords";

/** better-auth's id of the external OpenID Connect provider (callback: /api/auth/callback/oidc). */
export const oidcProviderId = "oidc";

export type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string };

/** The external identity provider, when the environment names all three of issuer, client id and secret. */
export function oidcSettingsOf(env: Env): OidcSettings | null {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return null;
  return {
    issuer: env.OIDC_ISSUER.replace(/\/$/, ""),
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_PROVIDER_NAME,
  };
}

/** How passwords are turned into keys: better-auth's scrypt, one derivation per call. */
export type PasswordHashing = {
  hash: (password: string) => Promise<string>;
  verify: (args: { hash: string; password: string }) => Promise<boolean>;
};

/**
 * A sign-in derives one key whatever the address: `verify` against the account's hash, or, for an address
 * with no account or no password, `hash` of what was typed (better-auth's own rule), which costs the same,
 * so the answer's time does not tell whether an account exists. Tested by counting (sign-in-cost.service.test.ts).
 */
const scryptHashing: PasswordHashing = { hash: hashPassword, verify: verifyPassword };

/**
 * better-auth owns sessions, passwords and tokens (no hand-made session code). Sessions and
 * rate-limit counters live in the database, so they hold across several app processes.
 * Registration never signs in by itself (the answer must not reveal whether the address already has
 * an account); the verification link does. See docs/decisions (accounts).
 */
export function createAuth({
  db,
  env,
  publicUrl,
  passwordHashing = scryptHashing,
}: {
  db: Db;
  env: Env;
  publicUrl: string;
  /** Tests wrap the same functions to count the work a sign-in does. */
  passwordHashing?: PasswordHashing;
}) {
  const oidc = oidcSettingsOf(env);
  const hooks = createAuthHooks(db);
  const mailTarget = (user: { email: string; name: string }, betterAuthUrl?: string) => ({
    db,
    publicUrl,
    locale: currentAuthLocale(betterAuthUrl),
    to: user.email,
    name: user.name,
  });
  return betterAuth({
    appName: "Bimbi Felici",
    baseURL: publicUrl,
    basePath: "/api/auth",
    secret: resolveAuthSecret(env),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordLimits.min,
      maxPasswordLength: passwordLimits.max,
      password: passwordHashing,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: ({ user, token, url }) => queuePasswordResetEmail(mailTarget(user, url), token),
      onExistingUserSignUp: ({ user }) => queueExistingAccountEmail(mailTarget(user)),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, token, url }) => queueVerificationEmail(mailTarget(user, url), token),
    },
    user: { changeEmail: { enabled: true }, deleteUser: { enabled: true } },
    hooks,
    // A failed OIDC return lands on the login page with its message, not on better-auth's own error page (closed).
    onAPIError: { errorURL: `${publicUrl}/login-register?oidcError=1` },
    // A wrong password is logged as a warning (worth seeing in production); tests run silent.
    logger: { disabled: env.LOG_LEVEL === "silent", level: betterAuthLogLevel(env.LOG_LEVEL) },
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100 },
    trustedOrigins: [publicUrl],
    advanced: {
      // better-auth skips its Origin check when NODE_ENV=test: keep it on, so the tests see what production does.
      disableOriginCheck: false,
      useSecureCookies: publicUrl.startsWith("https:"),
      // The client address as Express computed it (TRUST_PROXY aware), set by every entry point.
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
    },
    plugins: [
      bearer({ requireSignature: true }),
      admin({ defaultRole: "customer", adminRoles: ["admin"] }),
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: oidcProviderId,
                  name: oidc.name,
                  discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                  requireIdTokenVerification: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

function betterAuthLogLevel(level: Env["LOG_LEVEL"]): "debug" | "info" | "warn" | "error" {
  if (level === "debug" || level === "trace") return "debug";
  if (level === "fatal" || level === "error") return "error";
  return "warn";
}

/** The generated secret's file in DATA_DIR; backups carry it (server/ops/backup.ts). */
export const authSecretFileName = "auth-secret";

/**
 * AUTH_SECRET when set (required with several processes); otherwise a random secret kept in
 * DATA_DIR, so a newcomer's `npm start` works and sessions survive restarts.
 */
export function resolveAuthSecret(env: Pick<Env, "AUTH_SECRET" | "DATA_DIR">): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, authSecretFileName);
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
