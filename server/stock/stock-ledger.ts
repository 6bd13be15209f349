/**
 * The stock ledger: the only writer of product_variants.stock and of stock_movements. Every change of
 * a variant's units and its movement row (reason, order, who, when) go together, in the caller's
 * transaction. Orders take and give back; the back office adjusts and sets; imports and new variants
 * set their first figure. See docs/decisions/0047-one-owner-orders-stock.md.
 *
 * Every change that brings a variant from 0 to more sends its back-in-stock alerts in the same
 * transaction (docs/decisions/0067-back-in-stock-alerts.md): no route that gives stock can forget them.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { productVariants, stockMovements } from "#server/db/schema.ts";
import { isBackInStock } from "#server/stock-alerts/stock-alerts.ts";
import { sendBackInStockAlerts } from "#server/stock-alerts/stock-alerts.service.ts";
import { quantitiesPerVariant, shortages, type Shortage, type StockLine } from "./stock";

/** Why the units moved, for the movement rows. `now` absent: the database's clock. */
export type StockRecord = { reason: string; orderId?: string | null; actorUserId?: string | null; now?: Date };

/** Units taken by `takeStock`, summed per variant, waiting for their movement rows (`recordTakenStock`). */
export type TakenStock = { readonly units: ReadonlyMap<number, number> };

export type TakeStockResult = { ok: true; taken: TakenStock } | { ok: false; short: Shortage[] };

async function recordMovements(tx: Db, units: Iterable<[variantId: number, delta: number]>, record: StockRecord) {
  const rows = [...units].map(([variantId, delta]) => ({
    variantId,
    delta,
    reason: record.reason,
    orderId: record.orderId ?? null,
    actorUserId: record.actorUserId ?? null,
    ...(record.now ? { createdAt: record.now } : {}),
  }));
  if (rows.length > 0) await tx.insert(stockMovements).values(rows);
}

/**
 * Takes the lines' units, all or nothing: quantities summed per variant, the variants locked in id order
 * (two takers never wait on each other crosswise; the locks are held to commit), then one conditional
 * UPDATE per variant. Too few of any variant: nothing is taken, the answer says what is left. The
 * movements follow with `recordTakenStock` once the order they are for exists: a checkout that loses the
 * race for the last units leaves before writing its order (docs/decisions/0013-checkout-and-orders.md).
 */
export async function takeStock(tx: Db, lines: readonly StockLine[]): Promise<TakeStockResult> {
  const wanted = quantitiesPerVariant(lines);
  if (wanted.size === 0) return { ok: true, taken: { units: wanted } };
  const locked = await tx
    .select({ id: productVariants.id, stock: productVariants.stock })
    .from(productVariants)
    .where(inArray(productVariants.id, [...wanted.keys()]))
    .orderBy(asc(productVariants.id))
    .for("update");
  const stockOf = new Map(locked.map((row) => [row.id, row.stock]));
  const short = shortages(wanted, (variantId) => stockOf.get(variantId) ?? 0);
  if (short.length > 0) return { ok: false, short };
  for (const [variantId, quantity] of wanted) {
    const taken = await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} - ${quantity}` })
      .where(and(eq(productVariants.id, variantId), sql`${productVariants.stock} >= ${quantity}`))
      .returning({ id: productVariants.id });
    if (taken.length === 0) throw new Error(`takeStock: variant ${variantId} changed under its row lock`);
  }
  return { ok: true, taken: { units: wanted } };
}

/** The movement rows of units `takeStock` took (negative deltas). */
export async function recordTakenStock(tx: Db, taken: TakenStock, record: StockRecord): Promise<void> {
  await recordMovements(
    tx,
    [...taken.units].map(([variantId, quantity]) => [variantId, -quantity]),
    record,
  );
}

/** Puts the lines' units back on the shelf (an order let go), summed per variant, in id order. */
export async function giveBackStock(tx: Db, lines: readonly StockLine[], record: StockRecord): Promise<void> {
  const units = quantitiesPerVariant(lines);
  const backInStock: number[] = [];
  for (const [variantId, quantity] of units) {
    const [after] = await tx
      .update(productVariants)
      .set({ stock: sql`${productVariants.stock} + ${quantity}` })
      .where(eq(productVariants.id, variantId))
      .returning({ stock: productVariants.stock });
    if (after && isBackInStock(after.stock - quantity, after.stock)) backInStock.push(variantId);
  }
  await recordMovements(tx, units, record);
  await sendBackInStockAlerts(tx, backInStock, record.now);
}

/**
 * Adds `delta` (negative removes) with one conditional UPDATE: never below zero (even when an order
 * takes the last pieces at the same moment) nor above `maxStock`. The variant's new stock, or a refusal.
 */
export async function adjustStockBy(
  tx: Db,
  args: { variantId: number; delta: number; maxStock: number },
  record: StockRecord,
): Promise<{ ok: true; stock: number } | { ok: false }> {
  const next = sql`${productVariants.stock} + ${args.delta}`;
  const [updated] = await tx
    .update(productVariants)
    .set({ stock: next })
    .where(and(eq(productVariants.id, args.variantId), sql`${next} >= 0`, sql`${next} <= ${args.maxStock}`))
    .returning({ stock: productVariants.stock });
  if (!updated) return { ok: false };
  await recordMovements(tx, [[args.variantId, args.delta]], record);
  if (isBackInStock(updated.stock - args.delta, updated.stock)) await sendBackInStockAlerts(tx, [args.variantId], record.now);
  return { ok: true, stock: updated.stock };
}

/** Sets a variant's stock to a counted figure (an import), its movement the difference; false when there is no such variant. */
export async function setStockTo(tx: Db, args: { variantId: number; stock: number }, record: StockRecord): Promise<boolean> {
  const [before] = await tx
    .select({ stock: productVariants.stock })
    .from(productVariants)
    .where(eq(productVariants.id, args.variantId))
    .for("update");
  if (!before) return false;
  const delta = args.stock - before.stock;
  if (delta === 0) return true;
  await tx.update(productVariants).set({ stock: args.stock }).where(eq(productVariants.id, args.variantId));
  await recordMovements(tx, [[args.variantId, delta]], record);
  if (isBackInStock(before.stock, args.stock)) await sendBackInStockAlerts(tx, [args.variantId], record.now);
  return true;
}

/** The first figure of a variant just inserted (its stock is still the default 0), with its movement. */
export async function setInitialStock(tx: Db, args: { variantId: number; stock: number }, record: StockRecord): Promise<void> {
  if (args.stock === 0) return;
  const [set] = await tx
    .update(productVariants)
    .set({ stock: args.stock })
    .where(and(eq(productVariants.id, args.variantId), eq(productVariants.stock, 0)))
    .returning({ id: productVariants.id });
  if (!set) throw new Error(`setInitialStock: variant ${args.variantId} is not a new one`);
  await recordMovements(tx, [[args.variantId, args.stock]], record);
}

/**
 * Units already taken for one order become another's (an exchange's reserved units, shipped by its
 * replacement order): the shelf does not change, two movement rows say who holds them now.
 */
export async function moveTakenStock(tx: Db, lines: readonly StockLine[], from: StockRecord, to: StockRecord): Promise<void> {
  const units = quantitiesPerVariant(lines);
  await recordMovements(tx, units, from);
  await recordMovements(
    tx,
    [...units].map(([variantId, quantity]) => [variantId, -quantity]),
    to,
  );
}
