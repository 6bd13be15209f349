// Memory of one app process (`node server.js`, the production build) and where it goes, on the two databases:
// the embedded one (PGlite) with the sample catalogue, and PostgreSQL with a generated catalogue of
// BENCH_MEMORY_PRODUCTS products (default 1,000; lib/scale-catalogue.ts, in a database made for the run on
// BENCH_DATABASE_URL's server and dropped after). Each run reads the resident set (RSS, /proc) after start,
// idle (BENCH_MEMORY_IDLE_S seconds, default 20, after a warm-up of every request kind and the home page's
// pictures), at its peak during a mixed load (autocannon, 20 connections, BENCH_MEMORY_LOAD_S seconds, default
// 60), at its end and idle again after it ("settled"), and
// splits it: V8's heap and the buffers outside it (process.memoryUsage) and PGlite's WebAssembly memory,
// written by lib/memory-probe.mjs, which only this bench loads into the process (`--import`).
// The mixed load is a browser's (decision 0110): every request with its Accept-Encoding; visitors' home, listing
// and product documents and searches, a signed-in customer's client navigations (listing and product `.data`),
// product documents and her part (`/personal`), all with her `js` cookie (decision 0095), and a new visitor's
// add to cart. Before it, each of the mix's paths is asked once at 20 connections ("first requests": 200
// products, the listings, the searches and their `.data`, each rendered and kept, as a shop's first visitors
// make it); the peak is the highest RSS seen over both.
// PGlite runs start on a copy of a data folder seeded once, as every start after the first does; the first
// start (initdb, migrations, seed) is read once, when that folder is made.
//
// The shop runs with the node flags of package.json's `serve` script. Comparing settings: BENCH_MEMORY_VARIANTS,
// a JSON list of { name, nodeArgs?, env?, appRoot? } (appRoot: another
// checkout with its build), each started in turn, BENCH_MEMORY_ROUNDS rounds (default 1) alternating them so
// that the machine's load falls on all alike (each round in the other order). Without it, BENCH_BASELINE_ROOT=<a
// checkout with its own build> compares this build with that one. BENCH_MEMORY_SETUPS=pglite or postgres runs one
// database only.
// Prints a table and writes bench/results/memory.json.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runLoad } from "./lib/load.mjs";
import { memoryOf, wasmResidentMbOf } from "./lib/process-memory.mjs";
import { writeResult } from "./lib/results.mjs";
import { dropDatabase, generateScaleCatalogue } from "./lib/scale-database.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";
import { browserEncoding, signedInCustomer } from "./lib/signed-in-shop.mjs";

const connections = 20;
const loadSeconds = Number(process.env.BENCH_MEMORY_LOAD_S ?? 60);
const productCount = Number(process.env.BENCH_MEMORY_PRODUCTS ?? 1000);
const idleSeconds = Number(process.env.BENCH_MEMORY_IDLE_S ?? 20);
const rounds = Number(process.env.BENCH_MEMORY_ROUNDS ?? 1);
/** The flags `npm run serve` (and `npm start`) give node before server.js: the bench measures the shop as it runs. */
function serveNodeArgs(appRoot = root) {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(appRoot, "package.json"), "utf8"));
  const flags = /\bnode\s+(.*?)\s*server\.js/.exec(scripts.serve)?.[1];
  return flags ? flags.split(/\s+/) : [];
}
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? "";
const variants = process.env.BENCH_MEMORY_VARIANTS
  ? JSON.parse(process.env.BENCH_MEMORY_VARIANTS)
  : baselineRoot
    ? [
        { name: "this build", nodeArgs: serveNodeArgs() },
        { name: "baseline", nodeArgs: serveNodeArgs(baselineRoot), appRoot: baselineRoot },
      ]
    : [{ name: "as npm run serve", nodeArgs: serveNodeArgs() }];
const setups = (process.env.BENCH_MEMORY_SETUPS ?? "pglite,postgres").split(",");
// Issue 23's targets, MB: idle and under load on PostgreSQL, idle on the embedded database.
const targets = { postgres: { idle: 200, peak: 300 }, pglite: { idle: 300 } };
const probeModule = path.join(root, "bench/lib/memory-probe.mjs");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const categories = ["A-spasso", "Bagnetto", "arredamento", "sicurezza", "pappa", "gioco-e-relax", "abbigliamento"];
const words = ["passeggino", "culla", "seggiolone", "biberon", "marsupio", "body", "tutina", "pasegino"];

/** The shop's own figures, as the probe last wrote them (it writes every second). */
async function readProbe(file) {
  await sleep(1_200);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

async function snapshot(pid, probeFile) {
  const probe = await readProbe(probeFile);
  return { ...memoryOf(pid), wasmResidentMb: wasmResidentMbOf(pid), ...probe };
}

/**
 * Product ids the listing links to, a variant that can be added to a cart, and the headers of a visitor's and
 * of a signed-in customer's browser (one line in her cart, her `js` cookie).
 */
async function discoverCatalogue(baseUrl) {
  const productIds = new Set();
  for (let page = 1; page <= 12 && productIds.size < 200; page++) {
    const html = await (await fetch(`${baseUrl}/shop?page=${page}`)).text();
    for (const match of html.matchAll(/href="\/product\/(\d+)"/g)) productIds.add(Number(match[1]));
  }
  if (productIds.size === 0) throw new Error("no product link on the listing");
  const visitor = { "accept-encoding": browserEncoding, accept: "text/html" };
  const cookie = `${await signedInCustomer(baseUrl, `/product/${[...productIds][0]}`)}; js=1`;
  const customer = { document: { ...visitor, cookie }, fetch: { "accept-encoding": browserEncoding, accept: "*/*", cookie } };
  const headers = { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, "accept-encoding": browserEncoding };
  for (let variantId = 1; variantId < 400; variantId++) {
    const body = new URLSearchParams({ intent: "add", variantId: String(variantId), quantity: "1", js: "1" }).toString();
    const response = await fetch(`${baseUrl}/cart.data`, { method: "POST", headers, body });
    await response.arrayBuffer();
    if (response.status === 200)
      return { productIds: [...productIds], visitor, customer, addToCart: { method: "POST", path: "/cart.data", headers, body } };
  }
  throw new Error("no variant in stock");
}

/** A page's loader data as React Router's client navigation asks it (`/shop?page=2` -> `/shop.data?page=2`; home `/_.data`). */
const dataPath = (pagePath) => pagePath.replace(/\/?(\?|$)/, (end, query) => `${end.startsWith("/") ? "/_" : ""}.data${query}`);

/**
 * Request number n of the mix, ten kinds in turn: a visitor's home, listing and product documents and search;
 * her listing and two product navigations (`.data`), a product document and her part; a new visitor's add to cart.
 */
function mixedRequest(n, catalogue) {
  const i = Math.floor(n / 10);
  const listing =
    i % 2 === 0 ? `/categoria/${categories[i % categories.length]}${i % 3 === 0 ? "?sort=priceLowToHigh" : ""}` : `/shop?page=${1 + (i % 4)}`;
  // Each of the four product kinds walks every product, from its own start.
  const product = (kind) => `/product/${catalogue.productIds[(i + kind * 53) % catalogue.productIds.length]}`;
  const get = (path, headers) => ({ method: "GET", path, headers });
  switch (n % 10) {
    case 0:
      return get("/", catalogue.visitor);
    case 1:
      return get(listing, catalogue.visitor);
    case 2:
      return get(product(0), catalogue.visitor);
    case 3:
      return get(`/shop?fromsearch=true&search=${words[i % words.length]}`, catalogue.visitor);
    case 4:
      return get(dataPath(listing), catalogue.customer.fetch);
    case 5:
      return get(dataPath(product(1)), catalogue.customer.fetch);
    case 6:
      return get(dataPath(product(2)), catalogue.customer.fetch);
    case 7:
      return get(product(3), catalogue.customer.document);
    case 8:
      return get("/personal", catalogue.customer.fetch);
    default:
      return catalogue.addToCart;
  }
}

/** The home page's pictures at the card width, as its first visitor's browser asks for them (drawn on first request). */
async function fetchHomePictures(baseUrl) {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const files = new Set([...html.matchAll(/\/media\/products\/([a-z0-9-]+-320\.(?:avif|webp))/g)].map((match) => match[1]));
  for (const file of files) {
    const response = await fetch(`${baseUrl}/media/products/${file}`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`picture ${file} answered ${response.status}`);
  }
  return files.size;
}

/** Each GET of the mix once (`/personal` aside, never kept): the requests that render its pages. */
function firstRequestsOf(catalogue) {
  const paths = new Map();
  // 420 turns of the ten kinds: every listing, product and search word of the mix comes round.
  for (let n = 0; n < 10 * 420; n++) {
    const request = mixedRequest(n, catalogue);
    if (request.method === "GET" && request.path !== "/personal" && !paths.has(request.path)) paths.set(request.path, request);
  }
  return [...paths.values()];
}

async function warmUp(baseUrl, catalogue) {
  await fetchHomePictures(baseUrl);
  for (let n = 0; n < 10 * 12; n++) {
    const request = mixedRequest(n, catalogue);
    const response = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${request.method} ${request.path} answered ${response.status}`);
  }
}

async function measureRun({ setup, variant, databaseUrl, dataDir }) {
  // The probe's file, and a media folder of its own: each run draws the pictures it shows, as a new shop does.
  const runFolder = fs.mkdtempSync(path.join(os.tmpdir(), "memory-run-"));
  const probeFile = path.join(runFolder, "probe.json");
  const shop = await startShopForBench({
    databaseUrl,
    dataDir,
    appRoot: variant.appRoot ?? root,
    nodeArgs: ["--import", probeModule, ...(variant.nodeArgs ?? [])],
    env: { MEMORY_PROBE_FILE: probeFile, MEDIA_DIR: path.join(runFolder, "media"), ...variant.env },
  });
  try {
    if (!shop.pid) throw new Error("the memory bench starts its own shop: unset BENCH_BASE_URL");
    const started = await snapshot(shop.pid, probeFile);
    const catalogue = await discoverCatalogue(shop.baseUrl);
    await warmUp(shop.baseUrl, catalogue);
    // Idle as a shop is between visitors: V8's memory reducer collects some seconds after the work stops.
    await sleep(idleSeconds * 1000);
    const idle = await snapshot(shop.pid, probeFile);
    // The breakdown at the highest RSS seen under load: /proc every 250 ms, beside the probe's latest figures.
    let peak = idle;
    const sampler = setInterval(() => {
      const now = memoryOf(shop.pid);
      if (now.rssMb > peak.rssMb) peak = { ...JSON.parse(fs.readFileSync(probeFile, "utf8")), ...now, wasmResidentMb: wasmResidentMbOf(shop.pid) };
    }, 250);
    const firstRequests = firstRequestsOf(catalogue);
    let nextFirst = 0;
    let next = 0;
    let first;
    let firstPeakMb;
    let load;
    try {
      first = await runLoad({
        url: shop.baseUrl,
        connections,
        amount: firstRequests.length,
        requests: [{ setupRequest: (request) => ({ ...request, ...firstRequests[nextFirst++ % firstRequests.length] }) }],
      });
      firstPeakMb = peak.rssMb;
      load = await runLoad({
        url: shop.baseUrl,
        connections,
        durationSeconds: loadSeconds,
        requests: [{ setupRequest: (request) => ({ ...request, ...mixedRequest(next++, catalogue) }) }],
      });
    } finally {
      clearInterval(sampler);
    }
    const end = await snapshot(shop.pid, probeFile);
    await sleep(idleSeconds * 1000);
    const settled = await snapshot(shop.pid, probeFile);
    return {
      setup,
      variant: variant.name,
      products: catalogue.productIds.length,
      started,
      idle,
      peak,
      end,
      settled,
      firstRequests: { count: first.requests.total, seconds: Math.round(first.duration), peakMb: firstPeakMb },
      requestsPerSecond: Math.round(load.requests.average),
      p99Ms: load.latency.p99,
      errors: first.errors + first.non2xx + load.errors + load.non2xx,
    };
  } finally {
    await shop.stop();
    fs.rmSync(runFolder, { recursive: true, force: true });
  }
}

/** A seeded embedded database to copy for every run, and the memory of its first start. */
async function seedPgliteFolder() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-pglite-"));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "memory-first-start-"));
  const probeFile = path.join(scratch, "probe.json");
  const shop = await startShopForBench({
    dataDir,
    nodeArgs: ["--import", probeModule],
    env: { MEMORY_PROBE_FILE: probeFile, MEDIA_DIR: path.join(scratch, "media") },
  });
  try {
    return { dataDir, firstStart: await snapshot(shop.pid, probeFile) };
  } finally {
    await shop.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

const databaseName = `bench_memory_${process.pid}`;
const runs = [];
let firstStart = null;
let pgliteTemplate = null;
let databaseUrl = "";
try {
  if (setups.includes("pglite")) {
    ({ dataDir: pgliteTemplate, firstStart } = await seedPgliteFolder());
    console.log(`embedded database, first start (initdb, migrations, seed): RSS ${firstStart.rssMb} MB, WebAssembly ${firstStart.wasmMemoryMb} MB`);
  }
  if (setups.includes("postgres")) {
    const catalogue = generateScaleCatalogue({ databaseName, products: productCount, orders: productCount * 10 });
    databaseUrl = catalogue.databaseUrl;
    console.log(`generated ${catalogue.productCount} products and ${catalogue.orderCount} orders in ${catalogue.generationSeconds} s`);
  }
  for (let round = 0; round < rounds; round++) {
    for (const setup of setups) {
      for (const variant of round % 2 === 0 ? variants : variants.toReversed()) {
        const dataDir = setup === "pglite" ? fs.mkdtempSync(path.join(os.tmpdir(), "memory-pglite-run-")) : "";
        if (dataDir) fs.cpSync(pgliteTemplate, dataDir, { recursive: true });
        try {
          const run = await measureRun({ setup, variant, databaseUrl: setup === "postgres" ? databaseUrl : "", dataDir });
          run.loadAverage = os.loadavg()[0].toFixed(1);
          runs.push(run);
          console.log(
            `${setup} / ${variant.name}: RSS idle ${run.idle.rssMb} MB, peak ${run.peak.rssMb} MB (${run.firstRequests.peakMb} over ${run.firstRequests.count} first requests), end ${run.end.rssMb} MB; ${run.requestsPerSecond} req/s (load ${run.loadAverage})`,
          );
        } finally {
          if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
  }
} finally {
  if (pgliteTemplate) fs.rmSync(pgliteTemplate, { recursive: true, force: true });
  if (databaseUrl) await dropDatabase(databaseName);
}

console.table(
  runs.map((run) => ({
    database: run.setup,
    variant: run.variant,
    "first requests": `${run.firstRequests.count} in ${run.firstRequests.seconds} s, peak ${run.firstRequests.peakMb} MB`,
    "req/s": run.requestsPerSecond,
    "p99 ms": run.p99Ms,
    errors: run.errors,
    "RSS start": run.started.rssMb,
    "RSS idle": run.idle.rssMb,
    "RSS peak": run.peak.rssMb,
    "RSS end": run.end.rssMb,
    "RSS settled": run.settled.rssMb,
    "process peak": run.end.peakRssMb,
    load: run.loadAverage,
  })),
);
const breakdown = (run, moment) => ({
  database: run.setup,
  variant: run.variant,
  moment,
  "RSS MB": run[moment].rssMb,
  "anon MB": run[moment].anonMb,
  "file MB": run[moment].fileMb,
  "heap used": run[moment].heapUsedMb,
  "heap total": run[moment].heapTotalMb,
  "new space": run[moment].heapSpacesMb.new_space,
  external: run[moment].externalMb,
  arrayBuffers: run[moment].arrayBuffersMb,
  "wasm size": run[moment].wasmMemoryMb,
  "wasm resident": run[moment].wasmResidentMb,
});
console.table(runs.flatMap((run) => [breakdown(run, "idle"), breakdown(run, "peak"), breakdown(run, "end"), breakdown(run, "settled")]));

const summary = runs.map((run) => {
  const target = targets[run.setup];
  return {
    measure: `one app process, ${run.setup === "pglite" ? "embedded database, sample catalogue" : `PostgreSQL, ${productCount} products`} (${run.variant}); browser mix after its first requests, ${connections} connections, ${loadSeconds} s`,
    figure: `RSS ${run.idle.rssMb} MB idle, ${run.peak.rssMb} MB peak; ${run.requestsPerSecond} req/s, ${run.errors} errors`,
    target: target.peak ? `idle <= ${target.idle} MB, peak <= ${target.peak} MB` : `idle <= ${target.idle} MB`,
  };
});
const file = writeResult("memory", { connections, loadSeconds, productCount, variants, rounds, firstStart, runs }, summary);
console.log(
  `load average ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}; written to ${file}`,
);
if (runs.some((run) => run.errors > 0)) process.exitCode = 1;
