// A signed-in customer's pages, which the page cache never keeps (decision 0074): a category page and a
// product page, as a first page (the document) and as the next one (its loader data, `.data`), for a customer who signed up and signed in through the shop's own form and has one
// item in the cart, asked as a browser asks (Accept-Encoding: gzip, deflate, br, zstd), on PostgreSQL with
// BENCH_SIGNED_IN_PRODUCTS generated products (default 1,000, lib/scale-database.mjs). autocannon, 20
// connections, BENCH_DURATION_S seconds per page (default 10) after a 2-second warm-up: requests/s, p99 and
// the shop process's CPU per request (user + system, from /proc). With BENCH_BASELINE_ROOT=<a checkout with
// its own build> both builds run on the same database and are alternated over BENCH_SIGNED_IN_ROUNDS rounds
// (default 3), each round in a different order, and the table gives this build / baseline per page
// (decision 0076). Then BENCH_SIGNED_IN_BLOCKS (default 30) short blocks of 40 requests per page and build,
// alternated, give the CPU per request least moved by other jobs on a shared machine. BENCH_SIGNED_IN_KEEP=1 keeps the database (bench_signed_in) for the next run;
// BENCH_SIGNED_IN_PROFILE=<folder> has each shop write a V8 CPU profile there when it stops (--cpu-prof).
// BENCH_SIGNED_IN_CATALOGUE=1 measures her browsing the whole catalogue instead of one page asked again and
// again: each request of a load asks the next of every category's listing pages, or of every product page, in
// turn (her `.data` likewise), so no page's fill plan is held from the last time it was asked (decision 0094);
// every one of those paths is first asked once as a visitor, as visitors keep a shop's pages. BENCH_SIGNED_IN_PAGES
// (names, comma-separated: category, product, "category (data)", "product (data)") measures only those.
// BENCH_SIGNED_IN_JS=1 sends her browser's `js` cookie, as a browser that runs the shop's scripts does after its
// first page (decision 0095): her pages are then the visitors' kept ones, and "personal (json)" measures her
// part alone as that browser fetches it (`/personal`, once a visit and after each change she makes).
// Writes bench/results/signed-in.json.
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cpuSecondsOf } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { dropDatabase, generateScaleCatalogue } from "./lib/scale-database.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";
import {
  askedByVisitors,
  assertAnsweredForCustomer,
  browserEncoding,
  catalogueOf,
  measureLoad,
  median,
  quietened,
  requestsOf,
  round1,
  signedInCustomer,
} from "./lib/signed-in-shop.mjs";

const connections = 20;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);
const rounds = Number(process.env.BENCH_SIGNED_IN_ROUNDS ?? 3);
const productCount = Number(process.env.BENCH_SIGNED_IN_PRODUCTS ?? 1_000);
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? "";
const blocks = Number(process.env.BENCH_SIGNED_IN_BLOCKS ?? 30);
const requestsPerBlock = 40;
const keep = process.env.BENCH_SIGNED_IN_KEEP === "1";
const databaseName = keep ? "bench_signed_in" : `bench_signed_in_${process.pid}`;
const profileFolder = process.env.BENCH_SIGNED_IN_PROFILE ? path.resolve(process.env.BENCH_SIGNED_IN_PROFILE) : "";
const wholeCatalogue = process.env.BENCH_SIGNED_IN_CATALOGUE === "1";
const documentPages = [
  { name: "category", path: "/categoria/A-spasso" },
  { name: "product", path: `/product/${Math.ceil(productCount / 2)}` },
];
// After the first page the browser asks for the next one's loader data only (client navigation), every loader
// of the page included, as Chromium was seen to ask: `/product/2.data` after a click on a card.
const chosenPages = process.env.BENCH_SIGNED_IN_PAGES?.split(",").map((name) => name.trim());
// In the whole-catalogue mode, for decision 0094's two designs: a visitor's product pages (the kept page everyone
// would get), and her personal part alone, as the root's loader data of each product page (`?_routes=root`).
const designPages = [
  { name: "product (visitor)", path: documentPages[1].path, visitor: true },
  { name: "personal part", path: `${documentPages[1].path}.data?_routes=root` },
];
const runsScripts = process.env.BENCH_SIGNED_IN_JS === "1";
const pages = [
  ...documentPages,
  ...documentPages.map((page) => ({ name: `${page.name} (data)`, path: `${page.path}.data` })),
  ...(wholeCatalogue ? designPages : []),
  ...(runsScripts ? [{ name: "personal (json)", path: "/personal" }] : []),
].filter((page) => !chosenPages || chosenPages.includes(page.name));

const measure = (shop, page) =>
  measureLoad({ url: `${shop.baseUrl}${page.path}`, pid: shop.pid, requests: requestsOf(shop, page), connections, durationSeconds });

/**
 * The shop's CPU per request over a short block of `requestsPerBlock` requests (4 connections): blocks of
 * both builds alternate about once a second, so other jobs on the machine weigh on both alike.
 */
async function measureBlock(shop, page) {
  const cpuBefore = cpuSecondsOf(shop.pid);
  const result = await new Promise((resolve, reject) => {
    autocannon({ url: `${shop.baseUrl}${page.path}`, connections: 4, amount: requestsPerBlock, requests: requestsOf(shop, page) }, (error, answer) =>
      error ? reject(error) : resolve(answer),
    );
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${page.path}: ${result.non2xx} not 2xx, ${result.errors} errors`);
  return ((cpuSecondsOf(shop.pid) - cpuBefore) * 1000) / result.requests.total;
}

console.log(`generating ${productCount} products in ${databaseName}...`);
const catalogue = generateScaleCatalogue({ databaseName, keep, products: productCount, orders: 1_000 });
const builds = [{ name: "this build", appRoot: root }];
if (baselineRoot) builds.push({ name: "baseline", appRoot: baselineRoot });
try {
  for (const build of builds) {
    const nodeArgs = profileFolder
      ? ["--cpu-prof", `--cpu-prof-dir=${profileFolder}`, `--cpu-prof-name=${build.name.replace(" ", "-")}.cpuprofile`]
      : [];
    build.shop = await startShopForBench({ databaseUrl: catalogue.databaseUrl, appRoot: build.appRoot, nodeArgs });
  }
  // Every shop started before any page is kept: a shop's start writes the settings, which moves the versions
  // every kept page is checked against.
  for (const build of builds) {
    const { shop } = build;
    const cookie = await signedInCustomer(shop.baseUrl, documentPages[1].path);
    shop.headers = { "accept-encoding": browserEncoding, accept: "text/html", cookie: runsScripts ? `${cookie}; js=1` : cookie };
    // With her `js` cookie her pages are the visitors' kept ones: only her personal part names her.
    for (const page of pages.filter((page) => !page.visitor))
      await assertAnsweredForCustomer(`${shop.baseUrl}${page.path}`, shop.headers, !runsScripts || page.name === "personal (json)");
    if (wholeCatalogue) {
      shop.catalogue = await catalogueOf(shop.baseUrl, productCount);
      shop.next = 0;
      const visited = pages.filter((page) => !page.name.startsWith("personal")).flatMap((page) => shop.catalogue[page.name] ?? []);
      await askedByVisitors(shop.baseUrl, [...new Set(visited)]);
      console.log(`${build.name}: ${shop.catalogue.category.length} listing pages, ${shop.catalogue.product.length} product pages`);
    }
  }
  // The kept pages' strong compression, in the background after the visitors' pass, done before any load.
  if (wholeCatalogue) for (const build of builds) await quietened(build.shop.pid);
  const runs = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? builds : builds.toReversed();
    for (const build of order)
      for (const page of pages) {
        const run = await measure(build.shop, page);
        runs.push({ round: round + 1, build: build.name, page: page.name, ...run });
        console.log(
          `round ${round + 1} ${build.name} ${page.name}: ${Math.round(run.reqPerSecond)} req/s, p99 ${run.p99} ms, ${round1(run.cpuMs)} ms CPU/req`,
        );
      }
  }
  // CPU per request in short alternated blocks: the figure least moved by other jobs on a shared machine.
  const blockCpu = Object.fromEntries(pages.map((page) => [page.name, Object.fromEntries(builds.map((build) => [build.name, []]))]));
  for (let block = 0; block < blocks; block += 1)
    for (const page of pages)
      for (const build of block % 2 === 0 ? builds : builds.toReversed()) blockCpu[page.name][build.name].push(await measureBlock(build.shop, page));
  const loadAverage = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  const rows = [];
  for (const page of pages)
    for (const build of builds) {
      const mine = runs.filter((run) => run.page === page.name && run.build === build.name);
      rows.push({
        page: page.name,
        build: build.name,
        "req/s (median)": Math.round(median(mine.map((run) => run.reqPerSecond))),
        "p99 ms (median)": median(mine.map((run) => run.p99)),
        "CPU ms/req (median)": round1(median(mine.map((run) => run.cpuMs))),
        "CPU ms/req in blocks (median)": round1(median(blockCpu[page.name][build.name])),
        "errors, not 2xx": `${mine.reduce((sum, run) => sum + run.errors, 0)}, ${mine.reduce((sum, run) => sum + run.non2xx, 0)}`,
      });
    }
  // Ratios per round (each pair measured minutes apart at most), then their median.
  const ratios = pages.map((page) => {
    const perRound = [];
    for (let round = 1; round <= rounds && baselineRoot; round += 1) {
      const of = (build) => runs.find((run) => run.round === round && run.page === page.name && run.build === build);
      const [mine, base] = [of("this build"), of("baseline")];
      // A round where either build answered nothing in time compares nothing.
      if (mine.cpuMs !== null && base.cpuMs !== null)
        perRound.push({ reqPerSecond: mine.reqPerSecond / base.reqPerSecond, cpuMs: mine.cpuMs / base.cpuMs });
    }
    return {
      page: page.name,
      "req/s after / before (per round)": perRound.map((ratio) => ratio.reqPerSecond.toFixed(2)).join(" "),
      "req/s after / before (median)": perRound.length ? Math.round(median(perRound.map((ratio) => ratio.reqPerSecond)) * 100) / 100 : null,
      "CPU/req after / before (median)": perRound.length ? Math.round(median(perRound.map((ratio) => ratio.cpuMs)) * 100) / 100 : null,
      "CPU/req in blocks after / before": baselineRoot
        ? Math.round((median(blockCpu[page.name]["this build"]) / median(blockCpu[page.name].baseline)) * 100) / 100
        : null,
    };
  });
  console.table(rows);
  if (baselineRoot) console.table(ratios);
  console.log(`load average ${loadAverage}`);
  const summary = pages.map((page) => {
    const [mine, base] = builds.map((build) => rows.find((row) => row.page === page.name && row.build === build.name));
    const ratio = ratios.find((row) => row.page === page.name);
    return {
      measure: `signed-in customer's ${page.name} page ${wholeCatalogue ? "(whole catalogue)" : page.path}, PostgreSQL, ${productCount} products, ${connections} connections`,
      figure: `${mine["req/s (median)"]} req/s, p99 ${mine["p99 ms (median)"]} ms, ${mine["CPU ms/req (median)"]} ms CPU/req (${mine["CPU ms/req in blocks (median)"]} in blocks)`,
      baseline: base
        ? `${base["req/s (median)"]} req/s, ${base["CPU ms/req (median)"]} ms CPU/req (${base["CPU ms/req in blocks (median)"]} in blocks) (BENCH_BASELINE_ROOT, same run)`
        : "none (set BENCH_BASELINE_ROOT)",
      ratio: ratio["req/s after / before (median)"],
      target: ">= 2 (issue 23)",
    };
  });
  const file = writeResult(
    "signed-in",
    { connections, durationSeconds, rounds, productCount, baselineRoot, runs, rows, ratios, loadAverage },
    summary,
  );
  console.log(`written to ${file}`);
} finally {
  // Requests autocannon left in flight finish before the shops close their database pools.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (const build of builds) await build.shop?.stop();
  if (!keep) await dropDatabase(databaseName);
}
