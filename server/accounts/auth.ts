import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, bearer } from "better-auth/plugins";
import type { Db } from "#server/db/client.ts";
import { accounts, rateLimits, sessions, users, verifications } from "#server/db/schema.ts";
import type { Env } from "#server/env.ts";

/**
 * better-auth owns sessions, passwords and tokens (no hand-made session code). Sessions and
 * rate-limit counters live in the database, so they hold across several app processes.
 * Sign-up/login pages, e-mail flows and OIDC are completed by the accounts issue (#5).
 */
export function createAuth({ db, env, publicUrl }: { db: Db; env: Env; publicUrl: string }) {
  return betterAuth({
    appName: "Bimbi Felici",
    baseURL: publicUrl,
    basePath: "/api/auth",
    secret: resolveAuthSecret(env),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications, rateLimit: rateLimits },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128 },
    rateLimit: { enabled: true, storage: "database", window: 60, max: 100 },
    trustedOrigins: [publicUrl],
    advanced: {
      useSecureCookies: publicUrl.startsWith("https:"),
      // Only trust a forwarded client address when the operator says a proxy is in front.
      ipAddress: { ipAddressHeaders: env.TRUST_PROXY > 0 ? ["x-forwarded-for"] : [] },
    },
    plugins: [bearer({ requireSignature: true }), admin({ defaultRole: "customer", adminRoles: ["admin"] })],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * AUTH_SECRET when set (required with several processes); otherwise a random secret kept in
 * DATA_DIR, so a newcomer's `npm start` works and sessions survive restarts.
 */
export function resolveAuthSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
