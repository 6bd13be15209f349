/**
 * No oversell under load, on real PostgreSQL with two app processes (PGlite has one connection and
 * cannot race): 100 simultaneous checkouts, each from its own cart, for a variant with stock 10.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { count, eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { orders, productVariants, stockMovements } from "#server/db/schema.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";

type Worker = { ready: Promise<void>; outcomes: Promise<string[]>; go: () => void };

function startWorker(databaseUrl: string, cartIds: string[]): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/checkout-worker.ts"), databaseUrl, JSON.stringify(cartIds)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill();
  });
  const lines = readline.createInterface({ input: child.stdout });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const outcomes = new Promise<string[]>((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`checkout worker exited with ${code}`)));
    lines.on("line", (line) => {
      if (line === "ready") markReady();
      else resolve(JSON.parse(line) as string[]);
    });
  });
  return { ready, outcomes, go: () => child.stdin.write("go\n") };
}

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

    const workers = [startWorker(databaseUrl, cartIds.slice(0, 50)), startWorker(databaseUrl, cartIds.slice(50))];
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
