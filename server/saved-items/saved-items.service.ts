import { and, asc, eq, inArray } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import {
  applySavedItemsChange,
  normaliseIds,
  savedListLimits,
  savedListNames,
  type SavedItemsChange,
  type SavedItemsOutcome,
  type SavedListName,
  type SavedLists,
} from "#common/saved-items.ts";
import { isOneSize } from "#common/sizes.ts";
import { getProductAvailability, type Availability } from "#server/catalog/product.ts";
import { getProductCards, type ProductCardData } from "#server/catalog/product-card.ts";
import type { TechnicalSheet } from "#server/catalog/product.service.ts";
import type { Db } from "#server/db/client.ts";
import { compareItems, productColours, products, productVariants, wishlistItems } from "#server/db/schema.ts";
import { planAccountSync } from "./saved-items";

/** What the wishlist and compare pages show of one product: its card, plus what the compare table lists. */
export type SavedProduct = ProductCardData & {
  availability: Availability;
  /** Colour keys ("white", "blue") in the shop's order. */
  colours: string[];
  /** Size names that are a real choice ("one size" left out), in the shop's order. */
  sizes: string[];
  /** Millimetres and grams; null where the shop has not stated it. */
  technicalSheet: TechnicalSheet;
};

/**
 * The published products among `ids`, in the order of `ids` (the order they were saved in).
 * Ids of products that no longer exist or are hidden are left out.
 */
export async function getSavedProducts(db: Db, ids: readonly number[], locale: Locale, now: Date): Promise<SavedProduct[]> {
  const wanted = normaliseIds(ids, savedListLimits.wishlist);
  if (wanted.length === 0) return [];
  const [cards, sheetRows, colourRows, variantRows] = await Promise.all([
    getProductCards(db, { productIds: wanted, locale, now }),
    db
      .select({
        id: products.id,
        lengthMm: products.lengthMm,
        widthMm: products.widthMm,
        heightMm: products.heightMm,
        weightGrams: products.weightGrams,
        materialIt: products.materialIt,
        materialEn: products.materialEn,
      })
      .from(products)
      .where(inArray(products.id, wanted)),
    db
      .select({ productId: productColours.productId, colour: productColours.colour })
      .from(productColours)
      .where(inArray(productColours.productId, wanted))
      .orderBy(asc(productColours.position), asc(productColours.id)),
    db
      .select({
        productId: productVariants.productId,
        size: productVariants.size,
        stock: productVariants.stock,
        isPreorder: productVariants.isPreorder,
      })
      .from(productVariants)
      .where(inArray(productVariants.productId, wanted))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
  ]);
  const sheetOf = new Map(sheetRows.map((row) => [row.id, row]));
  // The queries run side by side: a product deleted between them is left out.
  return cards.flatMap((card): SavedProduct[] => {
    const sheet = sheetOf.get(card.id);
    if (!sheet) return [];
    const variants = variantRows.filter((variant) => variant.productId === card.id);
    return [
      {
        ...card,
        availability: getProductAvailability(variants),
        colours: colourRows.filter((colour) => colour.productId === card.id).map((colour) => colour.colour),
        sizes: [...new Set(variants.map((variant) => variant.size).filter((size) => !isOneSize(size)))],
        technicalSheet: {
          lengthMm: sheet.lengthMm,
          widthMm: sheet.widthMm,
          heightMm: sheet.heightMm,
          weightGrams: sheet.weightGrams,
          material: sheet.materialIt === null ? null : locale === "en" ? (sheet.materialEn ?? sheet.materialIt) : sheet.materialIt,
        },
      },
    ];
  });
}

/** Whether a published product has this id (a form may carry any number). */
export async function isPublishedProduct(db: Db, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, id), eq(products.isPublished, true)))
    .limit(1);
  return row !== undefined;
}

const accountTables = { wishlist: wishlistItems, compare: compareItems } as const;

/** A signed-in customer's lists, oldest first. */
export async function getAccountSavedItems(db: Db, userId: string): Promise<SavedLists> {
  const [wishlist, compare] = await Promise.all(
    savedListNames.map((list) => {
      const table = accountTables[list];
      return db
        .select({ productId: table.productId })
        .from(table)
        .where(eq(table.userId, userId))
        .orderBy(asc(table.createdAt), asc(table.productId));
    }),
  );
  return { wishlist: wishlist!.map((row) => row.productId), compare: compare!.map((row) => row.productId) };
}

/** Adds rows stamped one millisecond apart, so the account keeps the order they were added in. */
async function insertAccountRows(db: Db, userId: string, list: SavedListName, productIds: readonly number[], now: Date) {
  if (productIds.length === 0) return;
  const table = accountTables[list];
  await db
    .insert(table)
    .values(productIds.map((productId, index) => ({ userId, productId, createdAt: new Date(now.getTime() + index) })))
    .onConflictDoNothing();
}

async function deleteAccountRows(db: Db, userId: string, list: SavedListName, productIds: readonly number[] | "all") {
  const table = accountTables[list];
  if (productIds !== "all" && productIds.length === 0) return;
  await db.delete(table).where(and(eq(table.userId, userId), productIds === "all" ? undefined : inArray(table.productId, [...productIds])));
}

/**
 * Merges the browser's lists into a signed-in customer's account (docs/rules.md#cart: cart, wishlist and compare
 * follow the customer) and returns what both hold now: the union, compare capped at its limit.
 * Ids of products that do not exist are dropped.
 */
export async function syncSavedItems(db: Db, userId: string, browser: SavedLists, now: Date = new Date()): Promise<SavedLists> {
  return db.transaction(async (tx) => {
    const browserIds = [...new Set([...browser.wishlist, ...browser.compare])];
    const existing = new Set(
      browserIds.length === 0
        ? []
        : (await tx.select({ id: products.id }).from(products).where(inArray(products.id, browserIds))).map((row) => row.id),
    );
    const known = {
      wishlist: normaliseIds(browser.wishlist, savedListLimits.wishlist).filter((id) => existing.has(id)),
      compare: normaliseIds(browser.compare, savedListLimits.compare).filter((id) => existing.has(id)),
    };
    const plan = planAccountSync(known, await getAccountSavedItems(tx, userId));
    for (const list of savedListNames) {
      await deleteAccountRows(tx, userId, list, plan.remove[list]);
      await insertAccountRows(tx, userId, list, plan.insert[list], now);
    }
    return plan.lists;
  });
}

/** One change to a signed-in customer's list, by the same rules as the browser's (add only when absent, compare limit). */
export async function changeAccountSavedItems(
  db: Db,
  userId: string,
  change: SavedItemsChange,
  now: Date = new Date(),
): Promise<{ lists: SavedLists; outcome: SavedItemsOutcome }> {
  return db.transaction(async (tx) => {
    const result = applySavedItemsChange(await getAccountSavedItems(tx, userId), change);
    if (change.intent === "add" && result.outcome === "added") await insertAccountRows(tx, userId, change.list, [change.productId], now);
    if (change.intent === "remove" && result.outcome === "removed") await deleteAccountRows(tx, userId, change.list, [change.productId]);
    if (change.intent === "clear") await deleteAccountRows(tx, userId, change.list, "all");
    return result;
  });
}
