/**
 * "Download my data" (GDPR art. 15 and 20): everything the shop keeps about the signed-in person,
 * as one JSON document. Only `userId`'s own rows; no secrets (password hashes, tokens, sessions).
 */
import { asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { compareItems, giftListItems, giftLists, products, wishlistItems } from "#server/db/schema.ts";
import { listAddresses } from "./address.service";
import { getAccountProfile } from "./profile.service";
import { listPurchases } from "./purchases.service";

export async function exportAccountData(db: Db, userId: string, now = new Date()) {
  const profile = await getAccountProfile(db, userId);
  if (!profile) return null;
  const [addressRows, orders, lists, wishlist, compare] = await Promise.all([
    listAddresses(db, userId),
    listPurchases(db, userId),
    db.select().from(giftLists).where(eq(giftLists.ownerUserId, userId)).orderBy(asc(giftLists.createdAt)),
    db
      .select({ productId: wishlistItems.productId, name: products.nameIt, addedAt: wishlistItems.createdAt })
      .from(wishlistItems)
      .innerJoin(products, eq(products.id, wishlistItems.productId))
      .where(eq(wishlistItems.userId, userId))
      .orderBy(desc(wishlistItems.createdAt)),
    db
      .select({ productId: compareItems.productId, name: products.nameIt, addedAt: compareItems.createdAt })
      .from(compareItems)
      .innerJoin(products, eq(products.id, compareItems.productId))
      .where(eq(compareItems.userId, userId))
      .orderBy(desc(compareItems.createdAt)),
  ]);
  const items = lists.length
    ? await db
        .select()
        .from(giftListItems)
        .where(
          inArray(
            giftListItems.giftListId,
            lists.map((list) => list.id),
          ),
        )
        .orderBy(asc(giftListItems.position))
    : [];
  const { hasPassword, ...account } = profile;
  return {
    exportedAt: now.toISOString(),
    account: { ...account, signsInWithPassword: hasPassword },
    addresses: addressRows.map(({ userId: _owner, ...address }) => address),
    orders,
    giftLists: lists.map(({ ownerUserId: _owner, ...list }) => ({ ...list, items: items.filter((item) => item.giftListId === list.id) })),
    wishlist,
    compare,
  };
}
