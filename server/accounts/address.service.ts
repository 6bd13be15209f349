/**
 * The customer's delivery addresses. Every query names the owner: another customer's address is
 * "not found" (the page answers 404) and nothing changes. One address at most is the default; the
 * first one always is.
 */
import { and, asc, count, desc, eq, ne } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { addresses } from "#server/db/schema.ts";
import { AddressId, AddressInput, maxAddressesPerUser } from "./address.inputs";
import { errorKey, parseWith, type FieldErrors } from "./text-rules";

export type Address = typeof addresses.$inferSelect;
export type AddressResult = { ok: true; id: number } | { ok: false; errors: FieldErrors } | { ok: false; notFound: true };

const notFound = { ok: false, notFound: true } as const;

export function listAddresses(db: Db, userId: string): Promise<Address[]> {
  return db
    .select()
    .from(addresses)
    .where(eq(addresses.userId, userId))
    .orderBy(desc(addresses.isDefault), asc(addresses.createdAt), asc(addresses.id));
}

export async function getAddress(db: Db, userId: string, rawId: unknown): Promise<Address | null> {
  const id = AddressId.safeParse(rawId);
  if (!id.success) return null;
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id.data), eq(addresses.userId, userId)));
  return row ?? null;
}

export async function addAddress(db: Db, userId: string, raw: unknown): Promise<AddressResult> {
  const parsed = parseWith(AddressInput, raw);
  if (!parsed.ok) return parsed;
  return db.transaction(async (tx) => {
    const [{ value: existing } = { value: 0 }] = await tx.select({ value: count() }).from(addresses).where(eq(addresses.userId, userId));
    if (existing >= maxAddressesPerUser) return { ok: false as const, errors: { form: errorKey("addressLimit") } };
    const isDefault = parsed.value.isDefault || existing === 0;
    if (isDefault) await tx.update(addresses).set({ isDefault: false }).where(eq(addresses.userId, userId));
    const [row] = await tx
      .insert(addresses)
      .values({ ...parsed.value, userId, isDefault })
      .returning({ id: addresses.id });
    return { ok: true as const, id: row!.id };
  });
}

export async function updateAddress(db: Db, userId: string, rawId: unknown, raw: unknown): Promise<AddressResult> {
  const id = AddressId.safeParse(rawId);
  if (!id.success) return notFound;
  const parsed = parseWith(AddressInput, raw);
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ isDefault: addresses.isDefault })
      .from(addresses)
      .where(and(eq(addresses.id, id.data), eq(addresses.userId, userId)));
    if (!current) return notFound;
    if (!parsed.ok) return parsed;
    // The default stays the default until another one is chosen.
    const isDefault = parsed.value.isDefault || current.isDefault;
    if (isDefault)
      await tx
        .update(addresses)
        .set({ isDefault: false })
        .where(and(eq(addresses.userId, userId), ne(addresses.id, id.data)));
    await tx
      .update(addresses)
      .set({ ...parsed.value, isDefault, updatedAt: new Date() })
      .where(and(eq(addresses.id, id.data), eq(addresses.userId, userId)));
    return { ok: true as const, id: id.data };
  });
}

export async function deleteAddress(db: Db, userId: string, rawId: unknown): Promise<AddressResult> {
  const id = AddressId.safeParse(rawId);
  if (!id.success) return notFound;
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(addresses)
      .where(and(eq(addresses.id, id.data), eq(addresses.userId, userId)))
      .returning({ isDefault: addresses.isDefault });
    if (!deleted) return notFound;
    if (deleted.isDefault) {
      const [next] = await tx
        .select({ id: addresses.id })
        .from(addresses)
        .where(eq(addresses.userId, userId))
        .orderBy(asc(addresses.createdAt), asc(addresses.id))
        .limit(1);
      if (next) await tx.update(addresses).set({ isDefault: true }).where(eq(addresses.id, next.id));
    }
    return { ok: true as const, id: id.data };
  });
}

export async function setDefaultAddress(db: Db, userId: string, rawId: unknown): Promise<AddressResult> {
  const id = AddressId.safeParse(rawId);
  if (!id.success) return notFound;
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(and(eq(addresses.id, id.data), eq(addresses.userId, userId)));
    if (!target) return notFound;
    await tx
      .update(addresses)
      .set({ isDefault: false })
      .where(and(eq(addresses.userId, userId), ne(addresses.id, id.data)));
    await tx.update(addresses).set({ isDefault: true, updatedAt: new Date() }).where(eq(addresses.id, id.data));
    return { ok: true as const, id: id.data };
  });
}
