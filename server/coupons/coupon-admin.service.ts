/**
 * The back office's discount codes: list them with their uses, create and edit one, deactivate it (never
 * delete: orders keep pointing at it). Every write has its audit row in the same transaction. The gift
 * lists' completion codes are listed too, but are theirs: not edited here.
 */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, discountCodeBrands, discountCodeCategories, discountCodes } from "#server/db/schema.ts";
import type { CouponInput } from "./coupon.inputs";

export type AdminCouponRow = typeof discountCodes.$inferSelect;

/** The staff's codes, newest first (completion codes are the gift lists' and stay out of this list). */
export async function listCoupons(db: Db): Promise<AdminCouponRow[]> {
  return db.select().from(discountCodes).where(isNull(discountCodes.giftListId)).orderBy(desc(discountCodes.createdAt), desc(discountCodes.id));
}

export type AdminCoupon = AdminCouponRow & { categoryIds: number[]; brandIds: number[] };

export async function getCoupon(db: Db, id: number): Promise<AdminCoupon | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  if (!row || row.giftListId !== null) return null;
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: discountCodeCategories.categoryId }).from(discountCodeCategories).where(eq(discountCodeCategories.discountCodeId, id)),
    db.select({ id: discountCodeBrands.brandId }).from(discountCodeBrands).where(eq(discountCodeBrands.discountCodeId, id)),
  ]);
  return { ...row, categoryIds: categoryRows.map((row) => row.id), brandIds: brandRows.map((row) => row.id) };
}

/** What the form offers to limit a code to. */
export async function getCouponChoices(db: Db) {
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: categories.id, nameIt: categories.nameIt, nameEn: categories.nameEn }).from(categories).orderBy(asc(categories.position)),
    db.select({ id: brands.id, name: brands.name }).from(brands).orderBy(asc(brands.name)),
  ]);
  return { categories: categoryRows, brands: brandRows };
}

export type SaveCouponResult = { ok: true; id: number } | { ok: false; error: "code-taken" | "not-found" | "below-uses" };

const termsOf = (input: CouponInput) => {
  const { categoryIds: _, brandIds: __, ...terms } = input;
  return terms;
};

async function saveLimits(tx: Db, id: number, input: CouponInput) {
  await tx.delete(discountCodeCategories).where(eq(discountCodeCategories.discountCodeId, id));
  await tx.delete(discountCodeBrands).where(eq(discountCodeBrands.discountCodeId, id));
  if (input.categoryIds.length > 0) {
    await tx.insert(discountCodeCategories).values(input.categoryIds.map((categoryId) => ({ discountCodeId: id, categoryId })));
  }
  if (input.brandIds.length > 0) await tx.insert(discountCodeBrands).values(input.brandIds.map((brandId) => ({ discountCodeId: id, brandId })));
}

/** A new code (its text unique, checked by the database so two staff cannot make the same one at once). */
export async function createCoupon(db: Db, args: { input: CouponInput; actorUserId: string }): Promise<SaveCouponResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(discountCodes)
      .values(termsOf(args.input))
      .onConflictDoNothing({ target: discountCodes.code })
      .returning({ id: discountCodes.id });
    if (!row) return { ok: false, error: "code-taken" };
    await saveLimits(tx, row.id, args.input);
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "discount-code.create",
      entity: "discount-code",
      entityId: row.id,
      details: auditOf(args.input),
    });
    return { ok: true, id: row.id };
  });
}

/**
 * New terms for a code: orders already placed keep what they were charged. Its total uses cannot go
 * below those already taken (the check under the row lock, against a checkout taking one meanwhile).
 */
export async function updateCoupon(db: Db, args: { id: number; input: CouponInput; actorUserId: string }): Promise<SaveCouponResult> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(discountCodes).where(eq(discountCodes.id, args.id)).for("update");
    if (!current || current.giftListId !== null) return { ok: false, error: "not-found" };
    if (args.input.maxUses !== null && args.input.maxUses < current.usedCount) return { ok: false, error: "below-uses" };
    if (args.input.code !== current.code) {
      const [taken] = await tx.select({ id: discountCodes.id }).from(discountCodes).where(eq(discountCodes.code, args.input.code));
      if (taken) return { ok: false, error: "code-taken" };
    }
    await tx.update(discountCodes).set(termsOf(args.input)).where(eq(discountCodes.id, args.id));
    await saveLimits(tx, args.id, args.input);
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "discount-code.update",
      entity: "discount-code",
      entityId: args.id,
      details: auditOf(args.input),
    });
    return { ok: true, id: args.id };
  });
}

/** Deactivated, a code is refused at checkout at once; orders placed with it keep their discount. */
export async function setCouponActive(db: Db, args: { id: number; isActive: boolean; actorUserId: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(discountCodes)
      .set({ isActive: args.isActive })
      .where(and(eq(discountCodes.id, args.id), isNull(discountCodes.giftListId)))
      .returning({ code: discountCodes.code });
    if (!row) return false;
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: args.isActive ? "discount-code.activate" : "discount-code.deactivate",
      entity: "discount-code",
      entityId: args.id,
      details: { code: row.code },
    });
    return true;
  });
}

function auditOf(input: CouponInput): Record<string, unknown> {
  return { ...input, validFrom: input.validFrom.toISOString(), validUntil: input.validUntil.toISOString() };
}
