import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { expect, test } from "vitest";
import { modulePreloadsAfterFirstPaint, scriptsAfterFirstPaint } from "./scripts-after-first-paint.server";

const nonce = "n0nce";
// The shape React Router's <Scripts> and React give a page: preloads hoisted into <head>, the module script
// at the end of <body>, the loader data streamed after it.
const head =
  '<!DOCTYPE html><html lang="it"><head><meta charSet="utf-8"/>' +
  '<link nonce="n0nce" rel="stylesheet" href="/assets/app.css" data-precedence="default"/><title>Passeggini | Bimbi Felici</title>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n0nce"/><link rel="modulepreload" href="/assets/root.js" nonce="n0nce"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n0nce"/><link rel="modulepreload" href="/assets/listing.js" nonce="n0nce"/>' +
  '<script type="application/ld+json">{"name":"Bimbi Felici"}</script></head>';
const moduleScriptText =
  ';\nimport * as route0 from "/assets/root.js";\nwindow.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client.js");';
const body =
  "<body><main><h1>Passeggini e carrozzine</h1><p>Perché è leggero</p></main>" +
  '<script nonce="n0nce">window.__reactRouterContext = {};</script>' +
  `<script nonce="n0nce" type="module" async="">${moduleScriptText}</script>` +
  '<script nonce="n0nce">window.__reactRouterContext.streamController.enqueue("[]");</script></body></html>';
const page = head + body;

/** The page through the rewrite, sent in pieces of `size` bytes (cutting tags and multi-byte letters). */
function rewritten(html: string, size: number) {
  const bytes = Buffer.from(html);
  const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) => bytes.subarray(index * size, (index + 1) * size));
  return text(Readable.from(pieces).pipe(scriptsAfterFirstPaint(nonce)));
}

test("the page's scripts are no longer preloaded from <head>: a starter after the module script loads them, once", async () => {
  const html = await rewritten(page, 64 * 1024);
  const [headOut, bodyOut = ""] = html.split("</head>");
  expect(headOut).not.toContain("modulepreload");
  // Everything else in <head> stays, the stylesheet first.
  expect(headOut).toBe(head.replace(/<link rel="modulepreload"[^>]*>/g, "").replace("</head>", ""));
  expect(bodyOut).toContain(
    `<script nonce="n0nce" type="text/x-module-after-first-paint" async="">${moduleScriptText}</script><script nonce="n0nce" data-module-preloads=`,
  );
  // The size budgets (bench/lib/page-sizes.mjs) read the same list.
  expect(modulePreloadsAfterFirstPaint(html)).toEqual(["/assets/entry.client.js", "/assets/root.js", "/assets/listing.js"]);
  expect(bodyOut).toContain('getEntriesByName("first-contentful-paint")');
  // The loader data still follows, unchanged.
  expect(bodyOut.endsWith('<script nonce="n0nce">window.__reactRouterContext.streamController.enqueue("[]");</script></body></html>')).toBe(true);
});

test("however the page arrives in pieces, the result is the same", async () => {
  const whole = await rewritten(page, 64 * 1024);
  for (const size of [1, 2, 3, 7, 16, 61, 200]) expect(await rewritten(page, size)).toBe(whole);
});

test("a page without script preloads passes unchanged", async () => {
  const plain =
    '<!DOCTYPE html><html><head><title>Non trovata</title></head><body><p>Più tardi</p><script type="module">import "/x.js";</script></body></html>';
  expect(await rewritten(plain, 5)).toBe(plain);
});
