import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import { productVariants, stockMovements } from "#server/db/schema.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { adjustStockBy, giveBackStock, recordTakenStock, setInitialStock, setStockTo, takeStock } from "./stock-ledger";

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

async function stockOf(db: Db, variantId: number) {
  const [row] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
  return row!.stock;
}

async function movementsOf(db: Db, variantId: number) {
  const rows = await db
    .select({ delta: stockMovements.delta, reason: stockMovements.reason })
    .from(stockMovements)
    .where(eq(stockMovements.variantId, variantId))
    .orderBy(asc(stockMovements.id));
  return rows.map((row) => [row.delta, row.reason]);
}

test("taking sums the lines per variant and is all or nothing; the movements follow when recorded", async () => {
  const db = await openDb();
  const pram = await createProduct(db, { variants: [{ stock: 5 }] });
  const cot = await createProduct(db, { variants: [{ stock: 2 }] });
  // Three cots in two lines: more than the two there are, so the pram is not taken either.
  expect(
    await takeStock(db, [
      { variantId: pram.variantId, quantity: 1 },
      { variantId: cot.variantId, quantity: 2 },
      { variantId: cot.variantId, quantity: 1 },
    ]),
  ).toEqual({ ok: false, short: [{ variantId: cot.variantId, available: 2 }] });
  expect([await stockOf(db, pram.variantId), await stockOf(db, cot.variantId)]).toEqual([5, 2]);

  const taken = await takeStock(db, [
    { variantId: cot.variantId, quantity: 1 },
    { variantId: pram.variantId, quantity: 2 },
    { variantId: cot.variantId, quantity: 1 },
  ]);
  if (!taken.ok) throw new Error("not taken");
  expect([await stockOf(db, pram.variantId), await stockOf(db, cot.variantId)]).toEqual([3, 0]);
  await recordTakenStock(db, taken.taken, { reason: "order-placed" });
  expect(await movementsOf(db, cot.variantId)).toEqual([[-2, "order-placed"]]);
  expect(await movementsOf(db, pram.variantId)).toEqual([[-2, "order-placed"]]);

  await giveBackStock(db, [{ variantId: cot.variantId, quantity: 2 }], { reason: "order-cancelled" });
  expect(await stockOf(db, cot.variantId)).toBe(2);
  expect(await movementsOf(db, cot.variantId)).toEqual([
    [-2, "order-placed"],
    [2, "order-cancelled"],
  ]);
});

test("an adjustment never goes below zero nor above the maximum; each one has its movement", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 3 }] });
  expect(await adjustStockBy(db, { variantId, delta: -4, maxStock: 100 }, { reason: "Rotto" })).toEqual({ ok: false });
  expect(await adjustStockBy(db, { variantId, delta: 98, maxStock: 100 }, { reason: "Arrivo" })).toEqual({ ok: false });
  expect(await adjustStockBy(db, { variantId, delta: -1, maxStock: 100 }, { reason: "Rotto" })).toEqual({ ok: true, stock: 2 });
  expect(await movementsOf(db, variantId)).toEqual([[-1, "Rotto"]]);
});

test("a counted figure records the difference (none when it is the same); a new variant's first figure its whole stock", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 3 }] });
  expect(await setStockTo(db, { variantId, stock: 7 }, { reason: "Importazione CSV" })).toBe(true);
  expect(await setStockTo(db, { variantId, stock: 7 }, { reason: "Importazione CSV" })).toBe(true);
  expect(await setStockTo(db, { variantId: 999_999, stock: 7 }, { reason: "Importazione CSV" })).toBe(false);
  expect(await stockOf(db, variantId)).toBe(7);
  expect(await movementsOf(db, variantId)).toEqual([[4, "Importazione CSV"]]);

  const fresh = await createProduct(db, { variants: [{ stock: 0 }] });
  await setInitialStock(db, { variantId: fresh.variantId, stock: 0 }, { reason: "Stock iniziale" });
  expect(await movementsOf(db, fresh.variantId)).toEqual([]);
  await setInitialStock(db, { variantId: fresh.variantId, stock: 6 }, { reason: "Stock iniziale" });
  expect(await stockOf(db, fresh.variantId)).toBe(6);
  expect(await movementsOf(db, fresh.variantId)).toEqual([[6, "Stock iniziale"]]);
  await expect(setInitialStock(db, { variantId: fresh.variantId, stock: 2 }, { reason: "Stock iniziale" })).rejects.toThrow(/not a new one/);
});

testOnPostgres("two takers of the last unit at once: one gets it, the other is told none is left", async () => {
  const db = await openDb(2);
  const { variantId } = await createProduct(db, { variants: [{ stock: 1 }] });
  const take = () =>
    db.transaction(async (tx) => {
      const taken = await takeStock(tx, [{ variantId, quantity: 1 }]);
      if (taken.ok) await recordTakenStock(tx, taken.taken, { reason: "order-placed" });
      return taken.ok ? "taken" : taken.short;
    });
  const outcomes = await Promise.all([take(), take()]);
  expect(outcomes).toContainEqual("taken");
  expect(outcomes).toContainEqual([{ variantId, available: 0 }]);
  expect(await stockOf(db, variantId)).toBe(0);
  expect(await movementsOf(db, variantId)).toEqual([[-1, "order-placed"]]);
});
