/** Makes a shop administrator (`npm run admin:create -- email [--password ...]`). */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { users } from "#server/db/schema.ts";
import type { AuthServices } from "./auth-flows.service";
import { findPasswordProblem } from "./passwords";
import { emailField } from "./text-rules";

export type MakeAdminResult =
  | { ok: true; outcome: "created"; email: string; password: string; passwordGenerated: boolean }
  | { ok: true; outcome: "promoted" | "already-admin"; email: string }
  | { ok: false; error: "email-invalid" | "password-weak" };

/** 24 random characters: printed once, to be changed after the first login. */
export function generatePassword(): string {
  return crypto.randomBytes(18).toString("base64url");
}

/**
 * Promotes an existing account to admin, or creates the account (address confirmed, since the
 * operator vouches for it) with the given password or a generated one.
 */
export async function makeAdmin(services: Pick<AuthServices, "db" | "auth">, input: { email: string; password?: string }): Promise<MakeAdminResult> {
  const email = z.object({ email: emailField() }).safeParse({ email: input.email });
  if (!email.success) return { ok: false, error: "email-invalid" };
  const address = email.data.email;
  const [existing] = await services.db.select({ id: users.id, role: users.role }).from(users).where(eq(users.email, address));
  if (existing) {
    if (existing.role === "admin") return { ok: true, outcome: "already-admin", email: address };
    await services.db.update(users).set({ role: "admin", updatedAt: new Date() }).where(eq(users.id, existing.id));
    return { ok: true, outcome: "promoted", email: address };
  }
  const password = input.password ?? generatePassword();
  if (input.password !== undefined && (await findPasswordProblem(password, [address]))) return { ok: false, error: "password-weak" };
  await services.auth.api.createUser({
    body: { email: address, password, name: address.split("@")[0]!, role: "admin", data: { emailVerified: true } },
  });
  return { ok: true, outcome: "created", email: address, password, passwordGenerated: input.password === undefined };
}
