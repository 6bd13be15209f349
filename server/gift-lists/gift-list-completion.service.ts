/**
 * The completion discount's use-cases: the owner's codes (created once, when the window opens) and the
 * check of a code typed at checkout. The discount itself is the pure rule of gift-list-completion.ts,
 * used by both the checkout summary and placeOrder.
 */
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { discountCodes, giftListItems, giftLists } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { completionCodeOf, completionWindow, isWithinWindow, normaliseDiscountCode, type DiscountCodeError } from "./gift-list-completion";

export type CompletionCode = { giftListId: string; code: string; percent: number; validFrom: Date; validUntil: Date; isUsed: boolean };

/**
 * The owner's completion codes, one per list whose window is open or was: a list entering its window
 * with something still not bought gets its code now (insert-or-nothing on the unique code, so two
 * loads at once create one).
 *
 * A write in a GET (the page's loader), on purpose: a code's terms are fixed when its owner first sees
 * it (decision 0016: a later change of the percent does not alter codes already given). A scheduled
 * job would fix them before anyone sees them and leave the page without its code until it ran; making
 * it at checkout could charge another percent than the page showed. The insert is deterministic and
 * idempotent, so a repeated or prefetched load changes nothing.
 */
export async function getCompletionCodes(db: Db, args: { userId: string; now: Date }): Promise<Map<string, CompletionCode>> {
  const lists = await db
    .select({ id: giftLists.id, code: giftLists.code, eventDate: giftLists.eventDate })
    .from(giftLists)
    .where(eq(giftLists.ownerUserId, args.userId));
  if (lists.length === 0) return new Map();
  const { giftListCompletion } = await getSettings(db, ["giftListCompletion"]);
  const rows = await db
    .select()
    .from(discountCodes)
    .where(
      inArray(
        discountCodes.giftListId,
        lists.map((list) => list.id),
      ),
    );
  const has = new Set(rows.map((row) => row.giftListId));
  const open = lists.filter((list) => !has.has(list.id) && isWithinWindow(completionWindow(list.eventDate, giftListCompletion.windowDays), args.now));
  if (open.length > 0 && giftListCompletion.percent > 0) {
    const needing = await db
      .selectDistinct({ giftListId: giftListItems.giftListId })
      .from(giftListItems)
      .where(
        and(
          inArray(
            giftListItems.giftListId,
            open.map((list) => list.id),
          ),
          gt(giftListItems.quantityWished, giftListItems.quantityBought),
        ),
      );
    const needs = new Set(needing.map((row) => row.giftListId));
    const toCreate = open.filter((list) => needs.has(list.id));
    if (toCreate.length > 0) {
      const codes = toCreate.map((list) => completionCodeOf(list.code));
      await db
        .insert(discountCodes)
        .values(
          toCreate.map((list, index) => ({
            code: codes[index]!,
            percent: giftListCompletion.percent,
            ...completionWindow(list.eventDate, giftListCompletion.windowDays),
            giftListId: list.id,
            maxUses: 1,
          })),
        )
        .onConflictDoNothing({ target: discountCodes.code });
      // Read back rather than `returning`: a code another load created meanwhile is not returned by the insert.
      rows.push(...(await db.select().from(discountCodes).where(inArray(discountCodes.code, codes))));
    }
  }
  const byList = new Map<string, CompletionCode>();
  for (const row of rows) {
    if (row.giftListId === null) continue;
    byList.set(row.giftListId, {
      giftListId: row.giftListId,
      code: row.code,
      percent: row.percent,
      validFrom: row.validFrom,
      validUntil: row.validUntil,
      isUsed: row.usedCount >= row.maxUses,
    });
  }
  return byList;
}

export type CheckedDiscountCode =
  { ok: true; id: number; code: string; percent: number; stillNeeded: Map<number, number> } | { ok: false; error: DiscountCodeError };

/**
 * A code typed at checkout: it exists, is in its window, has uses left, and belongs to the signed-in
 * customer, for an ordinary cart (a gift-list cart is a guest's gift, never discounted). The units it
 * applies to are those still needed per variant of the list; the caller applies `completionDiscount`.
 */
export async function checkDiscountCode(
  db: Db,
  args: { typed: string; userId: string | null; isGiftListCart: boolean; now: Date },
): Promise<CheckedDiscountCode> {
  const code = normaliseDiscountCode(args.typed);
  if (!code) return { ok: false, error: "unknown" };
  const [row] = await db
    .select({
      id: discountCodes.id,
      code: discountCodes.code,
      percent: discountCodes.percent,
      validFrom: discountCodes.validFrom,
      validUntil: discountCodes.validUntil,
      maxUses: discountCodes.maxUses,
      usedCount: discountCodes.usedCount,
      giftListId: discountCodes.giftListId,
      ownerUserId: giftLists.ownerUserId,
    })
    .from(discountCodes)
    .leftJoin(giftLists, eq(giftLists.id, discountCodes.giftListId))
    .where(eq(discountCodes.code, code));
  if (!row) return { ok: false, error: "unknown" };
  if (args.now.getTime() < row.validFrom.getTime()) return { ok: false, error: "not-yet-valid" };
  if (args.now.getTime() >= row.validUntil.getTime()) return { ok: false, error: "expired" };
  if (row.usedCount >= row.maxUses) return { ok: false, error: "used" };
  // Only gift-list codes exist so far; a code without its list (or someone else's) is not yours.
  if (!row.giftListId || !args.userId || row.ownerUserId !== args.userId) return { ok: false, error: "not-yours" };
  if (args.isGiftListCart) return { ok: false, error: "no-eligible-lines" };
  const items = await db
    .select({
      variantId: giftListItems.variantId,
      left: sql<number>`${giftListItems.quantityWished} - ${giftListItems.quantityBought}`.mapWith(Number),
    })
    .from(giftListItems)
    .where(and(eq(giftListItems.giftListId, row.giftListId), gt(giftListItems.quantityWished, giftListItems.quantityBought)));
  return { ok: true, id: row.id, code: row.code, percent: row.percent, stillNeeded: new Map(items.map((item) => [item.variantId, item.left])) };
}

/** Takes one use, only while uses are left: under concurrency exactly one checkout gets the last one. */
export async function takeDiscountCodeUse(tx: Db, discountCodeId: number): Promise<boolean> {
  const taken = await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} + 1` })
    .where(and(eq(discountCodes.id, discountCodeId), sql`${discountCodes.usedCount} < ${discountCodes.maxUses}`))
    .returning({ id: discountCodes.id });
  return taken.length > 0;
}

/** Gives a use back (its order expired or was cancelled); never below zero. */
export async function giveBackDiscountCodeUse(tx: Db, discountCodeId: number): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ usedCount: sql`${discountCodes.usedCount} - 1` })
    .where(and(eq(discountCodes.id, discountCodeId), sql`${discountCodes.usedCount} > 0`));
}
