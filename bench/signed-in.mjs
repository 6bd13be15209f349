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
import { cpuSecondsOf, runLoad } from "./lib/load.mjs";
import { writeResult } from "./lib/results.mjs";
import { dropDatabase, generateScaleCatalogue } from "./lib/scale-database.mjs";
import { root, startShopForBench } from "./lib/shop-server.mjs";

const connections = 20;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);
const rounds = Number(process.env.BENCH_SIGNED_IN_ROUNDS ?? 3);
const productCount = Number(process.env.BENCH_SIGNED_IN_PRODUCTS ?? 1_000);
const baselineRoot = process.env.BENCH_BASELINE_ROOT ?? "";
const blocks = Number(process.env.BENCH_SIGNED_IN_BLOCKS ?? 30);
const requestsPerBlock = 40;
const browserEncoding = "gzip, deflate, br, zstd";
const keep = process.env.BENCH_SIGNED_IN_KEEP === "1";
const databaseName = keep ? "bench_signed_in" : `bench_signed_in_${process.pid}`;
const profileFolder = process.env.BENCH_SIGNED_IN_PROFILE ? path.resolve(process.env.BENCH_SIGNED_IN_PROFILE) : "";
const wholeCatalogue = process.env.BENCH_SIGNED_IN_CATALOGUE === "1";
// The generated catalogue's categories (server/catalog/taxonomy.ts, lib/scale-catalogue.ts).
const categorySlugs = ["A-spasso", "Bagnetto", "arredamento", "sicurezza", "gioco-e-relax", "abbigliamento", "pappa"];
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

/**
 * In the whole-catalogue mode, every path a page of the load asks in turn: each category's listing pages (as
 * many as its first page links to), or every product page; none otherwise (the page's own path, again and again).
 */
async function catalogueOf(baseUrl) {
  const listings = [];
  for (const slug of categorySlugs) {
    const html = await (await fetch(`${baseUrl}/categoria/${slug}`)).text();
    const last = Math.max(1, ...[...html.matchAll(/[?&]page=(\d+)/g)].map((match) => Number(match[1])));
    for (let page = 1; page <= last; page += 1) listings.push(page === 1 ? `/categoria/${slug}` : `/categoria/${slug}?page=${page}`);
  }
  const products = Array.from({ length: productCount }, (_, index) => `/product/${index + 1}`);
  const dataPath = (pagePath) => pagePath.replace(/(\?|$)/, ".data$1");
  return {
    category: listings,
    product: products,
    "category (data)": listings.map(dataPath),
    "product (data)": products.map(dataPath),
    "product (visitor)": products,
    "personal part": products.map((product) => `${product}.data?_routes=root`),
  };
}

/** Every path of the whole-catalogue loads asked once by a visitor (4 at a time): kept, as in a shop visitors browse. */
async function askedByVisitors(baseUrl, catalogue) {
  const paths = [...new Set(pages.filter((page) => !page.name.startsWith("personal")).flatMap((page) => catalogue[page.name] ?? []))];
  let next = 0;
  const visitor = async () => {
    while (next < paths.length) await (await fetch(`${baseUrl}${paths[next++]}`, { headers: { "accept-encoding": browserEncoding } })).arrayBuffer();
  };
  await Promise.all([visitor(), visitor(), visitor(), visitor()]);
}

/** Resolves once the process has used under a twentieth of a core for two seconds (60 s at most). */
async function quietened(pid) {
  const until = Date.now() + 60_000;
  let quietSince = Date.now();
  while (Date.now() < until && Date.now() - quietSince < 2_000) {
    const before = cpuSecondsOf(pid);
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (cpuSecondsOf(pid) - before > 0.025) quietSince = Date.now();
  }
}

/** autocannon's request sequence for `page`: in the whole-catalogue mode each request asks the next path. */
function requestsOf(shop, page) {
  const paths = shop.catalogue?.[page.name];
  const headers = page.visitor ? { "accept-encoding": browserEncoding, accept: "text/html" } : shop.headers;
  if (!paths) return [{ method: "GET", headers }];
  return [{ method: "GET", headers, setupRequest: (request) => ({ ...request, path: paths[(shop.next = (shop.next + 1) % paths.length)] }) }];
}

/** The `name=value` pairs of a response's Set-Cookie headers, added to `jar`. */
function keepCookies(jar, response) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    jar.set(name, pair);
  }
}

/**
 * A new customer signed up and signed in through the shop's own form, with one unit of the product page's
 * first variant in the cart: the Cookie header the browser would send.
 */
async function signedInCustomer(baseUrl) {
  const jar = new Map();
  const cookie = () => [...jar.values()].join("; ");
  const email = `bench-${process.pid}-${Date.now().toString(36)}@example.com`;
  const password = "Tr3no-Blu-Vesuvio";
  const post = async (path, form) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: baseUrl, Cookie: cookie() },
      body: new URLSearchParams(form),
    });
    if (response.status >= 400) throw new Error(`POST ${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    keepCookies(jar, response);
    return response;
  };
  await post("/login-register", { intent: "register", name: "Anna Esposito", email, password, passwordConfirm: password, privacy: "on" });
  const login = await post("/login-register", { intent: "login", email, password });
  if (login.status !== 302) throw new Error(`login answered ${login.status}`);
  const productHtml = await (await fetch(`${baseUrl}${documentPages[1].path}`, { headers: { Cookie: cookie() } })).text();
  const variantId = /<input type="hidden" name="variantId" value="(\d+)"/.exec(productHtml)?.[1];
  if (!variantId) throw new Error(`no add-to-cart form on ${documentPages[1].path}`);
  await post("/cart.data", { js: "1", intent: "add", variantId, quantity: "1" });
  return cookie();
}

/**
 * Checks that the page is rendered for this customer (her name in it), as the load will ask it; with her `js`
 * cookie, that her personal part names her and the page answers (it is the visitors' kept one).
 */
async function assertRenderedForCustomer(url, headers, page) {
  const response = await fetch(url, { headers });
  const html = await response.text();
  const forHer = !runsScripts || page.name === "personal (json)";
  if (response.status !== 200 || (forHer && !html.includes("Anna"))) throw new Error(`${url}: ${response.status}, not the signed-in customer's page`);
}

async function measure(shop, page) {
  const requests = requestsOf(shop, page);
  const url = `${shop.baseUrl}${page.path}`;
  await runLoad({ url, connections, durationSeconds: 2, requests });
  const cpuBefore = cpuSecondsOf(shop.pid);
  const result = await runLoad({ url, connections, durationSeconds, requests });
  // No answer within autocannon's 10-second timeout (a starved machine): no CPU per request to give.
  const cpuMs = result.requests.total > 0 ? ((cpuSecondsOf(shop.pid) - cpuBefore) * 1000) / result.requests.total : null;
  return { reqPerSecond: result.requests.average, p99: result.latency.p99, cpuMs, errors: result.errors, non2xx: result.non2xx };
}

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

/** The median of the figures given (null ones left out); null when there are none. */
const median = (values) => {
  const known = values.filter((value) => value !== null && Number.isFinite(value)).toSorted((a, b) => a - b);
  return known.length > 0 ? known[Math.floor(known.length / 2)] : null;
};
const round1 = (value) => (value === null ? null : Math.round(value * 10) / 10);

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
    const cookie = await signedInCustomer(shop.baseUrl);
    shop.headers = { "accept-encoding": browserEncoding, accept: "text/html", cookie: runsScripts ? `${cookie}; js=1` : cookie };
    for (const page of pages.filter((page) => !page.visitor)) await assertRenderedForCustomer(`${shop.baseUrl}${page.path}`, shop.headers, page);
    if (wholeCatalogue) {
      shop.catalogue = await catalogueOf(shop.baseUrl);
      shop.next = 0;
      await askedByVisitors(shop.baseUrl, shop.catalogue);
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
