// What a visitor on a slow phone lives, in real Chromium rather than Lighthouse's simulation: Debian's
// Chromium through the DevTools protocol with the CPU slowed 4x and DevTools' "Slow 4G" network (562.5 ms
// round trip, 1.47 Mbit/s down, 0.6 up), a 412 px phone screen, the browser's own Accept-Encoding.
// For home, a listing and a product page: first contentful paint, largest contentful paint, and when the page
// is interactive (React has hydrated it: the toaster's `data-toaster="hydrated"`); then the Interaction to
// Next Paint of opening a listing card's quick view and of adding the product to the cart (the event's
// duration: input delay, handlers, next paint), clicked once the page has settled. Medians of BENCH_REAL_RUNS runs (default 5), each in a fresh
// browser context (cold cache).
// BENCH_BASELINE_ROOT=<another checkout with its build> runs that shop too, runs alternated page by page,
// and reports each figure beside its baseline (the ratio is this build's time over the baseline's).
/* global window, document, MutationObserver -- watchPage and the evaluated callbacks run in the page */
import { chromium } from "playwright-core";
import { writeResult } from "./lib/results.mjs";
import { chromiumPath, quietChromiumFlags } from "../scripts/lib/chromium.ts";
import { startShopForBench } from "./lib/shop-server.mjs";

const runs = Number(process.env.BENCH_REAL_RUNS ?? 5);
const slow4g = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (607.5 * 1024) / 8 };
const cpuSlowdown = 4;
const phone = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const shops = [{ name: "this build", shop: await startShopForBench() }];
if (process.env.BENCH_BASELINE_ROOT) shops.push({ name: "baseline", shop: await startShopForBench({ appRoot: process.env.BENCH_BASELINE_ROOT }) });
const browser = await chromium.launch({ executablePath: chromiumPath, args: quietChromiumFlags });

/** Records paints and the hydration moment from the page's first instant (before any script of the page runs). */
function watchPage() {
  const marks = { fcp: null, lcp: null, hydrated: null, events: [] };
  window.__bench = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") marks.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.lcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.interactionId) marks.events.push({ name: entry.name, duration: entry.duration });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
  const seen = () => {
    if (marks.hydrated === null && document.querySelector('[data-toaster="hydrated"]')) marks.hydrated = performance.now();
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-toaster"] });
}

async function openThrottled(baseUrl, path) {
  const context = await browser.newContext({ ...phone, baseURL: baseUrl });
  await context.addInitScript(watchPage);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", slow4g);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
  await page.goto(path, { waitUntil: "load", timeout: 120_000 });
  await page.waitForFunction(() => window.__bench.hydrated !== null, null, { timeout: 120_000 });
  // The largest paint is final once the page is interactive and a moment has passed without a new one.
  await page.waitForTimeout(500);
  return { context, page };
}

/**
 * The longest event duration of the interaction the click starts, once its next paint has happened. The
 * click comes once the page has settled (no request for half a second), as a person's first click does.
 */
async function interactionAfter(page, act) {
  await page.waitForLoadState("networkidle", { timeout: 120_000 });
  await page.evaluate(() => (window.__bench.events = []));
  await act();
  await page.waitForTimeout(1000);
  const events = await page.evaluate(() => window.__bench.events);
  return events.length === 0 ? 16 : Math.max(...events.map((event) => event.duration));
}

async function measurePage(baseUrl, name) {
  const paths = { home: "/", listing: "/categoria/A-spasso", product: await firstProductPath(baseUrl) };
  const { context, page } = await openThrottled(baseUrl, paths[name]);
  try {
    const marks = await page.evaluate(() => window.__bench);
    const figures = { fcp: marks.fcp, lcp: marks.lcp, interactive: marks.hydrated };
    if (name === "listing") {
      figures.quickView = await interactionAfter(page, () => page.locator("main [aria-haspopup=dialog]").first().click());
    }
    if (name === "product") {
      figures.addToCart = await interactionAfter(page, () => page.locator("main form[action='/cart'] button[type=submit]").first().click());
    }
    return figures;
  } finally {
    await context.close();
  }
}

let productPath = null;
async function firstProductPath(baseUrl) {
  productPath ??= `/product/${/href="\/product\/(\d+)"/.exec(await (await fetch(`${baseUrl}/`)).text())?.[1]}`;
  return productPath;
}

const median = (values) => {
  const sorted = values.filter((value) => value !== null && value !== undefined).sort((a, b) => a - b);
  return sorted.length === 0 ? null : Math.round(sorted[Math.floor(sorted.length / 2)]);
};

const samples = {};
try {
  for (const pageName of ["home", "listing", "product"]) {
    // A warm-up visit per shop: the server's first render of a page is not what a visitor meets.
    for (const { shop } of shops) await measurePage(shop.baseUrl, pageName);
    for (let run = 0; run < runs; run++) {
      for (const { name, shop } of run % 2 === 0 ? shops : [...shops].reverse()) {
        const figures = await measurePage(shop.baseUrl, pageName);
        for (const [measure, value] of Object.entries(figures)) (samples[`${name}|${pageName}|${measure}`] ??= []).push(value);
      }
    }
  }
} finally {
  await browser.close();
  for (const { shop } of shops) await shop.stop();
}

const labels = {
  fcp: "first contentful paint",
  lcp: "largest contentful paint",
  interactive: "interactive (hydrated)",
  quickView: "INP: open the quick view",
  addToCart: "INP: add to the cart",
};
const rows = [];
for (const key of Object.keys(samples).filter((key) => key.startsWith("this build|"))) {
  const [, pageName, measure] = key.split("|");
  const figure = median(samples[key]);
  const baseline = median(samples[`baseline|${pageName}|${measure}`] ?? []);
  rows.push({
    page: pageName,
    measure: labels[measure],
    ms: figure,
    baselineMs: baseline,
    ratio: baseline ? Math.round((figure / baseline) * 100) / 100 : null,
  });
}
console.table(rows);
writeResult(
  "real-chromium",
  { runs, cpuSlowdown, network: slow4g, rows, samples },
  rows.map((row) => ({
    measure: `${row.page}: ${row.measure} (4x CPU, slow 4G)`,
    figure: `${row.ms} ms`,
    ...(row.baselineMs ? { baseline: `${row.baselineMs} ms`, ratio: row.ratio } : {}),
  })),
);
