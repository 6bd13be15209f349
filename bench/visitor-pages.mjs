// A visitor's category and product pages (kept pages, decision 0074) as a browser asks for them (Accept-Encoding:
// gzip, deflate, br, zstd), on the catalogue and pages bench/signed-in.mjs measures for a customer: PostgreSQL,
// BENCH_VISITOR_PRODUCTS generated products (default 1,000), /categoria/A-spasso and the middle product's page.
// autocannon, 20 connections, BENCH_DURATION_S seconds per page (default 10) after a 2-second warm-up:
// requests/s and the shop process's CPU per answer (user + system, from /proc). With BENCH_BASELINE_ROOT=<a
// checkout with its own build> both builds run on the same database, alternated over BENCH_VISITOR_ROUNDS
// rounds (default 3), each round in the other order. Writes bench/results/visitor-pages.json.
import os from "node:os";
import { cpuSecondsOf, runLoad } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { dropDatabase, generateScaleCatalogue } from "./lib/scale-database.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";

const connections = 20;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);
const rounds = Number(process.env.BENCH_VISITOR_ROUNDS ?? 3);
const productCount = Number(process.env.BENCH_VISITOR_PRODUCTS ?? 1_000);
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? "";
const databaseName = `bench_visitor_pages_${process.pid}`;
const headers = { "accept-encoding": "gzip, deflate, br, zstd", accept: "text/html" };
const pages = [
  { name: "category", path: "/categoria/A-spasso" },
  { name: "product", path: `/product/${Math.ceil(productCount / 2)}` },
];

async function measure(shop, page) {
  const url = `${shop.baseUrl}${page.path}`;
  const requests = [{ method: "GET", headers }];
  await runLoad({ url, connections, durationSeconds: 2, requests });
  const cpuBefore = cpuSecondsOf(shop.pid);
  const result = await runLoad({ url, connections, durationSeconds, requests });
  const cpuMs = result.requests.total > 0 ? ((cpuSecondsOf(shop.pid) - cpuBefore) * 1000) / result.requests.total : null;
  return { reqPerSecond: result.requests.average, p99: result.latency.p99, cpuMs, errors: result.errors + result.non2xx };
}

const median = (values) => {
  const known = values.filter((value) => value !== null && Number.isFinite(value)).toSorted((a, b) => a - b);
  return known.length > 0 ? known[Math.floor(known.length / 2)] : null;
};
const round1 = (value) => (value === null ? null : Math.round(value * 10) / 10);

console.log(`generating ${productCount} products in ${databaseName}...`);
const catalogue = generateScaleCatalogue({ databaseName, products: productCount, orders: 1_000 });
const builds = [{ name: "this build", appRoot: root }];
if (baselineRoot) builds.push({ name: "baseline", appRoot: baselineRoot });
try {
  // Every shop started before any page is kept: a start writes the settings, which drops every kept page.
  for (const build of builds) build.shop = await startShopForBench({ databaseUrl: catalogue.databaseUrl, appRoot: build.appRoot });
  for (const build of builds)
    for (const page of pages) {
      const response = await fetch(`${build.shop.baseUrl}${page.path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${build.name} ${page.path}: ${response.status}`);
    }
  const runs = [];
  for (let round = 0; round < rounds; round += 1)
    for (const build of round % 2 === 0 ? builds : builds.toReversed())
      for (const page of pages) {
        const run = await measure(build.shop, page);
        runs.push({ round: round + 1, build: build.name, page: page.name, ...run });
        console.log(
          `round ${round + 1} ${build.name} ${page.name}: ${Math.round(run.reqPerSecond)} req/s, p99 ${run.p99} ms, ${round1(run.cpuMs)} ms CPU/answer`,
        );
      }
  const rows = pages.flatMap((page) =>
    builds.map((build) => {
      const mine = runs.filter((run) => run.page === page.name && run.build === build.name);
      return {
        page: page.name,
        build: build.name,
        "req/s (median)": Math.round(median(mine.map((run) => run.reqPerSecond))),
        "p99 ms (median)": median(mine.map((run) => run.p99)),
        "CPU ms/req (median)": round1(median(mine.map((run) => run.cpuMs))),
        errors: mine.reduce((sum, run) => sum + run.errors, 0),
      };
    }),
  );
  console.table(rows);
  const summary = pages.map((page) => {
    const [mine, base] = builds.map((build) => rows.find((row) => row.page === page.name && row.build === build.name));
    const figure = (row) => `${row["req/s (median)"]} req/s, p99 ${row["p99 ms (median)"]} ms, ${row["CPU ms/req (median)"]} ms CPU/answer`;
    return {
      measure: `visitor's ${page.name} page ${page.path}, browser encodings, PostgreSQL, ${productCount} products, ${connections} connections`,
      figure: figure(mine),
      baseline: base ? `${figure(base)} (BENCH_BASELINE_ROOT, same run)` : "none (set BENCH_BASELINE_ROOT)",
      ratio: base ? Math.round((mine["req/s (median)"] / base["req/s (median)"]) * 100) / 100 : undefined,
    };
  });
  const file = writeResult("visitor-pages", { connections, durationSeconds, rounds, productCount, baselineRoot, runs, rows }, summary);
  console.log(
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}; written to ${file}`,
  );
  if (rows.some((row) => row.errors > 0)) process.exitCode = 1;
} finally {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const build of builds) await build.shop?.stop();
  await dropDatabase(databaseName);
}
