// JavaScript a product page ships on its first load (issue 3 budget: <= 120 KB gzip). Sums the
// script and modulepreload assets the server-rendered HTML references, gzip-compressed as the
// server sends them (and brotli, which browsers get); also what Chromium actually fetched
// (the page's messages, a dynamic import, included).
// Prints a table and writes bench/results/js-size.json.
import zlib from "node:zlib";
import { chromium } from "playwright-core";
import { benchPages, chromiumFlags, chromiumPath, startShopForBench, writeResult } from "./lib/shop-server.mjs";

const budgetKb = 120;
const shop = await startShopForBench();
try {
  const pages = await benchPages(shop.baseUrl);
  const rows = [];
  const details = {};
  for (const page of pages) {
    const html = await (await fetch(`${shop.baseUrl}${page.path}`)).text();
    const referenced = referencedScripts(html);
    const assets = await Promise.all(referenced.map((url) => measure(shop.baseUrl, url)));
    const loaded = await scriptsChromiumLoads(`${shop.baseUrl}${page.path}`);
    const loadedAssets = await Promise.all(loaded.map((url) => measure(shop.baseUrl, url)));
    const sum = (list, key) => list.reduce((total, asset) => total + asset[key], 0);
    const gzipKb = sum(assets, "gzipBytes") / 1024;
    rows.push({
      page: page.name,
      path: page.path,
      built: page.real ? "yes" : "no (coming soon)",
      files: assets.length,
      "raw KB": round(sum(assets, "rawBytes") / 1024),
      "gzip KB": round(gzipKb),
      "brotli KB (as sent to Chromium)": round(sum(assets, "brotliBytes") / 1024),
      "loaded by Chromium, gzip KB": round(sum(loadedAssets, "gzipBytes") / 1024),
      "budget KB": page.name === "product" ? budgetKb : "",
      "within budget": page.name === "product" ? (gzipKb <= budgetKb ? "yes" : "NO") : "",
    });
    details[page.name] = { referenced: assets, loadedByChromium: loadedAssets };
  }
  console.table(rows);
  const product = rows.find((row) => row.page === "product");
  const file = writeResult("js-size", { budgetKb, rows, details });
  console.log(`product page: ${product["gzip KB"]} KB gzip of JavaScript (budget ${budgetKb} KB); written to ${file}`);
  if (product["gzip KB"] > budgetKb) process.exitCode = 1;
} finally {
  await shop.stop();
}

/** <script src>, <link rel="modulepreload" href> and the inline module script's static imports. */
function referencedScripts(html) {
  const urls = new Set();
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(src);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    if (/\brel="modulepreload"/.test(tag)) urls.add(/\bhref="([^"]+)"/.exec(tag)?.[1]);
  }
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, src] of body.matchAll(/import\s*(?:[^"'()]*?from\s*)?["']([^"']+\.js)["']/g)) urls.add(src);
  }
  urls.delete(undefined);
  return [...urls].filter((url) => url.startsWith("/"));
}

async function measure(baseUrl, url) {
  const bytes = Buffer.from(await (await fetch(new URL(url, baseUrl))).arrayBuffer());
  // The server's compression middleware: zlib's default gzip level; brotli at quality 4 for browsers that accept it.
  const brotliBytes = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
  return { url, rawBytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: zlib.constants.Z_DEFAULT_COMPRESSION }).length, brotliBytes };
}

async function scriptsChromiumLoads(url) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  try {
    const page = await browser.newPage();
    const scripts = new Set();
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(url, { waitUntil: "networkidle" });
    return [...scripts];
  } finally {
    await browser.close();
  }
}

function round(value) {
  return Math.round(value * 10) / 10;
}
