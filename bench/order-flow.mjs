// How many visitors' pages come from the page cache (server/http/page-cache.ts) while orders flow (issue 37,
// decision 0093): on PostgreSQL with BENCH_ORDER_FLOW_PRODUCTS generated products (default 1,000), visitors
// (autocannon, BENCH_ORDER_FLOW_CONNECTIONS connections, default 10) ask home, every category listing and
// BENCH_ORDER_FLOW_PAGES product pages (default 200) at random, a third of them in English; every page is asked
// once first. Then BENCH_ORDER_FLOW_DURATION_S (or BENCH_DURATION_S) seconds (default 20) with no order, and as long with one guest order a second
// placed by another process (bench/lib/order-flow.ts) on products with stock to spare. The hit ratio is the shop's
// own count: pages given from the store / (given + rendered). With BENCH_BASELINE_ROOT=<a checkout with its own
// build> both builds run on the same database, alternated over BENCH_ORDER_FLOW_ROUNDS rounds (default 1), each
// measured while the other waits. Writes bench/results/order-flow.json.
import { spawn, spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runLoad } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";

const productCount = Number(process.env.BENCH_ORDER_FLOW_PRODUCTS ?? 1_000);
const productPages = Number(process.env.BENCH_ORDER_FLOW_PAGES ?? 200);
const connections = Number(process.env.BENCH_ORDER_FLOW_CONNECTIONS ?? 10);
const durationSeconds = Number(process.env.BENCH_ORDER_FLOW_DURATION_S ?? process.env.BENCH_DURATION_S ?? 20);
const rounds = Number(process.env.BENCH_ORDER_FLOW_ROUNDS ?? 1);
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? "";
// Issue 37: at least nine visitors' pages in ten from the cache with one order a second.
const targetHitRatio = 0.9;
const databaseName = `bench_order_flow_${process.pid}`;
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const visitor = { "accept-encoding": "gzip, deflate, br, zstd", accept: "text/html" };

console.log(`generating ${productCount} products in ${databaseName}...`);
const generation = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "bench/lib/scale-catalogue.ts"), databaseName], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, BENCH_DATABASE_URL: adminUrl, BENCH_SCALE_PRODUCTS: String(productCount), BENCH_SCALE_ORDERS: "1000" },
  stdio: ["ignore", "pipe", "inherit"],
});
if (generation.status !== 0) {
  console.error(`generating the catalogue failed (exit ${generation.status}); is PostgreSQL reachable at BENCH_DATABASE_URL?`);
  process.exit(1);
}
const catalogue = JSON.parse(generation.stdout.trim().split("\n").at(-1));

/** The orders' process: resolves with { placed, refused } once its `seconds` are over. */
function placeOrders(seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "bench/lib/order-flow.ts"), catalogue.databaseUrl, String(seconds)], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(output.trim().split("\n").at(-1))) : reject(new Error(`orders exited ${code}`))));
  });
}

const builds = [{ name: "this build", appRoot: root }];
if (baselineRoot) builds.push({ name: "baseline", appRoot: baselineRoot });
const rows = [];
try {
  // Every shop started before any page is kept: a start writes the settings, which drops every kept page.
  for (const build of builds) build.shop = await startShopForBench({ databaseUrl: catalogue.databaseUrl, appRoot: build.appRoot, counted: true });
  const { shop: first } = builds[0];
  const home = await (await fetch(`${first.baseUrl}/`)).text();
  const listings = [...new Set([...home.matchAll(/href="(\/categoria\/[^"?#]+)"/g)].map((match) => match[1]))];
  const step = Math.max(1, Math.floor(productCount / productPages));
  const products = Array.from({ length: productPages }, (_, index) => `/product/${1 + index * step}`);
  const italianPaths = ["/", ...listings, ...products];
  const paths = [...italianPaths, ...italianPaths.filter((_, index) => index % 2 === 0).map((page) => (page === "/" ? "/en" : `/en${page}`))];
  const requests = [
    { method: "GET", headers: visitor, setupRequest: (request) => ({ ...request, path: paths[Math.floor(Math.random() * paths.length)] }) },
  ];

  /** One load of `durationSeconds` on one build's shop, with the orders given; the shop's counts over it. */
  async function measure(build, round, name, orders) {
    const { shop } = build;
    const before = await shop.counts();
    const [result, placed] = await Promise.all([runLoad({ url: shop.baseUrl, connections, durationSeconds, requests }), orders?.()]);
    const after = await shop.counts();
    const given = after.given - before.given;
    const rendered = after.rendered - before.rendered;
    rows.push({
      build: build.name,
      round,
      case: name,
      "orders placed": placed ? placed.placed : 0,
      "orders refused": placed
        ? Object.entries(placed.refused)
            .map(([code, n]) => `${code}: ${n}`)
            .join(", ") || "-"
        : "-",
      "req/s": Math.round(result.requests.average),
      "p99 ms": result.latency.p99,
      "given from the store": given,
      rendered,
      "kept after rendering": after.kept - before.kept,
      "hit ratio": Math.round((given / Math.max(1, given + rendered)) * 1000) / 1000,
      "errors, not 2xx": `${result.errors}, ${result.non2xx}`,
    });
  }
  for (let round = 1; round <= rounds; round += 1)
    for (const build of round % 2 === 1 ? builds : builds.toReversed()) {
      for (const page of paths) await (await fetch(`${build.shop.baseUrl}${page}`, { headers: visitor })).arrayBuffer();
      await measure(build, round, "visitors alone", null);
      await measure(build, round, "visitors, one order a second", () => placeOrders(durationSeconds));
    }
  const loadAverage = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.table(rows);
  console.log(`${paths.length} pages (${listings.length} listings, ${products.length} products, a third in English); load average ${loadAverage}`);
  // Over the rounds: every page given and rendered of a build's case summed.
  const ratioOf = (build, name) => {
    const mine = rows.filter((row) => row.build === build && row.case === name);
    const given = mine.reduce((sum, row) => sum + row["given from the store"], 0);
    const rendered = mine.reduce((sum, row) => sum + row.rendered, 0);
    return { given, rendered, ratio: Math.round((given / Math.max(1, given + rendered)) * 1000) / 1000 };
  };
  const withOrders = ratioOf("this build", "visitors, one order a second");
  const alone = ratioOf("this build", "visitors alone");
  const baseWithOrders = baselineRoot ? ratioOf("baseline", "visitors, one order a second") : null;
  const hitRatios = Object.fromEntries(builds.map((build) => [build.name, ratioOf(build.name, "visitors, one order a second").ratio]));
  const summary = [
    {
      measure: `visitors' pages from the cache, one order a second, PostgreSQL, ${productCount} products, ${paths.length} pages, ${connections} connections`,
      figure: `${withOrders.ratio} (${withOrders.given} given, ${withOrders.rendered} rendered; ${alone.ratio} with no order)`,
      baseline: baseWithOrders
        ? `${baseWithOrders.ratio} (${baseWithOrders.given} given, ${baseWithOrders.rendered} rendered) (BENCH_BASELINE_ROOT, same run)`
        : `${alone.ratio} with no order`,
      ratio: Math.round((withOrders.ratio / Math.max(0.001, baseWithOrders?.ratio ?? alone.ratio)) * 1000) / 1000,
      target: `hit ratio >= ${targetHitRatio}`,
    },
  ];
  const file = writeResult(
    "order-flow",
    { connections, durationSeconds, rounds, productCount, pages: paths.length, baselineRoot, hitRatios, rows, loadAverage },
    summary,
  );
  console.log(`written to ${file}`);
} finally {
  for (const build of builds) await build.shop?.stop();
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists "${databaseName}" with (force)`);
  await client.end();
}
