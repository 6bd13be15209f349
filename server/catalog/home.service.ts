import { and, desc, eq, gt, isNull, not, or, type SQL } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { products } from "#server/db/schema.ts";
import { getProductCards, isOnRequestSql, type ProductCardData } from "./product-card";

/** docs/rules.md#listing-and-search: the home page's "new arrivals" shows at most 8 products; the other rows too. */
export const homeRowSize = 8;

export type HomeProducts = {
  newArrivals: ProductCardData[];
  bestSellers: ProductCardData[];
  offers: ProductCardData[];
};

async function selectRowIds(db: Db, where: SQL | undefined, orderBy: SQL) {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.isPublished, true), where))
    .orderBy(orderBy, products.id)
    .limit(homeRowSize);
  return rows.map((row) => row.id);
}

/** The home page's rows: new arrivals, best sellers and current offers, at most 8 each, as product cards. */
export async function getHomeProducts(db: Db, locale: Locale, now: Date): Promise<HomeProducts> {
  const offerRunning = or(isNull(products.offerEndsAt), gt(products.offerEndsAt, now));
  const [newIds, bestIds, offerIds] = await Promise.all([
    selectRowIds(db, eq(products.isNew, true), desc(products.createdAt)),
    selectRowIds(db, gt(products.saleCount, 0), desc(products.saleCount)),
    selectRowIds(db, and(gt(products.discountPercent, 0), offerRunning, not(isOnRequestSql())), desc(products.discountPercent)),
  ]);
  const cards = await getProductCards(db, { productIds: [...newIds, ...bestIds, ...offerIds], locale, now });
  const byId = new Map(cards.map((card) => [card.id, card]));
  const row = (ids: number[]) => ids.flatMap((id) => byId.get(id) ?? []);
  return { newArrivals: row(newIds), bestSellers: row(bestIds), offers: row(offerIds) };
}
