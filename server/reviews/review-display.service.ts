/**
 * What the shop shows of customers' reviews: the published ones only, their average and count per product
 * (cards, the product page, its structured data). Reads only; review.service.ts writes them.
 */
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { productReviews } from "#server/db/schema.ts";
import { createCatalogueCache } from "#server/catalog/catalogue-cache.ts";

/** Published reviews of a product: how many, their average to one decimal. */
export type ReviewSummary = { count: number; average: number };

export type PublishedReview = {
  id: number;
  authorName: string;
  stars: number;
  body: string;
  locale: string;
  createdAt: Date;
  reply: string | null;
  repliedAt: Date | null;
};

export const productReviewsShown = 20;

/** The summary of each product of `productIds` that has published reviews (products without are absent). */
export async function getReviewSummaries(db: Db, productIds: readonly number[]): Promise<Map<number, ReviewSummary>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      productId: productReviews.productId,
      count: count(),
      // numeric, so the rounding is decimal; both drivers hand it back as text.
      average: sql<number>`round(avg(${productReviews.stars})::numeric, 1)`.mapWith(Number),
    })
    .from(productReviews)
    .where(and(inArray(productReviews.productId, ids), eq(productReviews.status, "published")))
    .groupBy(productReviews.productId);
  return new Map(rows.map(({ productId, ...summary }) => [productId, summary]));
}

type ProductReviews = { summary: ReviewSummary | null; reviews: PublishedReview[] };

/** What the product page shows of reviews, kept while the catalogue (reviews included) stays the same. */
const keptProductReviews = createCatalogueCache<ProductReviews>({ maxAgeMs: 60_000, maxEntries: 1_000 });

/** A product's published reviews, newest first (at most `productReviewsShown`), with their summary. */
export function getProductReviews(db: Db, productId: number): Promise<ProductReviews> {
  return keptProductReviews.get(db, String(productId), () => readProductReviews(db, productId));
}

async function readProductReviews(db: Db, productId: number): Promise<ProductReviews> {
  const [summaries, reviews] = await Promise.all([
    getReviewSummaries(db, [productId]),
    db
      .select({
        id: productReviews.id,
        authorName: productReviews.authorName,
        stars: productReviews.stars,
        body: productReviews.body,
        locale: productReviews.locale,
        createdAt: productReviews.createdAt,
        reply: productReviews.reply,
        repliedAt: productReviews.repliedAt,
      })
      .from(productReviews)
      .where(and(eq(productReviews.productId, productId), eq(productReviews.status, "published")))
      .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
      .limit(productReviewsShown),
  ]);
  return { summary: summaries.get(productId) ?? null, reviews };
}
