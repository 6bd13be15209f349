/**
 * A code's limits under load, on real PostgreSQL with two app processes (PGlite has one connection and
 * cannot race): the conditional UPDATE gives out exactly the uses a code has, in all and per customer.
 */
import { count, eq, isNotNull, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { discountCodes, discountCodeUses, orders } from "#server/db/schema.ts";
import { startCheckoutWorker, type CheckoutWorkerOptions } from "#tests/checkout-workers.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";
import { newCoupon } from "#tests/fixtures/coupons.fixtures.ts";

/** `carts` checkouts at once with the code, half from each of two processes; their outcomes and the code's row after. */
async function raceCheckouts(carts: number, coupon: Record<string, string>, options: CheckoutWorkerOptions) {
  const handle = await createTestDb({ poolSize: 4 });
  onTestFinished(() => handle.close());
  const { db } = handle;
  // Valid today, whenever the suite runs.
  const { id } = await newCoupon(db, { code: "LAMPO", validFrom: "2020-01-01", validUntil: "2099-12-31", ...coupon });
  const { variantId } = await createProduct(db, { priceCents: 4990, variants: [{ stock: carts }] });
  const cartIds: string[] = [];
  for (let i = 0; i < carts; i += 1) cartIds.push(await cartWith(db, [{ variantId, quantity: 1 }]));
  const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
  const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);
  const half = Math.ceil(carts / 2);
  const workers = [startCheckoutWorker(databaseUrl, cartIds.slice(0, half), options), startCheckoutWorker(databaseUrl, cartIds.slice(half), options)];
  await Promise.all(workers.map((worker) => worker.ready));
  for (const worker of workers) worker.go();
  const outcomes = (await Promise.all(workers.map((worker) => worker.outcomes))).flat();
  const [code] = await db.select({ usedCount: discountCodes.usedCount }).from(discountCodes).where(eq(discountCodes.id, id));
  const [discounted] = await db.select({ n: count() }).from(orders).where(isNotNull(orders.discountCodeId));
  const [uses] = await db.select({ n: count() }).from(discountCodeUses);
  return { outcomes, usedCount: code!.usedCount, discountedOrders: discounted!.n, useRows: uses!.n };
}

testOnPostgres(
  "two app processes, 50 simultaneous checkouts with a code limited to 10 uses: exactly 10 discounted orders, 40 told it is used up",
  async () => {
    const result = await raceCheckouts(50, { maxUses: "10" }, { discountCode: "LAMPO", email: "own" });
    expect(result.outcomes.filter((outcome) => outcome === "ok")).toHaveLength(10);
    expect(result.outcomes.filter((outcome) => outcome === "discount-code:used")).toHaveLength(40);
    expect(result).toMatchObject({ usedCount: 10, discountedOrders: 10, useRows: 10 });
  },
  180_000,
);

testOnPostgres(
  "two app processes, 20 simultaneous checkouts of one customer with a code once per customer: one order, 19 told they used it",
  async () => {
    const result = await raceCheckouts(20, { maxUsesPerCustomer: "1" }, { discountCode: "LAMPO", email: "shared" });
    expect(result.outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    expect(result.outcomes.filter((outcome) => outcome === "discount-code:used-by-you")).toHaveLength(19);
    expect(result).toMatchObject({ usedCount: 1, discountedOrders: 1, useRows: 1 });
  },
  180_000,
);
