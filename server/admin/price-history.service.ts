/**
 * Price history for the EU rule (Omnibus directive, art. 6a of directive 98/6/EC): a price
 * reduction shows the lowest price the product had in the 30 days before the reduction.
 * Every change of list price, discount or offer end writes a row with the price then in force.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { productPriceHistory } from "#server/db/schema.ts";
import { effectivePriceCents } from "#server/money.ts";

const thirtyDaysMs = 30 * 24 * 60 * 60 * 1000;

type PriceFields = { priceCents: number; discountPercent: number; offerEndsAt: Date | null };

/** Writes a history row when what a customer pays, or the list price, differs from the last row. */
export async function recordPriceIfChanged(tx: Db, productId: number, product: PriceFields, now: Date): Promise<boolean> {
  const effective = effectivePriceCents(product, now);
  const [last] = await tx
    .select({ priceCents: productPriceHistory.priceCents, effectivePriceCents: productPriceHistory.effectivePriceCents })
    .from(productPriceHistory)
    .where(eq(productPriceHistory.productId, productId))
    .orderBy(desc(productPriceHistory.recordedAt), desc(productPriceHistory.id))
    .limit(1);
  if (last && last.priceCents === product.priceCents && last.effectivePriceCents === effective) return false;
  await tx.insert(productPriceHistory).values({ productId, priceCents: product.priceCents, effectivePriceCents: effective, recordedAt: now });
  return true;
}

/**
 * The lowest price a customer paid in the 30 days before the price now in force began (the row
 * in force at the start of that window counts too). Null when the product has no history at
 * all; the current list price when nothing came before the current price.
 */
export async function lowestPriceOfLast30Days(db: Db, productId: number, now: Date): Promise<number | null> {
  const rows = await db
    .select({
      priceCents: productPriceHistory.priceCents,
      effectivePriceCents: productPriceHistory.effectivePriceCents,
      recordedAt: productPriceHistory.recordedAt,
    })
    .from(productPriceHistory)
    .where(and(eq(productPriceHistory.productId, productId), lt(productPriceHistory.recordedAt, new Date(now.getTime() + 1))))
    .orderBy(desc(productPriceHistory.recordedAt), desc(productPriceHistory.id))
    .limit(500);
  const [current, ...earlier] = rows;
  if (!current) return null;
  const windowStart = current.recordedAt.getTime() - thirtyDaysMs;
  const inWindow: number[] = [];
  for (const row of earlier) {
    inWindow.push(row.effectivePriceCents);
    // The first row at or before the window's start was in force when it began: include it, then stop.
    if (row.recordedAt.getTime() <= windowStart) break;
  }
  if (inWindow.length === 0) return current.priceCents;
  return Math.min(...inWindow);
}

export type PriceHistoryRow = { recordedAt: string; priceCents: number; effectivePriceCents: number };

export async function listPriceHistory(db: Db, productId: number, limit = 30): Promise<PriceHistoryRow[]> {
  const rows = await db
    .select()
    .from(productPriceHistory)
    .where(eq(productPriceHistory.productId, productId))
    .orderBy(desc(productPriceHistory.recordedAt), desc(productPriceHistory.id))
    .limit(limit);
  return rows.map((row) => ({ recordedAt: row.recordedAt.toISOString(), priceCents: row.priceCents, effectivePriceCents: row.effectivePriceCents }));
}
