// A signed-in customer with a cart line and a gift list on a slow phone, in real Chromium (decision 0095): her
// product page and a listing, with the CPU slowed 4x and DevTools' "Slow 4G" (as bench/real-chromium.mjs), after
// a first page that set her `js` cookie. For each page: first contentful paint, when React has hydrated it, when
// her name is in the account menu and her cart's count in the header, and the cumulative layout shift until then
// plus a second. Her first page of a tab (her part fetched) and her next page (her part kept in sessionStorage).
// Medians of BENCH_REAL_RUNS runs (default 3). Writes bench/results/signed-in-chromium.json.
/* global window, document, MutationObserver -- watchPage runs in the page */
import { chromium } from "playwright-core";
import { writeResult } from "./lib/results.mjs";
import { chromiumPath, quietChromiumFlags } from "../scripts/lib/chromium.ts";
import { startShopForBench } from "./lib/shop-server.mjs";
import { signedInCustomer } from "./lib/signed-in-shop.mjs";

const runs = Number(process.env.BENCH_REAL_RUNS ?? 3);
const slow4g = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (607.5 * 1024) / 8 };
const phone = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const shop = await startShopForBench();
const browser = await chromium.launch({ executablePath: chromiumPath, args: quietChromiumFlags });

function watchPage() {
  const marks = { fcp: null, hydrated: null, named: null, counted: null, cls: 0 };
  window.__bench = marks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "first-contentful-paint") marks.fcp = entry.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) marks.cls += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  const seen = () => {
    if (marks.hydrated === null && document.querySelector('[data-toaster="hydrated"]')) marks.hydrated = performance.now();
    const text = document.querySelector("header")?.textContent ?? "";
    if (marks.named === null && text.includes("(Anna Esposito)")) marks.named = performance.now();
    if (marks.counted === null && /Carrello, 1 articolo/.test(text)) marks.counted = performance.now();
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

/** A customer signed up and in through the shop's forms, one line in her cart, her gift list chosen, saved items: her cookies. */
async function customerCookies(baseUrl) {
  const cookie = await signedInCustomer(baseUrl, "/product/47");
  return cookie.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl };
  });
}

async function visit(page, path) {
  await page.goto(path, { waitUntil: "load", timeout: 120_000 });
  await page.waitForFunction(() => window.__bench.hydrated !== null && window.__bench.named !== null && window.__bench.counted !== null, null, {
    timeout: 120_000,
  });
  await page.waitForTimeout(1000);
  return page.evaluate(() => window.__bench);
}

const samples = {};
const note = (key, marks) => {
  for (const [measure, value] of Object.entries(marks)) (samples[`${key}|${measure}`] ??= []).push(value);
};
try {
  const cookies = await customerCookies(shop.baseUrl);
  for (let run = 0; run < runs; run++) {
    for (const path of ["/product/47", "/categoria/A-spasso"]) {
      const context = await browser.newContext({ ...phone, baseURL: shop.baseUrl });
      // Her browser ran the shop's scripts before (her earlier visit): the `js` cookie is there.
      await context.addCookies([...cookies, { name: "js", value: "1", url: shop.baseUrl }]);
      await context.addInitScript(watchPage);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", slow4g);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      note(`${path}|first page of the tab`, await visit(page, path));
      note(`${path}|next page`, await visit(page, path === "/product/47" ? "/categoria/A-spasso" : "/product/47"));
      await context.close();
    }
  }
} finally {
  await browser.close();
  await shop.stop();
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const key of new Set(Object.keys(samples).map((key) => key.split("|").slice(0, 2).join("|")))) {
  const of = (measure) => median(samples[`${key}|${measure}`]);
  rows.push({
    page: key,
    "FCP ms": Math.round(of("fcp")),
    "hydrated ms": Math.round(of("hydrated")),
    "her name ms": Math.round(of("named")),
    "cart count ms": Math.round(of("counted")),
    CLS: Math.round(of("cls") * 1000) / 1000,
  });
}
console.table(rows);
writeResult(
  "signed-in-chromium",
  { runs, rows, samples },
  rows.map((row) => ({
    measure: `signed-in ${row.page}: her name / cart count after FCP, CLS (4x CPU, slow 4G)`,
    figure: `FCP ${row["FCP ms"]} ms, hydrated ${row["hydrated ms"]}, name ${row["her name ms"]}, count ${row["cart count ms"]}, CLS ${row.CLS}`,
  })),
);
