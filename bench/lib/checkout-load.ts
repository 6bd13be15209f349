/**
 * The work of bench/checkout.mjs (TypeScript, run with `node --import tsx`): on a fresh PostgreSQL database,
 * concurrent loops that each fill a cart and check it out with placeOrder (the whole transaction: re-price,
 * lock, conditional stock UPDATE, order, lines, history, payment row, outbox mail), against add-to-cart alone
 * in the same run as the baseline. Prints one JSON line with the figures.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import { checkoutInput, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { placeOrder } from "#server/checkout/checkout.service.ts";
import { connectPostgres, type Db } from "#server/db/client.ts";
import { migrateDatabase } from "#server/db/migrate.ts";

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const durationMs = Number(process.env.BENCH_DURATION_S ?? 10) * 1000;
const concurrency = Number(process.env.BENCH_CHECKOUT_CONCURRENCY ?? 20);
const databaseName = `bench_checkout_${process.pid}`;

function withDatabase(url: string, name: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

type Run = { operations: number; perSecond: number; p50Ms: number; p99Ms: number; refused: Record<string, number> };

/** `concurrency` loops calling `step` until the time is up; latencies of what `step` reports as timed. */
async function runLoops(step: () => Promise<{ ms: number; refused: string | null }>): Promise<Run> {
  const latencies: number[] = [];
  const refused: Record<string, number> = {};
  const endAt = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < endAt) {
        const { ms, refused: code } = await step();
        if (code) refused[code] = (refused[code] ?? 0) + 1;
        else latencies.push(ms);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 10) / 10;
  return { operations: latencies.length, perSecond: Math.round(latencies.length / seconds), p50Ms: at(0.5), p99Ms: at(0.99), refused };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function checkoutStep(db: Db, pickVariant: () => number) {
  const added = await addToCart(db, { cartId: null, variantId: pickVariant(), quantity: 1, personalisation: {} });
  if (!added.ok) return { ms: 0, refused: `cart:${added.error}` };
  const input = checkoutInput({ paymentMethod: "bank_transfer" });
  const { ms, value } = await timed(() =>
    placeOrder(db, { cartId: added.cartId, userId: null, locale: "it", input, now: new Date(), publicUrl: testPublicUrl, secret: testSecret }),
  );
  return { ms, refused: value.ok ? null : value.error };
}

await admin(`drop database if exists "${databaseName}"`);
await admin(`create database "${databaseName}"`);
const handle = connectPostgres(withDatabase(adminUrl, databaseName), concurrency + 2);
try {
  await migrateDatabase(handle);
  const { db } = handle;
  const spread: number[] = [];
  for (let i = 0; i < 50; i += 1) spread.push((await createProduct(db, { priceCents: 1000 + i, variants: [{ stock: 1_000_000 }] })).variantId);
  const hot = (await createProduct(db, { priceCents: 8990, variants: [{ stock: 1_000_000 }] })).variantId;
  let next = 0;
  const pickSpread = () => spread[next++ % spread.length]!;

  const addToCartRun = await runLoops(async () => {
    const { ms, value } = await timed(() => addToCart(db, { cartId: null, variantId: pickSpread(), quantity: 1, personalisation: {} }));
    return { ms, refused: value.ok ? null : value.error };
  });
  const spreadRun = await runLoops(() => checkoutStep(db, pickSpread));
  const hotRun = await runLoops(() => checkoutStep(db, () => hot));
  process.stdout.write(`${JSON.stringify({ concurrency, durationMs, addToCart: addToCartRun, checkoutSpread: spreadRun, checkoutHot: hotRun })}\n`);
} finally {
  await handle.close();
  await admin(`drop database if exists "${databaseName}" with (force)`);
}
