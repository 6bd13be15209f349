// A signed-in customer on the shop and on Vendure 3.7.3 in one run (issue 37's ">= 5x Vendure's API"): both on
// this machine's PostgreSQL with BENCH_VENDURE_PRODUCTS products (default 1,000) in seven categories, a customer
// signed up with one line in her cart on each, browser Accept-Encoding, autocannon with 20 connections, each
// load BENCH_DURATION_S seconds (default 8) after a 2-second warm-up, over the whole catalogue:
// - the shop: her category listing pages and product pages as a browser that runs the shop's scripts asks them
//   (her `js` cookie: the visitors' kept pages, decision 0095), as documents and as her client navigations to
//   them (their `.data`, as React Router's fetch asks it: `Accept: */*`), and her part alone (`/personal`), as
//   `BENCH_SIGNED_IN_CATALOGUE=1 BENCH_SIGNED_IN_JS=1 node bench/signed-in.mjs` asks them (lib/signed-in-shop.mjs);
// - Vendure's shop API as a storefront's server asks it for her (her bearer token): a collection page (the
//   collection, its products by `search`, 24 a page, and her active order), a product by slug with her active
//   order, and her active order alone. A storefront's client navigation asks Vendure the same documents, so her
//   `.data` rows stand beside the same two queries, measured again in their own turn.
// The two sides alternate over BENCH_VENDURE_ROUNDS rounds (default 3), each round in the other order; the table
// gives requests/s, p99, CPU per answer of each server process (PostgreSQL's own CPU is in neither) and
// shop / Vendure. Vendure is installed from npm into VENDURE_DIR (outside this repository) and populated through
// its own import (lib/vendure.mjs, bench/README.md); BENCH_VENDURE_KEEP=1 keeps both databases for the next run.
// Without VENDURE_DIR it says so and measures nothing. Writes bench/results/vendure-side-by-side.json.
import os from "node:os";
import path from "node:path";
import { writeResult } from "./lib/results.mjs";
import { dropDatabase, generateScaleCatalogue } from "./lib/scale-database.mjs";
import { startShopForBench } from "./lib/shop-server.mjs";
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
import {
  dropVendureDatabase,
  installVendure,
  isPopulated,
  populateVendure,
  startVendure,
  vendureCatalogue,
  vendureCustomer,
  vendureVersion,
} from "./lib/vendure.mjs";

if (!process.env.VENDURE_DIR) {
  console.log("VENDURE_DIR is not set: Vendure is not measured (bench/README.md says how to set it up).");
  process.exit(0);
}
const vendureDir = path.resolve(process.env.VENDURE_DIR);
const connections = 20;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 8);
const rounds = Number(process.env.BENCH_VENDURE_ROUNDS ?? 3);
const productCount = Number(process.env.BENCH_VENDURE_PRODUCTS ?? 1_000);
const keep = process.env.BENCH_VENDURE_KEEP === "1";
const shopDatabase = keep ? "bench_side_by_side" : `bench_side_by_side_${process.pid}`;
const vendureDatabase = keep ? "vendure_bench" : `vendure_bench_${process.pid}`;
// Each page of one side beside the same page of the other; `data`: her client navigation to it.
const pages = [
  { name: "category", shop: "category", vendure: "category" },
  { name: "product", shop: "product", vendure: "product" },
  { name: "category (.data)", shop: "category (data)", vendure: "category", data: true },
  { name: "product (.data)", shop: "product (data)", vendure: "product", data: true },
  { name: "her part", shop: "personal", vendure: "activeOrder" },
];

/** Vendure's autocannon request sequence for `page`: each request POSTs the page's next GraphQL body. */
function vendureRequests(vendure, page) {
  const bodies = vendure.catalogue[page.vendure];
  return [
    {
      method: "POST",
      headers: vendure.headers,
      setupRequest: (request) => ({ ...request, body: bodies[(vendure.next = (vendure.next + 1) % bodies.length)] }),
    },
  ];
}

/**
 * Every body of Vendure's loads asked once with her token (4 at a time), as the shop's paths are asked once
 * before its loads: each answer has no error, the page's product or products, and her order's one line.
 */
async function checkedAndWarmed(vendure) {
  const bodies = [...vendure.catalogue.category, ...vendure.catalogue.product, ...vendure.catalogue.activeOrder];
  let next = 0;
  const asker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const response = await fetch(vendure.shopApiUrl, { method: "POST", headers: vendure.headers, body });
      const { data, errors } = await response.json();
      const complete = data?.activeOrder?.totalQuantity === 1 && (data.search ? data.search.items.length > 0 : true) && data.product !== null;
      if (response.status !== 200 || errors || !complete)
        throw new Error(`Vendure answered ${response.status} to ${body.slice(0, 120)}: ${JSON.stringify(errors ?? data).slice(0, 300)}`);
    }
  };
  await Promise.all([asker(), asker(), asker(), asker()]);
}

/** The Content-Encoding a side answers a browser's request with ("none" when it sends the bytes as they are). */
async function encodingOf(url, init) {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.headers.get("content-encoding") ?? "none";
}

installVendure(vendureDir);
let shop;
let vendure;
try {
  // The shop's generator ends the process when it fails: first, before Vendure's database is made.
  console.log(`generating the shop's ${productCount} products in ${shopDatabase}...`);
  const shopCatalogue = generateScaleCatalogue({ databaseName: shopDatabase, keep, products: productCount, orders: 1_000 });
  if (!(await isPopulated(vendureDatabase, productCount))) {
    console.log(`populating Vendure's ${vendureDatabase} with ${productCount} products (its own populate() and CSV import)...`);
    console.log(`populated in ${await populateVendure({ vendureDir, databaseName: vendureDatabase, products: productCount })} s`);
  }
  shop = await startShopForBench({ databaseUrl: shopCatalogue.databaseUrl });
  vendure = await startVendure({ vendureDir, databaseName: vendureDatabase });

  const cookie = await signedInCustomer(shop.baseUrl, `/product/${Math.ceil(productCount / 2)}`);
  shop.headers = { "accept-encoding": browserEncoding, accept: "text/html", cookie: `${cookie}; js=1` };
  // React Router's fetch of a client navigation's `.data`, from her browser.
  shop.dataHeaders = { ...shop.headers, accept: "*/*" };
  shop.catalogue = { ...(await catalogueOf(shop.baseUrl, productCount)), personal: ["/personal"] };
  shop.next = 0;
  // Her pages are the visitors' kept ones (her `js` cookie): only her part names her.
  await assertAnsweredForCustomer(`${shop.baseUrl}/personal`, shop.headers, true);
  for (const page of pages.filter((page) => page.shop !== "personal"))
    await assertAnsweredForCustomer(`${shop.baseUrl}${shop.catalogue[page.shop][0]}`, page.data ? shop.dataHeaders : shop.headers, false);
  await askedByVisitors(
    shop.baseUrl,
    pages.filter((page) => page.shop !== "personal").flatMap((page) => shop.catalogue[page.shop]),
  );
  console.log(`shop: ${shop.catalogue.category.length} listing pages, ${shop.catalogue.product.length} product pages`);

  const token = await vendureCustomer(vendure.shopApiUrl);
  vendure.headers = { "content-type": "application/json", authorization: `Bearer ${token}`, "accept-encoding": browserEncoding };
  vendure.catalogue = await vendureCatalogue(vendure.shopApiUrl, token, productCount);
  vendure.next = 0;
  await checkedAndWarmed(vendure);
  console.log(`Vendure: ${vendure.catalogue.category.length} listing pages, ${vendure.catalogue.product.length} products`);
  // The kept pages' strong compression, in the background after the visitors' pass, done before any load.
  await quietened(shop.pid);

  const encodings = {
    shop: await encodingOf(`${shop.baseUrl}${shop.catalogue.product[0]}`, { headers: shop.headers }),
    vendure: await encodingOf(vendure.shopApiUrl, { method: "POST", headers: vendure.headers, body: vendure.catalogue.product[0] }),
  };
  const sides = [
    {
      name: "shop",
      measure: (page) =>
        measureLoad({
          url: `${shop.baseUrl}${shop.catalogue[page.shop][0]}`,
          pid: shop.pid,
          requests: requestsOf(shop, { name: page.shop, headers: page.data ? shop.dataHeaders : undefined }),
          connections,
          durationSeconds,
        }),
    },
    {
      name: `Vendure ${vendureVersion}`,
      measure: (page) =>
        measureLoad({ url: vendure.shopApiUrl, pid: vendure.pid, requests: vendureRequests(vendure, page), connections, durationSeconds }),
    },
  ];
  const runs = [];
  for (let round = 1; round <= rounds; round += 1)
    for (const page of pages)
      for (const side of round % 2 === 1 ? sides : sides.toReversed()) {
        const run = await side.measure(page);
        runs.push({ round, side: side.name, page: page.name, ...run });
        console.log(
          `round ${round} ${side.name} ${page.name}: ${Math.round(run.reqPerSecond)} req/s, p99 ${run.p99} ms, ${round1(run.cpuMs)} ms CPU/answer, ${run.bytes} bytes/answer`,
        );
      }
  const loadAverage = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  const rows = pages.flatMap((page) =>
    sides.map((side) => {
      const mine = runs.filter((run) => run.page === page.name && run.side === side.name);
      return {
        page: page.name,
        side: side.name,
        "req/s (median)": Math.round(median(mine.map((run) => run.reqPerSecond))),
        "req/s (rounds)": mine.map((run) => Math.round(run.reqPerSecond)).join(" "),
        "p99 ms (median)": median(mine.map((run) => run.p99)),
        "CPU ms/answer (median)": round1(median(mine.map((run) => run.cpuMs))),
        "bytes/answer": median(mine.map((run) => run.bytes)),
        "errors, not 2xx": `${mine.reduce((sum, run) => sum + run.errors, 0)}, ${mine.reduce((sum, run) => sum + run.non2xx, 0)}`,
      };
    }),
  );
  // Ratios per round (the two loads of a pair measured one after the other), then their median.
  const ratios = pages.map((page) => {
    const perRound = [];
    for (let round = 1; round <= rounds; round += 1) {
      const [mine, theirs] = sides.map((side) => runs.find((run) => run.round === round && run.page === page.name && run.side === side.name));
      if (mine.cpuMs !== null && theirs.cpuMs !== null)
        perRound.push({ reqPerSecond: mine.reqPerSecond / theirs.reqPerSecond, cpu: theirs.cpuMs / mine.cpuMs });
    }
    const twoPlaces = (value) => (value === null ? null : Math.round(value * 100) / 100);
    return {
      page: page.name,
      "req/s shop / Vendure (rounds)": perRound.map((ratio) => ratio.reqPerSecond.toFixed(1)).join(" "),
      "req/s shop / Vendure (median)": twoPlaces(median(perRound.map((ratio) => ratio.reqPerSecond))),
      "CPU/answer Vendure / shop (median)": twoPlaces(median(perRound.map((ratio) => ratio.cpu))),
    };
  });
  console.table(rows);
  console.table(ratios);
  console.log(`Content-Encoding for a browser: shop ${encodings.shop}, Vendure ${encodings.vendure}`);
  console.log(`load average ${loadAverage}`);
  const summary = pages.map((page) => {
    const [mine, theirs] = sides.map((side) => rows.find((row) => row.page === page.name && row.side === side.name));
    return {
      measure: `signed-in customer's ${page.name} (whole catalogue), shop vs Vendure ${vendureVersion}'s shop API, PostgreSQL, ${productCount} products, ${connections} connections`,
      figure: `${mine["req/s (median)"]} req/s, p99 ${mine["p99 ms (median)"]} ms, ${mine["CPU ms/answer (median)"]} ms CPU/answer`,
      baseline: `Vendure ${theirs["req/s (median)"]} req/s, p99 ${theirs["p99 ms (median)"]} ms, ${theirs["CPU ms/answer (median)"]} ms CPU/answer (same run)`,
      ratio: ratios.find((ratio) => ratio.page === page.name)["req/s shop / Vendure (median)"],
      target: page.name === "her part" ? "" : ">= 5 and >= 300 req/s (issue 37)",
    };
  });
  const file = writeResult(
    "vendure-side-by-side",
    { connections, durationSeconds, rounds, productCount, vendureVersion, encodings, runs, rows, ratios, loadAverage },
    summary,
  );
  console.log(`written to ${file}`);
} finally {
  // Requests autocannon left in flight finish before the servers close their database pools.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await shop?.stop();
  await vendure?.stop();
  if (!keep) {
    await dropDatabase(shopDatabase);
    await dropVendureDatabase(vendureDatabase);
  }
}
