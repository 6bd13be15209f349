/** The customer's own profile: name (better-auth's user row), phone and fiscal code (profiles). */
import { and, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { accounts, profiles, users } from "#server/db/schema.ts";
import { ProfileInput } from "./profile.inputs";
import { parseWith, type FieldErrors } from "./text-rules";

export type AccountProfile = {
  name: string;
  email: string;
  emailVerified: boolean;
  phone: string | null;
  fiscalCode: string | null;
  /** False for accounts that only sign in with the external provider. */
  hasPassword: boolean;
  createdAt: Date;
};

export async function getAccountProfile(db: Db, userId: string): Promise<AccountProfile | null> {
  const [row] = await db
    .select({
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      phone: profiles.phone,
      fiscalCode: profiles.fiscalCode,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return null;
  const [credential] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")));
  return { ...row, phone: row.phone ?? null, fiscalCode: row.fiscalCode ?? null, hasPassword: Boolean(credential) };
}

/** Saves name, phone and fiscal code of `userId` (only ever the signed-in person's own id). */
export async function updateProfile(db: Db, userId: string, raw: unknown): Promise<{ ok: true } | { ok: false; errors: FieldErrors }> {
  const parsed = parseWith(ProfileInput, raw);
  if (!parsed.ok) return parsed;
  const { name, phone, fiscalCode } = parsed.value;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, userId));
    await tx
      .insert(profiles)
      .values({ userId, phone, fiscalCode })
      .onConflictDoUpdate({ target: profiles.userId, set: { phone, fiscalCode, updatedAt: new Date() } });
  });
  return { ok: true };
}
