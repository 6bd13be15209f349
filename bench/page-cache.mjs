// Visitors' pages kept whole (server/http/page-cache.ts, decision 0074), as a browser asks for them
// (Accept-Encoding: gzip, deflate, br, zstd): a category page and a product page on PostgreSQL with
// BENCH_PAGE_CACHE_PRODUCTS products (default 1,000, bench/lib/scale-catalogue.ts), through the shop against a
// bare Node server sending the same compressed bytes (autocannon, BENCH_PAGE_CACHE_CONNECTIONS connections,
// default 20, BENCH_DURATION_S seconds, default 10; BENCH_PAGE_CACHE_ROUNDS rounds of kept then bare, default 3),
// with each server's CPU per request (user + system, from /proc). The same pages asked with a personal cookie
// are rendered each time: their requests/s and CPU per request are measured in the same run. Then the CPU each
// compression setting costs on those pages' HTML, in this process. Writes bench/results/page-cache.json.
import { spawnSync } from "node:child_process";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { cpuSecondsOf, runLoad, startBareServer } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";

const connections = Number(process.env.BENCH_PAGE_CACHE_CONNECTIONS ?? 20);
const rounds = Number(process.env.BENCH_PAGE_CACHE_ROUNDS ?? 3);
// Issue 23: a visitor's kept page at least half as fast as a bare Node server sending the same bytes.
const targetRatio = 0.5;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);
const productCount = Number(process.env.BENCH_PAGE_CACHE_PRODUCTS ?? 1_000);
const browserEncoding = "gzip, deflate, br, zstd";
const databaseName = `bench_page_cache_${process.pid}`;
const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** The raw answer (not decoded) to a GET with these headers. */
function get(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (answer) => {
        const chunks = [];
        answer.on("data", (chunk) => chunks.push(chunk));
        answer.on("end", () => resolve({ status: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on("error", reject);
      })
      .on("error", reject);
  });
}

/** autocannon for the duration after a 2-second warm-up, with the shop's CPU per answered request. */
async function load(url, headers, pid) {
  const requests = [{ method: "GET", headers }];
  await runLoad({ url, connections, durationSeconds: 2, requests });
  const cpuBefore = pid ? cpuSecondsOf(pid) : 0;
  const result = await runLoad({ url, connections, durationSeconds, requests });
  const cpuMsPerRequest = pid ? Math.round(((cpuSecondsOf(pid) - cpuBefore) * 1000 * 100) / result.requests.total) / 100 : null;
  return { result, cpuMsPerRequest };
}

/** Several `load` runs as one: requests/s averaged, the worst p99, CPU per request over all of them. */
function combined(runs) {
  const total = runs.reduce((sum, run) => sum + run.result.requests.total, 0);
  const cpu = runs.every((run) => run.cpuMsPerRequest !== null)
    ? Math.round((runs.reduce((sum, run) => sum + run.cpuMsPerRequest * run.result.requests.total, 0) / total) * 100) / 100
    : null;
  return {
    result: {
      requests: { average: runs.reduce((sum, run) => sum + run.result.requests.average, 0) / runs.length, total },
      latency: { p99: Math.max(...runs.map((run) => run.result.latency.p99)) },
      errors: runs.reduce((sum, run) => sum + run.result.errors, 0),
      non2xx: runs.reduce((sum, run) => sum + run.result.non2xx, 0),
    },
    cpuMsPerRequest: cpu,
  };
}

/** Milliseconds of this process's CPU per compression of `body`, and the bytes it makes. */
function compressionCost(body, compress) {
  const rounds = 20;
  compress(body);
  const started = process.cpuUsage();
  let bytes = 0;
  for (let i = 0; i < rounds; i += 1) bytes = compress(body).length;
  const used = process.cpuUsage(started);
  return { ms: Math.round(((used.user + used.system) / 1000 / rounds) * 10) / 10, bytes };
}

const brotliAt = (quality) => (body) => zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } });
const gzipAt = (level) => (body) => zlib.gzipSync(body, { level });
const settings = [
  ["brotli 4 (compression()'s default)", brotliAt(4)],
  ["brotli 1", brotliAt(1)],
  ["brotli 2", brotliAt(2)],
  ["gzip 1", gzipAt(1)],
  ["gzip 6 (zlib's default)", gzipAt(6)],
  ["brotli 10 (kept pages, once)", brotliAt(10)],
  ["brotli 11", brotliAt(11)],
];

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
const shop = await startShopForBench({ databaseUrl: catalogue.databaseUrl });
const rows = [];
const compressionRows = [];
try {
  const pages = [
    { name: "category", path: "/categoria/A-spasso" },
    { name: "product", path: `/product/${Math.ceil(productCount / 2)}` },
  ];
  for (const page of pages) {
    const url = `${shop.baseUrl}${page.path}`;
    const visitor = { "accept-encoding": browserEncoding, accept: "text/html" };
    // A cookie that is not a preference: the page is personal, rendered and compressed at every request.
    const personal = { ...visitor, cookie: "saved_items=" };
    await get(url, visitor);
    // The kept bytes are compressed strongly in the background after the first answer (decision 0082).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const kept = await get(url, visitor);
    if (kept.status !== 200 || kept.headers["content-encoding"] !== "br")
      throw new Error(`${page.path}: ${kept.status} ${kept.headers["content-encoding"]}`);
    const identity = await get(url, { accept: "text/html" });
    const bare = await startBareServer(kept.body, "text/html; charset=utf-8");
    try {
      // Kept and bare alternate, so a burst of other work on the machine weighs on both.
      const keptRuns = [];
      const bareRuns = [];
      for (let round = 0; round < rounds; round += 1) {
        keptRuns.push(await load(url, visitor, shop.pid));
        bareRuns.push(await load(bare.url, visitor, bare.pid));
      }
      const keptRun = combined(keptRuns);
      const bareRun = combined(bareRuns);
      const renderedRun = await load(url, personal, shop.pid);
      rows.push({
        page: page.name,
        path: page.path,
        "KB html / br": `${Math.round(identity.body.length / 102.4) / 10} / ${Math.round(kept.body.length / 102.4) / 10}`,
        "kept req/s": Math.round(keptRun.result.requests.average),
        "kept p99 ms": keptRun.result.latency.p99,
        "kept CPU ms/req": keptRun.cpuMsPerRequest,
        "rendered req/s": Math.round(renderedRun.result.requests.average),
        "rendered p99 ms": renderedRun.result.latency.p99,
        "rendered CPU ms/req": renderedRun.cpuMsPerRequest,
        "bare req/s": Math.round(bareRun.result.requests.average),
        "bare CPU ms/req": bareRun.cpuMsPerRequest,
        "kept / bare": Math.round((keptRun.result.requests.average / bareRun.result.requests.average) * 1000) / 1000,
        "kept / rendered": Math.round((keptRun.result.requests.average / renderedRun.result.requests.average) * 10) / 10,
        "errors, not 2xx": `${keptRun.result.errors + renderedRun.result.errors}, ${keptRun.result.non2xx + renderedRun.result.non2xx}`,
      });
    } finally {
      await bare.stop();
    }
    for (const [setting, compress] of settings) {
      const { ms, bytes } = compressionCost(identity.body, compress);
      compressionRows.push({ page: page.name, setting, "CPU ms": ms, KB: Math.round(bytes / 102.4) / 10 });
    }
  }
  const loadAverage = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.table(rows);
  console.table(compressionRows);
  console.log(`load average ${loadAverage}`);
  const summary = rows.map((row) => ({
    measure: `visitor's ${row.page} page ${row.path} kept (${row["KB html / br"]} KB), PostgreSQL, ${productCount} products, ${connections} connections`,
    figure: `${row["kept req/s"]} req/s, p99 ${row["kept p99 ms"]} ms, ${row["kept CPU ms/req"]} ms CPU/req; rendered ${row["rendered req/s"]} req/s, ${row["rendered CPU ms/req"]} ms CPU/req`,
    baseline: `${row["bare req/s"]} req/s (bare Node server, same br bytes)`,
    ratio: row["kept / bare"],
    target: `kept / bare >= ${targetRatio}`,
  }));
  const file = writeResult("page-cache", { connections, durationSeconds, productCount, rows, compressionRows, loadAverage }, summary);
  console.log(`written to ${file}`);
} finally {
  await shop.stop();
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists "${databaseName}" with (force)`);
  await client.end();
}
