/**
 * No oversell under load, on real PostgreSQL with two app processes (PGlite has one connection and
 * cannot race): 100 simultaneous checkouts, each from its own cart, for a variant with stock 10.
 */
import { count, eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { startCheckoutWorker } from "#tests/checkout-workers.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { orders, productVariants, stockMovements } from "#server/db/schema.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";

testOnPostgres(
  "two app processes, 100 simultaneous checkouts of a variant with stock 10: exactly 10 orders, 90 out of stock, stock never below 0",
  async () => {
    const handle = await createTestDb({ poolSize: 4 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    const { variantId } = await createProduct(db, { priceCents: 8990, variants: [{ stock: 10 }] });
    const cartIds: string[] = [];
    for (let i = 0; i < 100; i += 1) cartIds.push(await cartWith(db, [{ variantId, quantity: 1 }]));
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);

    const workers = [startCheckoutWorker(databaseUrl, cartIds.slice(0, 50)), startCheckoutWorker(databaseUrl, cartIds.slice(50))];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const outcomes = (await Promise.all(workers.map((worker) => worker.outcomes))).flat();

    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome === "out-of-stock")).toHaveLength(90);
    const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
    expect(variant!.stock).toBe(0);
    const [placed] = await db.select({ n: count() }).from(orders);
    expect(placed!.n).toBe(10);
    const [taken] = await db.select({ total: sql<number>`sum(${stockMovements.delta})`.mapWith(Number) }).from(stockMovements);
    expect(taken!.total).toBe(-10);
  },
  120_000,
);
