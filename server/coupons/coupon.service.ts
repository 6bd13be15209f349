/**
 * Discount codes' use-cases, the one module that writes discount_codes and discount_code_uses: a typed
 * code checked and priced on an order's lines (one rule, coupon.ts, for the cart, the checkout summary
 * and placeOrder), a use taken when the order is placed and given back when it is let go, and the gift
 * lists' completion codes made for them. docs/decisions/0066-coupon-codes.md.
 */
import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  discountCodeBrands,
  discountCodeCategories,
  discountCodes,
  discountCodeUses,
  giftListItems,
  giftLists,
  productBrands,
  productCategories,
} from "#server/db/schema.ts";
import { applyCoupon, normaliseDiscountCode, type CouponLine, type CouponTerms, type DiscountCodeError } from "./coupon";

/** A code applied to an order: what the summary and the order show, and each line's share of the saving. */
export type AppliedDiscountCode = {
  id: number;
  code: string;
  kind: "percent" | "fixed";
  percent: number | null;
  amountCents: number | null;
  /** A gift list's completion code (its own wording: "off your list's products"). */
  isGiftListCompletion: boolean;
  discountCents: number;
  perLineCents: number[];
};

export type CheckedCoupon = { ok: true; applied: AppliedDiscountCode } | { ok: false; error: DiscountCodeError; minOrderCents?: number };

/** A code's terms as stored, with its categories, brands and (a completion code) what its list still needs. */
export async function loadCouponTerms(db: Db, code: string): Promise<CouponTerms | null> {
  const [row] = await db
    .select({ code: discountCodes, ownerUserId: giftLists.ownerUserId })
    .from(discountCodes)
    .leftJoin(giftLists, eq(giftLists.id, discountCodes.giftListId))
    .where(eq(discountCodes.code, code));
  if (!row) return null;
  const { code: stored } = row;
  const [categoryRows, brandRows] = await Promise.all([
    db.select({ id: discountCodeCategories.categoryId }).from(discountCodeCategories).where(eq(discountCodeCategories.discountCodeId, stored.id)),
    db.select({ id: discountCodeBrands.brandId }).from(discountCodeBrands).where(eq(discountCodeBrands.discountCodeId, stored.id)),
  ]);
  let completion: CouponTerms["completion"] = null;
  if (stored.giftListId) {
    const items = await db
      .select({
        variantId: giftListItems.variantId,
        left: sql<number>`${giftListItems.quantityWished} - ${giftListItems.quantityBought}`.mapWith(Number),
      })
      .from(giftListItems)
      .where(and(eq(giftListItems.giftListId, stored.giftListId), gt(giftListItems.quantityWished, giftListItems.quantityBought)));
    completion = { ownerUserId: row.ownerUserId, stillNeeded: new Map(items.map((item) => [item.variantId, item.left])) };
  }
  return {
    ...stored,
    categoryIds: categoryRows.map((category) => category.id),
    brandIds: brandRows.map((brand) => brand.id),
    completion,
  };
}

/** The categories and brands of each product, for a code limited to some of them. */
async function tagsOfProducts(db: Db, productIds: readonly number[]) {
  const ids = [...new Set(productIds)];
  const tags = new Map(ids.map((id) => [id, { categoryIds: [] as number[], brandIds: [] as number[] }]));
  if (ids.length === 0) return tags;
  const [categoryRows, brandRows] = await Promise.all([
    db.select().from(productCategories).where(inArray(productCategories.productId, ids)),
    db
      .select({ productId: productBrands.productId, brandId: productBrands.brandId })
      .from(productBrands)
      .where(inArray(productBrands.productId, ids)),
  ]);
  for (const row of categoryRows) tags.get(row.productId)?.categoryIds.push(row.categoryId);
  for (const row of brandRows) tags.get(row.productId)?.brandIds.push(row.brandId);
  return tags;
}

/** Uses of a code held by this customer: their account's orders, or any order with their e-mail. */
async function customerUsesOf(db: Db, discountCodeId: number, customer: { userId: string | null; email: string | null }): Promise<number> {
  const who = [
    customer.userId ? eq(discountCodeUses.userId, customer.userId) : null,
    customer.email ? eq(discountCodeUses.email, customer.email.toLowerCase()) : null,
  ].filter((condition) => condition !== null);
  if (who.length === 0) return 0;
  const [row] = await db
    .select({ uses: sql<number>`count(*)`.mapWith(Number) })
    .from(discountCodeUses)
    .where(and(eq(discountCodeUses.discountCodeId, discountCodeId), or(...who)));
  return row?.uses ?? 0;
}

export type CouponOrderLine = { variantId: number; productId: number; quantity: number; unitCents: number };

/** A typed code checked for this customer and order, and priced on its lines (each line's share kept in order). */
export async function checkDiscountCode(
  db: Db,
  args: {
    typed: string;
    userId: string | null;
    /** The e-mail the order goes to, when known (the checkout form's); the account's otherwise. */
    email: string | null;
    isGiftListCart: boolean;
    shipsFree: boolean | null;
    now: Date;
    lines: readonly CouponOrderLine[];
  },
): Promise<CheckedCoupon> {
  const code = normaliseDiscountCode(args.typed);
  const terms = code ? await loadCouponTerms(db, code) : null;
  if (!terms) return { ok: false, error: "unknown" };
  const tags = await tagsOfProducts(
    db,
    args.lines.map((line) => line.productId),
  );
  const lines: CouponLine[] = args.lines.map((line) => ({ ...line, ...(tags.get(line.productId) ?? { categoryIds: [], brandIds: [] }) }));
  const customerUses = terms.maxUsesPerCustomer === null ? 0 : await customerUsesOf(db, terms.id, args);
  const outcome = applyCoupon(terms, lines, {
    now: args.now,
    userId: args.userId,
    isGiftListCart: args.isGiftListCart,
    shipsFree: args.shipsFree,
    customerUses,
  });
  if (!outcome.ok) return outcome;
  const { id, kind, percent, amountCents } = terms;
  const { discountCents, perLineCents } = outcome;
  return {
    ok: true,
    applied: { id, code: terms.code, kind, percent, amountCents, isGiftListCompletion: terms.completion !== null, discountCents, perLineCents },
  };
}

export type CouponUse = { discountCodeId: number; orderId: string; userId: string | null; email: string };

/**
 * Takes one use for the order, in its transaction. The conditional UPDATE takes the last use for one
 * checkout only and locks the code's row until commit, so a second checkout of the same customer waits
 * for it and then counts the first one's use: the limit per customer holds under concurrency too.
 */
export async function takeDiscountCodeUse(tx: Db, use: CouponUse): Promise<{ ok: true } | { ok: false; error: "used" | "used-by-you" }> {
  const [taken] = await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} + 1` })
    .where(
      and(eq(discountCodes.id, use.discountCodeId), sql`(${discountCodes.maxUses} is null or ${discountCodes.usedCount} < ${discountCodes.maxUses})`),
    )
    .returning({ maxUsesPerCustomer: discountCodes.maxUsesPerCustomer });
  if (!taken) return { ok: false, error: "used" };
  if (taken.maxUsesPerCustomer !== null && (await customerUsesOf(tx, use.discountCodeId, use)) >= taken.maxUsesPerCustomer) {
    return { ok: false, error: "used-by-you" };
  }
  await tx.insert(discountCodeUses).values({ ...use, email: use.email.toLowerCase() });
  return { ok: true };
}

/** Gives the order's use back (it expired or was cancelled): once, as only an order still holding its use row counts. */
export async function giveBackDiscountCodeUse(tx: Db, orderId: string): Promise<void> {
  const [released] = await tx.delete(discountCodeUses).where(eq(discountCodeUses.orderId, orderId)).returning();
  if (!released) return;
  await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} - 1` })
    .where(and(eq(discountCodes.id, released.discountCodeId), gt(discountCodes.usedCount, 0)));
}

export type NewCompletionCode = { code: string; percent: number; validFrom: Date; validUntil: Date; giftListId: string };

/** Gift lists' completion codes, one use each; a code that exists already (another load made it) is left as it is. */
export async function createCompletionCodes(db: Db, codes: readonly NewCompletionCode[]): Promise<void> {
  if (codes.length === 0) return;
  await db
    .insert(discountCodes)
    .values(codes.map((code) => ({ ...code, kind: "percent" as const, maxUses: 1 })))
    .onConflictDoNothing({ target: discountCodes.code });
}
