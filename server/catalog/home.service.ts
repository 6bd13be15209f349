import { and, asc, desc, eq, exists, gt, inArray, isNull, not, or, sql, type SQL } from "drizzle-orm";
import type { Locale } from "#app/lib/locale.ts";
import type { Db } from "#server/db/client.ts";
import { brands, productBrands, productImages, products } from "#server/db/schema.ts";
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";

/** DECISIONS.md: the home page's "new arrivals" shows at most 8 products; the other rows too. */
export const homeRowSize = 8;

export type ProductTileImage = { storageKey: string; width: number; height: number; alt: string };

/** The light card data of a product tile (the full product card comes with the catalogue). */
export type ProductTileData = {
  id: number;
  name: string;
  priceCents: number;
  /** What a customer pays today: the discount applied unless its offer has ended. */
  effectivePriceCents: number;
  /** The discount that applies now (0 when none or ended). */
  discountPercent: number;
  isNew: boolean;
  isFreeShipping: boolean;
  /** "On request" products show no price (DECISIONS.md, Catalogue). */
  isOnRequest: boolean;
  rating: number;
  image: ProductTileImage | null;
};

export type HomeProducts = {
  newArrivals: ProductTileData[];
  bestSellers: ProductTileData[];
  offers: ProductTileData[];
};

/** Flagged on the product, or implied by an on-request brand tag. */
const isOnRequest = (db: Db) =>
  or(
    products.isOnRequest,
    exists(
      db
        .select({ one: sql`1` })
        .from(productBrands)
        .innerJoin(brands, eq(brands.id, productBrands.brandId))
        .where(and(eq(productBrands.productId, products.id), eq(brands.marksOnRequest, true))),
    ),
  ) as SQL<boolean>;

async function selectTiles(db: Db, locale: Locale, now: Date, where: SQL | undefined, orderBy: SQL[]) {
  const rows = await db
    .select({
      id: products.id,
      nameIt: products.nameIt,
      nameEn: products.nameEn,
      priceCents: products.priceCents,
      discountPercent: products.discountPercent,
      offerEndsAt: products.offerEndsAt,
      isNew: products.isNew,
      isFreeShipping: products.isFreeShipping,
      rating: products.rating,
      isOnRequest: sql<boolean>`${isOnRequest(db)}`.mapWith(Boolean),
    })
    .from(products)
    .where(and(eq(products.isPublished, true), where))
    .orderBy(...orderBy, asc(products.id))
    .limit(homeRowSize);
  return rows.map(
    (row): Omit<ProductTileData, "image"> => ({
      id: row.id,
      name: locale === "en" ? row.nameEn : row.nameIt,
      priceCents: row.priceCents,
      effectivePriceCents: effectivePriceCents(row, now),
      discountPercent: activeDiscountPercent(row.discountPercent, row.offerEndsAt, now),
      isNew: row.isNew,
      isFreeShipping: row.isFreeShipping,
      isOnRequest: row.isOnRequest,
      rating: row.rating,
    }),
  );
}

/** The first picture of each product (lowest position), in one query. */
async function selectFirstImages(db: Db, locale: Locale, productIds: number[]) {
  const images = new Map<number, ProductTileImage>();
  if (productIds.length === 0) return images;
  const rows = await db
    .selectDistinctOn([productImages.productId], {
      productId: productImages.productId,
      storageKey: productImages.storageKey,
      width: productImages.width,
      height: productImages.height,
      altIt: productImages.altIt,
      altEn: productImages.altEn,
    })
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(productImages.productId, asc(productImages.position), asc(productImages.id));
  for (const row of rows) {
    images.set(row.productId, {
      storageKey: row.storageKey,
      width: row.width,
      height: row.height,
      alt: locale === "en" ? row.altEn : row.altIt,
    });
  }
  return images;
}

/** The home page's rows: new arrivals, best sellers and current offers, at most 8 each. */
export async function getHomeProducts(db: Db, locale: Locale, now: Date): Promise<HomeProducts> {
  const offerRunning = or(isNull(products.offerEndsAt), gt(products.offerEndsAt, now));
  const [newArrivals, bestSellers, offers] = await Promise.all([
    selectTiles(db, locale, now, eq(products.isNew, true), [desc(products.createdAt)]),
    selectTiles(db, locale, now, gt(products.saleCount, 0), [desc(products.saleCount)]),
    selectTiles(db, locale, now, and(gt(products.discountPercent, 0), offerRunning, not(isOnRequest(db))), [
      desc(products.discountPercent),
    ]),
  ]);
  const allIds = [...new Set([...newArrivals, ...bestSellers, ...offers].map((tile) => tile.id))];
  const images = await selectFirstImages(db, locale, allIds);
  const withImage = (tile: Omit<ProductTileData, "image">): ProductTileData => ({ ...tile, image: images.get(tile.id) ?? null });
  return { newArrivals: newArrivals.map(withImage), bestSellers: bestSellers.map(withImage), offers: offers.map(withImage) };
}
