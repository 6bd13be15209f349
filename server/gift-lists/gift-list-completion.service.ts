/**
 * The completion discount's codes for their owner (created once, when the window opens). The codes are
 * the coupons' (server/coupons/): checked, priced and used at checkout like any other code.
 */
import { and, eq, gt, inArray } from "drizzle-orm";
import { createCompletionCodes } from "#server/coupons/coupon.service.ts";
import type { Db } from "#server/db/client.ts";
import { discountCodes, giftListItems, giftLists } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { completionCodeOf, completionWindow, isWithinWindow } from "./gift-list-completion";

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
      await createCompletionCodes(
        db,
        toCreate.map((list, index) => ({
          code: codes[index]!,
          percent: giftListCompletion.percent,
          ...completionWindow(list.eventDate, giftListCompletion.windowDays),
          giftListId: list.id,
        })),
      );
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
      percent: row.percent ?? 0,
      validFrom: row.validFrom,
      validUntil: row.validUntil,
      isUsed: row.maxUses !== null && row.usedCount >= row.maxUses,
    });
  }
  return byList;
}
