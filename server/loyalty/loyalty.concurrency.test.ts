/**
 * The same points spent twice at once, on real PostgreSQL with two app processes (PGlite has one
 * connection and cannot race): the card's conditional UPDATE lets one checkout spend them, the other is
 * told the balance is short and its order rolls back, stock included.
 */
import { count, eq, gt } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { loyaltyCards, loyaltyEntries, orders } from "#server/db/schema.ts";
import { startCheckoutWorker } from "#tests/checkout-workers.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import { sql } from "drizzle-orm";
import { addCounterPoints, joinLoyaltyCard } from "./loyalty.service";

testOnPostgres(
  "two app processes, 10 checkouts at once each spending the card's 500 points: one order has them, 9 are told the points are short",
  async () => {
    const handle = await createTestDb({ poolSize: 4 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    const userId = await createUser(db);
    const staffId = await createUser(db);
    const joined = await joinLoyaltyCard(db, { userId, consent: true, now: new Date() });
    if (!joined.ok) throw new Error(joined.error);
    await addCounterPoints(db, { cardId: joined.card.id, receiptNumber: "SC-RACE", receiptCents: 50_000, actorUserId: staffId, now: new Date() });
    const { variantId } = await createProduct(db, { priceCents: 4990, variants: [{ stock: 10 }] });
    const cartIds: string[] = [];
    for (let i = 0; i < 10; i += 1) cartIds.push(await cartWith(db, [{ variantId, quantity: 1 }]));
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);
    const options = { userId, loyaltyPoints: 500 };
    const workers = [startCheckoutWorker(databaseUrl, cartIds.slice(0, 5), options), startCheckoutWorker(databaseUrl, cartIds.slice(5), options)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const outcomes = (await Promise.all(workers.map((worker) => worker.outcomes))).flat();
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "loyalty-points:not-enough-points")).toHaveLength(9);
    const [card] = await db.select({ balance: loyaltyCards.balance }).from(loyaltyCards).where(eq(loyaltyCards.id, joined.card.id));
    expect(card!.balance).toBe(0);
    const [discounted] = await db.select({ n: count() }).from(orders).where(gt(orders.loyaltyPointsRedeemed, 0));
    const [spends] = await db.select({ n: count() }).from(loyaltyEntries).where(eq(loyaltyEntries.kind, "order-redeemed"));
    expect([discounted!.n, spends!.n]).toEqual([1, 1]);
    // The losers' stock went back with their rollback.
    expect(await stockOf(db, variantId)).toBe(9);
  },
  180_000,
);
