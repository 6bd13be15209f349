// A visitor's first request for a page not kept yet (server/http/page-cache.ts, decision 0082 "First
// compression"): what its compression costs on the request path, brotli at the first quality against the
// strong one it replaced there, on the home, category and product pages' HTML (CPU in this process, median of
// BENCH_FIRST_ROUNDS rounds, default 20), and the strong compression done after it in the background. Then,
// through the build, BENCH_FIRST_REQUESTS first requests per page one at a time (a query of their own each),
// twice, with the shop's CPU per request (user + system, from /proc, the background work included) and the
// median request's time; with BENCH_BASELINE_ROOT (a checkout with its own build) that build in turn.
// `npx tsx bench/first-request.mjs page.html ...` measures the compressions of those files only.
// Writes bench/results/first-request.json.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const rounds = Number(process.env.BENCH_FIRST_ROUNDS ?? 20);
const requestsPerPage = Number(process.env.BENCH_FIRST_REQUESTS ?? 20);
// server/http/page-store.ts: firstBrotliQuality and keptBrotliQuality.
const firstQuality = 4;
const strongQuality = 10;

const brotliAt = (quality, html) =>
  zlib.brotliCompressSync(html, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  });

/** Median CPU ms of `work` in this process over the rounds. */
function cpuMsOf(work) {
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const before = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(before);
    samples.push((user + system) / 1000);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)] * 100) / 100;
}

function compressionsOf(name, html) {
  const first = brotliAt(firstQuality, html);
  return {
    page: name,
    htmlKB: Math.round(html.length / 102.4) / 10,
    strongMs: cpuMsOf(() => brotliAt(strongQuality, html)),
    strongKB: Math.round(brotliAt(strongQuality, html).length / 102.4) / 10,
    firstMs: cpuMsOf(() => brotliAt(firstQuality, html)),
    firstKB: Math.round(first.length / 102.4) / 10,
    backgroundMs: cpuMsOf(() => brotliAt(strongQuality, zlib.brotliDecompressSync(first))),
  };
}

const files = process.argv.slice(2);
if (files.length > 0) {
  console.table(files.map((file) => compressionsOf(path.basename(file), fs.readFileSync(file))));
  process.exit(0);
}

// Loaded only to measure through the shop: the compressions of files need none of it.
const { cpuSecondsOf } = await import("./lib/load.mjs");
const { writeResult } = await import("./lib/results.mjs");
const { benchPages, startShopForBench } = await import("./lib/shop-server.mjs");

/** `requestsPerPage` first requests for the page, one at a time: the shop's CPU per request and the median time. */
async function firstRequests(shop, page, round) {
  const times = [];
  const cpuBefore = shop.pid ? cpuSecondsOf(shop.pid) : 0;
  for (let index = 0; index < requestsPerPage; index++) {
    const started = performance.now();
    const answer = await fetch(`${shop.baseUrl}${page.path}?first=${round}-${index}`, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    await answer.arrayBuffer();
    times.push(performance.now() - started);
    // The strong compression runs after the answer: let it finish before the next page, as between visitors.
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  times.sort((a, b) => a - b);
  return {
    cpuMsPerRequest: shop.pid ? Math.round(((cpuSecondsOf(shop.pid) - cpuBefore) * 1000 * 100) / requestsPerPage) / 100 : null,
    medianMs: Math.round(times[Math.floor(times.length / 2)]),
  };
}

// BENCH_BASELINE_ROOT: another checkout with its own build, asked in turn with this one, page by page.
const builds = [{ name: "this build", shop: await startShopForBench() }];
if (process.env.BENCH_BASELINE_ROOT) builds.push({ name: "baseline", shop: await startShopForBench({ appRoot: process.env.BENCH_BASELINE_ROOT }) });
try {
  const pages = await benchPages(builds[0].shop.baseUrl);
  const rows = [];
  for (const page of pages) {
    const html = Buffer.from(await (await fetch(`${builds[0].shop.baseUrl}${page.path}`)).arrayBuffer());
    const row = compressionsOf(page.name, html);
    for (const [round, build] of [...builds, ...builds].entries()) {
      const { cpuMsPerRequest, medianMs } = await firstRequests(build.shop, page, round);
      row[`${build.name} CPU ms`] = [...(row[`${build.name} CPU ms`] ?? []), cpuMsPerRequest];
      row[`${build.name} median ms`] = [...(row[`${build.name} median ms`] ?? []), medianMs];
    }
    rows.push(row);
  }
  console.table(rows);
  writeResult(
    "first-request",
    { rows },
    rows.map((row) => ({
      measure: `first request, ${row.page}: brotli on its path (baseline: quality ${strongQuality})`,
      figure: `${row.firstMs} ms CPU`,
      baseline: `${row.strongMs} ms CPU`,
      ratio: Math.round((row.firstMs / row.strongMs) * 100) / 100,
    })),
  );
} finally {
  for (const { shop } of builds) await shop.stop();
}
