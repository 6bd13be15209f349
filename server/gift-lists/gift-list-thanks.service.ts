/**
 * The owner's thank-you tracker: who gave what (one row per gift_list_purchases row: a bought item or a
 * contribution to a group gift), with the giver's message, and whether the family has said thank you.
 * Owner only: every query names the owner; someone else's purchase is "not found" and nothing changes.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { describeVariants } from "#server/cart/cart-view.service.ts";
import type { Db } from "#server/db/client.ts";
import { giftListItems, giftListPurchases, giftLists } from "#server/db/schema.ts";

export type GiftThanksRow = {
  id: number;
  giverName: string;
  /** What was given: the product's name (with colour and size), or null when the item was removed. */
  itemName: string | null;
  colour: string | null;
  size: string | null;
  kind: "item" | "contribution";
  quantity: number;
  amountCents: number;
  message: string | null;
  givenAt: Date;
  thankedAt: Date | null;
  /** Units the giver withdrew from and sent back. */
  returnedQuantity: number;
};

/** Each of the owner's lists' gifts, newest first (giver e-mails stay out: the family thanks in person or by the shop). */
export async function listGiftThanks(db: Db, args: { userId: string; locale: Locale; now: Date }): Promise<Map<string, GiftThanksRow[]>> {
  const rows = await db
    .select({
      id: giftListPurchases.id,
      giftListId: giftListPurchases.giftListId,
      variantId: giftListItems.variantId,
      kind: giftListPurchases.kind,
      quantity: giftListPurchases.quantity,
      returnedQuantity: giftListPurchases.returnedQuantity,
      amountCents: giftListPurchases.amountCents,
      giverName: giftListPurchases.giverName,
      message: giftListPurchases.message,
      createdAt: giftListPurchases.createdAt,
      thankedAt: giftListPurchases.thankedAt,
    })
    .from(giftListPurchases)
    .innerJoin(giftLists, eq(giftLists.id, giftListPurchases.giftListId))
    .leftJoin(giftListItems, eq(giftListItems.id, giftListPurchases.giftListItemId))
    .where(eq(giftLists.ownerUserId, args.userId))
    .orderBy(desc(giftListPurchases.createdAt), desc(giftListPurchases.id));
  const variants = await describeVariants(
    db,
    rows.flatMap((row) => (row.variantId === null ? [] : [row.variantId])),
    args.locale,
    args.now,
  );
  const result = new Map<string, GiftThanksRow[]>();
  for (const row of rows) {
    const variant = row.variantId === null ? undefined : variants.get(row.variantId);
    const list = result.get(row.giftListId) ?? [];
    list.push({
      id: row.id,
      giverName: row.giverName,
      itemName: variant?.name ?? null,
      colour: variant?.colour ?? null,
      size: variant?.size ?? null,
      kind: row.kind === "contribution" ? "contribution" : "item",
      quantity: row.quantity,
      returnedQuantity: row.returnedQuantity,
      amountCents: row.amountCents,
      message: row.message,
      givenAt: row.createdAt,
      thankedAt: row.thankedAt,
    });
    result.set(row.giftListId, list);
  }
  return result;
}

const MarkThankedInput = z.object({
  purchaseId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  thanked: z.enum(["yes", "no"]),
});

/** Marks a gift thanked (or undoes it): only on the owner's own lists, else "not found" and nothing changes. */
export async function markGiftThanked(
  db: Db,
  args: { userId: string; input: unknown; now: Date },
): Promise<{ ok: true; thanked: boolean } | { ok: false; error: "not-found" }> {
  const parsed = MarkThankedInput.safeParse(args.input);
  if (!parsed.success) return { ok: false, error: "not-found" };
  const own = db.select({ id: giftLists.id }).from(giftLists).where(eq(giftLists.ownerUserId, args.userId));
  const thanked = parsed.data.thanked === "yes";
  const updated = await db
    .update(giftListPurchases)
    .set({ thankedAt: thanked ? args.now : null })
    .where(and(eq(giftListPurchases.id, parsed.data.purchaseId), inArray(giftListPurchases.giftListId, own)))
    .returning({ id: giftListPurchases.id });
  return updated.length > 0 ? { ok: true, thanked } : { ok: false, error: "not-found" };
}
