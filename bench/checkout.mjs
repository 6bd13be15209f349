// Checkout throughput on PostgreSQL: concurrent loops each filling a cart and placing the order
// (placeOrder's whole transaction), on a fresh database of BENCH_DATABASE_URL's server (default the test
// server, postgres://postgres@127.0.0.1:5432/test), against add-to-cart in the same run as the baseline.
// Two cases: orders spread over 50 products, and every order on one hot variant (all wait on its row lock).
// BENCH_CHECKOUT_CONCURRENCY loops (default 20) for BENCH_DURATION_S seconds (default 10) each.
// Prints a table and writes bench/results/checkout.json.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { writeResult } from "./lib/results.mjs";
import { root } from "./lib/shop-server.mjs";

const run = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "bench/lib/checkout-load.ts")], {
  cwd: root,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
});
if (run.status !== 0) {
  console.error(`checkout bench failed (exit ${run.status}); is PostgreSQL reachable at BENCH_DATABASE_URL?`);
  process.exit(1);
}
const result = JSON.parse(run.stdout.trim().split("\n").at(-1));
const row = (name, figures) => ({
  case: name,
  "ops/s": figures.perSecond,
  "p50 ms": figures.p50Ms,
  "p99 ms": figures.p99Ms,
  "vs add to cart": Math.round((figures.perSecond / result.addToCart.perSecond) * 100) / 100,
  refused:
    Object.entries(figures.refused)
      .map(([code, n]) => `${code}: ${n}`)
      .join(", ") || "-",
});
const rows = [
  row("add to cart (baseline)", result.addToCart),
  row("checkout, 50 products", result.checkoutSpread),
  row("checkout, one hot variant", result.checkoutHot),
];
console.table(rows);
console.log(`${result.concurrency} concurrent loops; checkout latency is placeOrder alone (the cart is filled first).`);
const summary = [
  ["checkout, 50 products", result.checkoutSpread],
  ["checkout, one hot variant", result.checkoutHot],
].map(([name, figures]) => ({
  measure: `${name}, ${result.concurrency} loops, PostgreSQL`,
  figure: `${figures.perSecond} orders/s, p99 ${figures.p99Ms} ms`,
  baseline: `${result.addToCart.perSecond} adds to cart/s`,
  ratio: Math.round((figures.perSecond / result.addToCart.perSecond) * 100) / 100,
}));
const file = writeResult("checkout", { ...result, rows }, summary);
console.log(`written to ${file}`);
