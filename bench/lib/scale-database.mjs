// A generated catalogue in its own PostgreSQL database on BENCH_DATABASE_URL's server (default the test
// server), for the benches that need more than the sample catalogue (scale.mjs, memory.mjs). The rows come
// from lib/scale-catalogue.ts, run with tsx in a child process.
import { spawnSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { root } from "./shop-server.mjs";

export const adminDatabaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/**
 * Makes database `databaseName` (or reuses it with `keep`) with `products` products and `orders` orders (unset:
 * BENCH_SCALE_PRODUCTS / BENCH_SCALE_ORDERS or the generator's defaults). Returns the generator's
 * { databaseUrl, reused, productCount, orderCount, timings, generationSeconds }; exits the bench when it fails.
 */
export function generateScaleCatalogue({ databaseName, keep = false, products, orders }) {
  const started = performance.now();
  const env = { ...process.env };
  if (products !== undefined) env.BENCH_SCALE_PRODUCTS = String(products);
  if (orders !== undefined) env.BENCH_SCALE_ORDERS = String(orders);
  const generation = spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "bench/lib/scale-catalogue.ts"), databaseName, ...(keep ? ["keep"] : [])],
    { cwd: root, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  if (generation.status !== 0) {
    console.error(`generating the catalogue failed (exit ${generation.status}); is PostgreSQL reachable at BENCH_DATABASE_URL?`);
    process.exit(1);
  }
  const catalogue = JSON.parse(generation.stdout.trim().split("\n").at(-1));
  return { ...catalogue, generationSeconds: Math.round((performance.now() - started) / 100) / 10 };
}

export async function dropDatabase(databaseName) {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists "${databaseName}" with (force)`);
  } finally {
    await client.end();
  }
}
