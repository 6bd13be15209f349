/**
 * The owner's first run (docs/decisions/0086-owner-setup-link.md): while the shop has no administrator,
 * each start makes a one-time link to /admin/setup whose page creates the owner's account. Only a hash
 * of the link's token is kept (shop_settings, one key per link); it works once and expires.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "#server/db/schema.ts";
import type { Db } from "#server/db/client.ts";
import { dropPrivateValues, getPrivateValue, keepPrivateValue, takePrivateValue } from "#server/settings/settings.service.ts";
import { personName } from "./auth.inputs";
import type { AuthServices } from "./auth-flows.service";
import { findPasswordProblem } from "./passwords";
import {
  checkNewPasswordPair,
  emailField,
  errorKey,
  parseWith,
  passwordConfirmField,
  passwordField,
  whenPasswordsTyped,
  type FieldErrors,
} from "./text-rules";

export const ownerSetupLinkHours = 24;

const keyPrefix = "owner-setup:";

/** 32 random bytes, base64url: 43 letters, digits, "-" and "_". */
export const OwnerSetupToken = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{43}$/, "ownerSetup.errors.linkInvalid");

export const OwnerSetupInput = z
  .object({
    token: OwnerSetupToken,
    name: personName(),
    email: emailField(),
    password: passwordField(),
    passwordConfirm: passwordConfirmField,
  })
  .superRefine(checkNewPasswordPair, whenPasswordsTyped);

const KeptLink = z.object({ expiresAt: z.iso.datetime() });

const keyOf = (token: string) => keyPrefix + crypto.createHash("sha256").update(token).digest("base64url");

export async function hasOwner(db: Db): Promise<boolean> {
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
  return admin !== undefined;
}

/** A fresh link's path and query when the shop has no administrator yet; null when it has one. */
export async function makeOwnerSetupLink(db: Db, now = new Date()): Promise<string | null> {
  if (await hasOwner(db)) {
    await dropPrivateValues(db, keyPrefix);
    return null;
  }
  const token = crypto.randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ownerSetupLinkHours * 3_600_000);
  await keepPrivateValue(db, keyOf(token), { expiresAt: expiresAt.toISOString() });
  return `/admin/setup?token=${token}`;
}

/** Whether the link still works (unused, unexpired, no owner yet): the page asks before showing its form. */
export async function isOwnerSetupLinkValid(db: Db, rawToken: unknown, now = new Date()): Promise<boolean> {
  const token = OwnerSetupToken.safeParse(rawToken);
  if (!token.success || (await hasOwner(db))) return false;
  return isUnexpired(await getPrivateValue(db, keyOf(token.data)), now);
}

function isUnexpired(kept: unknown, now: Date): boolean {
  const link = KeptLink.safeParse(kept);
  return link.success && new Date(link.data.expiresAt) > now;
}

export type OwnerSetupResult = { ok: true; email: string } | { ok: false; errors: FieldErrors };

/**
 * Creates the owner's account from the setup form. Every check comes before the link is taken, so a form
 * with a problem changes nothing and the link still works; the link is taken in one statement, so it
 * serves one account only.
 */
export async function createOwnerAccount(services: Pick<AuthServices, "db" | "auth">, raw: unknown, now = new Date()): Promise<OwnerSetupResult> {
  const parsed = parseWith(OwnerSetupInput, raw);
  if (!parsed.ok) return parsed.errors.token ? linkRefused : parsed;
  const { token, name, email, password } = parsed.value;
  if (!(await isOwnerSetupLinkValid(services.db, token, now))) return linkRefused;
  const problem = await findPasswordProblem(password, [name, email]);
  if (problem) return { ok: false, errors: { password: errorKey(problem) } };
  const [taken] = await services.db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (taken) return { ok: false, errors: { email: "ownerSetup.errors.emailTaken" } };
  if (!isUnexpired(await takePrivateValue(services.db, keyOf(token)), now)) return linkRefused;
  await services.auth.api.createUser({ body: { email, password, name, role: "admin", data: { emailVerified: true } } });
  await dropPrivateValues(services.db, keyPrefix);
  return { ok: true, email };
}

const linkRefused: OwnerSetupResult = { ok: false, errors: { form: "ownerSetup.errors.linkInvalid" } };
