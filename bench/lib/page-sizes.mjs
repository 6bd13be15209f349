// What a page's first load costs in bytes, computed from its server-rendered HTML and the production build,
// without a browser (the size budgets; docs/decisions/0019-javascript-budget.md):
// - JavaScript: every script and modulepreload the HTML references, gzip (zlib's default level, as the server
//   sends it), split into framework (package code: React, React Router, i18next) and the shop's own code by
//   build/chunk-origins.json (config/chunk-origins.ts);
// - messages: the texts the page's loader data carries for i18next (app/lib/route-messages.ts), gzip;
// - CSS: the stylesheets the HTML links, gzip;
// - first-screen images: the pictures the HTML loads eagerly (not loading="lazy"), the file a phone picks
//   (412 CSS px wide at 1.75 device pixels, Lighthouse's mobile screen; AVIF first), as sent.
// Used by bench/js-size.mjs (the bench table) and scripts/test-size-budgets.mjs (the CI check).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { root } from "./shop-server.mjs";

/**
 * Budgets in KB (gzip; images as sent), per page, recorded in decision 0019. The framework is the
 * stack's floor, held a little above today's 124 KB so that an upgrade that grows it shows; own code,
 * messages, CSS and images leave about 10% room over the figures measured when they were set (2026-11-22).
 */
export const sizeBudgets = {
  // Raised with the delivery promise, sticky add bar, gift-list filling and newsletter form (measured: home 28.6,
  // listing 31.1, product 33.3, cart 27.0 (was under 18), gift list 31.1 KB).
  // CSS 11 -> 12 KB with the gift-list bar's phone layout (measured 11.1 KB, 2026-11-26): one stylesheet serves
  // every page, so the after-sales and back-office screens still to come add to it.
  // Home's own JS 29 -> 32 KB with customers' reviews on the cards and the quick view's focus return (measured 29.1
  // KB, 2026-11-26).
  // Home's messages 4.7 -> 5.0 KB with the footer's link to buy a gift card (decision 0106; measured 4.8 KB,
  // 2026-11-29).
  home: { frameworkJs: 130, ownJs: 32, messages: 5.0, css: 12, images: 10 },
  // Listing and gift list 32 -> 33 KB with the personal part apart from the loader data and the page's personal
  // regions (decision 0076; measured 32.0 and 32.1 KB, 2026-11-27): what only the server records is left out of
  // the browser's bundle (import.meta.env.SSR).
  // Listing's messages 5 -> 5.3 KB with the footer's link to the withdrawal function, which the law wants on every
  // page (decision 0090; measured 5.1 KB, home 4.7 KB, 2026-11-28).
  // Listing 33 -> 34, product 37 -> 38, cart 22 -> 23 KB with the browser's copy of a customer's personal part,
  // fetched after load and kept between her changes (decision 0095): +0.6-0.7 KB on every page (measured 33.0,
  // 37.2 and 22.7 KB against 32.3, 36.6 and 22.0 for the build before, 2026-11-29).
  // Product 38 -> 39 KB with a bundle's parts and a car seat's specification table on the page (decisions 0100,
  // 0101; measured 38.1 KB with the personal part, 2026-11-29).
  // Every page's header counts gift cards and fund contributions in the mini cart (decision 0106): product's messages
  // 6 -> 6.5 KB, listing's 5.3 -> 5.6 and cart's 4.9 -> 5.2 (measured 6.1, 5.3 and 4.9 KB, 2026-11-29).
  listing: { frameworkJs: 130, ownJs: 34, messages: 5.6, css: 12, images: 23 },
  // Product raised with customers' reviews and the rule on how they are checked (decision 0059; measured: own JS
  // 34.1, messages 5.2 KB), then with the back-in-stock form (decision 0067; measured 35.0 and 5.5 KB).
  product: { frameworkJs: 130, ownJs: 39, messages: 6.5, css: 12, images: 8 },
  // Cart's own JS back to 19.7 KB once the delivery promise got its own chunk (config/browser-chunks.ts). Messages
  // raised with the discount-code field and its refusal reasons (decision 0066; measured 4.5 KB).
  // Cart 23 -> 24 KB with its gift-card and fund-contribution lines (decision 0106; measured 23.4 KB, 2026-11-29).
  cart: { frameworkJs: 130, ownJs: 24, messages: 5.2, css: 12, images: 10 },
  // Gift list's messages 6.1 -> 7.0 KB with the list's cash funds: progress, contribution form, the owner's view
  // (decision 0098; measured 6.6 KB, 2026-11-29).
  "gift list": { frameworkJs: 130, ownJs: 33, messages: 7.0, css: 12, images: 10 },
};

const phone = { widthPx: 412, devicePixelRatio: 1.75 };
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const gzipBytes = (bytes) => zlib.gzipSync(bytes, { level: zlib.constants.Z_DEFAULT_COMPRESSION }).length;

/** Per chunk file ("assets/x.js"), the share of package code; written by the build. */
function readChunkOrigins() {
  const file = path.join(root, "build/chunk-origins.json");
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build first (npm run build)`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** <script src>, <link rel="modulepreload" href> and the static imports of inline module scripts. */
function referencedScripts(html) {
  const urls = new Set();
  for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(src);
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) if (/\brel="modulepreload"/.test(tag)) urls.add(/\bhref="([^"]+)"/.exec(tag)?.[1]);
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, src] of body.matchAll(/import\s*(?:[^"'()]*?from\s*)?["']([^"']+\.js)["']/g)) urls.add(src);
  }
  urls.delete(undefined);
  return [...urls].filter((url) => url.startsWith("/"));
}

/** The loader data the HTML hands to the browser (React Router's turbo-stream), decoded. */
async function loaderDataOf(html) {
  const chunks = [...html.matchAll(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g)].map(([, literal]) => JSON.parse(literal));
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const decoded = await decodeViaTurboStream(stream, globalThis);
  await decoded.done;
  return decoded.value?.loaderData ?? {};
}

/** The value of a `sizes` attribute on a screen `widthPx` wide, in CSS px (media conditions on width only). */
function slotWidth(sizes, widthPx) {
  for (const entry of (sizes ?? "100vw").split(",").map((part) => part.trim())) {
    const match = /^(?:\((min|max)-width:\s*(\d+)px\)\s+)?(.+)$/.exec(entry);
    if (!match) continue;
    const [, bound, limit, length] = match;
    if (bound === "min" && widthPx < Number(limit)) continue;
    if (bound === "max" && widthPx > Number(limit)) continue;
    if (length.endsWith("vw")) return (Number.parseFloat(length) / 100) * widthPx;
    if (length.endsWith("px")) return Number.parseFloat(length);
  }
  return widthPx;
}

/** The candidate of a `srcset` a phone picks: the narrowest at least as wide as the slot needs, else the widest. */
function pickCandidate(srcset, sizes) {
  const candidates = srcset
    .split(",")
    .map((part) => part.trim().split(/\s+/))
    .map(([url, descriptor]) => ({ url, width: Number.parseInt(descriptor ?? "0", 10) }))
    .sort((a, b) => a.width - b.width);
  const needed = slotWidth(sizes, phone.widthPx) * phone.devicePixelRatio;
  return (candidates.find((candidate) => candidate.width >= needed) ?? candidates.at(-1))?.url;
}

/** The image files an eager <img> (or its <picture>) makes a phone download. */
function firstScreenImages(html) {
  const urls = [];
  for (const [picture] of html.matchAll(/<picture>[\s\S]*?<\/picture>/g)) {
    if (/\bloading="lazy"/.test(picture)) continue;
    const source = /<source\b[^>]*type="image\/avif"[^>]*>/.exec(picture)?.[0] ?? /<source\b[^>]*>/.exec(picture)?.[0];
    const attribute = (tag, name) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(tag)?.[1];
    urls.push(
      source ? pickCandidate(attribute(source, "srcSet") ?? attribute(source, "srcset"), attribute(source, "sizes")) : attribute(picture, "src"),
    );
  }
  const outsidePictures = html.replace(/<picture>[\s\S]*?<\/picture>/g, "");
  for (const [tag] of outsidePictures.matchAll(/<img\b[^>]*>/g)) {
    if (/\bloading="lazy"/.test(tag)) continue;
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (src && !src.startsWith("data:")) urls.push(src);
  }
  return urls.filter(Boolean);
}

async function bytesOf(baseUrl, url, headers) {
  const response = await fetch(new URL(url, baseUrl), { headers });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

/** One page's first-load sizes in KB; `page` is { name, path, headers }. */
export async function measurePageSizes(baseUrl, page) {
  const origins = readChunkOrigins();
  const response = await fetch(`${baseUrl}${page.path}`, { headers: page.headers });
  const html = await response.text();
  if (!response.ok) throw new Error(`${page.path} answered ${response.status}`);

  let frameworkJs = 0;
  let ownJs = 0;
  for (const url of referencedScripts(html)) {
    const size = gzipBytes(await bytesOf(baseUrl, url, page.headers));
    const share = origins[url.replace(/^\//, "")]?.packageShare ?? 0;
    frameworkJs += size * share;
    ownJs += size * (1 - share);
  }
  const messages = Object.values(await loaderDataOf(html)).flatMap((data) => (data?.messages ? [data.messages] : []));
  let css = 0;
  for (const [tag] of html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g))
    css += gzipBytes(await bytesOf(baseUrl, /\bhref="([^"]+)"/.exec(tag)[1], page.headers));
  const imageUrls = firstScreenImages(html);
  let images = 0;
  for (const url of imageUrls) images += (await bytesOf(baseUrl, url, page.headers)).length;

  return {
    frameworkJs: kb(frameworkJs),
    ownJs: kb(ownJs),
    totalJs: kb(frameworkJs + ownJs),
    messages: kb(messages.length > 0 ? gzipBytes(Buffer.from(JSON.stringify(messages))) : 0),
    css: kb(css),
    images: kb(images),
    imageCount: imageUrls.length,
    html: kb(gzipBytes(Buffer.from(html))),
  };
}

/** "product: own JS 47.1 KB > 45 KB", one line per figure over its budget. */
export function overBudget(name, sizes) {
  const budget = sizeBudgets[name];
  if (!budget) return [];
  return Object.entries(budget)
    .filter(([figure, limit]) => sizes[figure] > limit)
    .map(([figure, limit]) => `${name}: ${figure} ${sizes[figure]} KB > ${limit} KB`);
}

/**
 * The five budgeted pages (bench/lib/lighthouse-pages.mjs makes the cart and the gift list), measured:
 * one row per page with its figures, the budgets it is over, and a table row for printing.
 */
export async function measureBudgetPages(baseUrl) {
  const { lighthousePages } = await import("./lighthouse-pages.mjs");
  const rows = [];
  for (const page of await lighthousePages(baseUrl)) {
    const sizes = await measurePageSizes(baseUrl, page);
    const over = overBudget(page.name, sizes);
    const budget = sizeBudgets[page.name] ?? {};
    const cell = (figure) => `${sizes[figure]} / ${budget[figure] ?? "-"}`;
    rows.push({
      page: page.name,
      path: page.path,
      sizes,
      over,
      table: {
        page: page.name,
        "framework JS": cell("frameworkJs"),
        "own JS": cell("ownJs"),
        "JS total": sizes.totalJs,
        messages: cell("messages"),
        CSS: cell("css"),
        [`images (${phone.widthPx} px phone)`]: `${cell("images")} (${sizes.imageCount})`,
        HTML: sizes.html,
        "within budget": over.length === 0 ? "yes" : "NO",
      },
    });
  }
  return rows;
}
