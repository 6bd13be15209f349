/**
 * A bundle and its last part sold alone, raced on real PostgreSQL by two app processes (PGlite has one
 * connection and cannot race): the bundle takes its parts' units through the same conditional update as
 * the part's own checkouts (docs/decisions/0100-bundles.md), so the last carrycot goes to one order only.
 */
import { count, eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { startCheckoutWorker } from "#tests/checkout-workers.ts";
import { orders, productVariants } from "#server/db/schema.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { createTrio } from "#tests/fixtures/bundle.fixtures.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";

testOnPostgres(
  "two processes, 20 checkouts of the trio and 20 of its last carrycot alone: one order, the carrycot never below 0",
  async () => {
    const handle = await createTestDb({ poolSize: 4 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    const { trio, carrycot, stroller } = await createTrio(db, { stock: { carrycot: 1 } });
    const trioCarts: string[] = [];
    const carrycotCarts: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      trioCarts.push(await cartWith(db, [{ variantId: trio.variantIds[0]!, quantity: 1 }]));
      carrycotCarts.push(await cartWith(db, [{ variantId: carrycot.variantId, quantity: 1 }]));
    }
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);

    const workers = [startCheckoutWorker(databaseUrl, trioCarts), startCheckoutWorker(databaseUrl, carrycotCarts)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const outcomes = (await Promise.all(workers.map((worker) => worker.outcomes))).flat();

    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "out-of-stock")).toHaveLength(39);
    const stockOf = async (variantId: number) =>
      (await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
    expect(await stockOf(carrycot.variantId)).toBe(0);
    const [placed] = await db.select({ n: count() }).from(orders);
    expect(placed!.n).toBe(1);
    // The stroller went only if the trio won.
    const trioWon = outcomes.slice(0, 20).includes("ok");
    expect(await stockOf(stroller.variantIds[0]!)).toBe(trioWon ? 4 : 5);
  },
  120_000,
);
