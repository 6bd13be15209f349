/**
 * A card's last balance under load, on real PostgreSQL with two app processes (PGlite has one connection and
 * cannot race): the conditional UPDATE lets exactly one checkout spend it; the others are refused, nothing negative.
 */
import { count, eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import { giftCardMovements, giftCards, orders } from "#server/db/schema.ts";
import { startCheckoutWorker } from "#tests/checkout-workers.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith } from "#tests/fixtures/checkout.fixtures.ts";
import { issueGiftCard } from "./gift-card.service";

testOnPostgres(
  "two app processes, 20 simultaneous checkouts spending the same card's last 50 €: one order paid with it, 19 refused, balance 0, never below",
  async () => {
    const handle = await createTestDb({ poolSize: 4 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    const card = await issueGiftCard(db, { origin: "counter", amountCents: 5000, now: new Date() });
    const { variantId } = await createProduct(db, { priceCents: 8990, variants: [{ stock: 20 }] });
    const cartIds: string[] = [];
    for (let i = 0; i < 20; i += 1) cartIds.push(await cartWith(db, [{ variantId, quantity: 1 }]));
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const databaseUrl = withDatabase(process.env.TEST_DATABASE_URL!, current!.name);
    const options = { giftCardCode: card.code, email: "own" as const };
    const workers = [startCheckoutWorker(databaseUrl, cartIds.slice(0, 10), options), startCheckoutWorker(databaseUrl, cartIds.slice(10), options)];
    await Promise.all(workers.map((worker) => worker.ready));
    for (const worker of workers) worker.go();
    const outcomes = (await Promise.all(workers.map((worker) => worker.outcomes))).flat();

    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    // The losers read the balance before the winner committed (balance-changed) or after (empty): refused either way.
    expect(outcomes.filter((outcome) => outcome === "gift-card:balance-changed" || outcome === "gift-card:empty")).toHaveLength(19);
    const [row] = await db.select({ balanceCents: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, card.id));
    expect(row!.balanceCents).toBe(0);
    const [paidWithCard] = await db.select({ n: count(), cents: sql<number>`sum(${orders.giftCardCents})`.mapWith(Number) }).from(orders);
    expect(paidWithCard).toEqual({ n: 1, cents: 5000 });
    const [moved] = await db.select({ total: sql<number>`sum(${giftCardMovements.amountCents})`.mapWith(Number) }).from(giftCardMovements);
    expect(moved!.total).toBe(0);
  },
  180_000,
);
