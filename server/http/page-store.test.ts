import { expect, test } from "vitest";
import crypto from "node:crypto";
import zlib from "node:zlib";
import { brotliWindowBits, createPageStore, firstBrotliQuality, keepPage, keptBrotliQuality, plainBytesOf, type KeptPage } from "./page-store";

const rendered = (text: string) => ({
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]] as [string, string][],
  body: Buffer.from(text),
});

/** A kept page past its strong compression, as the store holds it once its background work is done. */
async function pageOf(text: string, versions = "1.1", expiresAt = Number.MAX_SAFE_INTEGER): Promise<KeptPage> {
  const page = await keepPage(rendered(text), { versions, expiresAt });
  const scratch = createPageStore(Number.MAX_SAFE_INTEGER);
  scratch.set("EUR /", page);
  await scratch.recompressed();
  return page;
}

test("a kept page holds only at its versions and before its expiry", async () => {
  const store = createPageStore(1_000_000);
  store.set("EUR /shop", await pageOf("<p>negozio</p>", "5.2", 2_000));
  expect(store.get("EUR /shop", "5.2", 1_999)?.status).toBe(200);
  expect(store.get("EUR /shop", "5.3", 1_000)).toBeUndefined();
  // A page that no longer holds is dropped, not kept beside a newer one.
  expect(store.get("EUR /shop", "5.2", 1_000)).toBeUndefined();
  store.set("EUR /shop", await pageOf("<p>negozio</p>", "5.2", 2_000));
  expect(store.get("EUR /shop", "5.2", 2_000)).toBeUndefined();
});

test("the store keeps at most its bytes, dropping the page given least recently", async () => {
  const pages = await Promise.all(["a", "b", "c"].map((letter) => pageOf(letter.repeat(5_000) + Math.random())));
  const store = createPageStore(pages[0]!.bytes * 2 + 40);
  store.set("EUR /a", pages[0]!);
  store.set("EUR /b", pages[1]!);
  expect(store.get("EUR /a", "1.1", 0)).toBeDefined();
  store.set("EUR /c", pages[2]!);
  expect(store.get("EUR /b", "1.1", 0)).toBeUndefined();
  expect(store.get("EUR /a", "1.1", 0)).toBeDefined();
  expect(store.get("EUR /c", "1.1", 0)).toBeDefined();
  expect(store.size().bytes).toBeLessThanOrEqual(pages[0]!.bytes * 2 + 40);
  // A page larger than the whole store is not kept.
  const small = createPageStore(10);
  small.set("EUR /a", pages[0]!);
  expect(small.size()).toEqual({ pages: 0, bytes: 0 });
});

test("the ETag names the page's bytes, whatever the encoding", async () => {
  const [one, same, other] = await Promise.all([pageOf("<p>uno</p>"), pageOf("<p>uno</p>"), pageOf("<p>due</p>")]);
  expect(one.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
  expect(same.etag).toBe(one.etag);
  expect(other.etag).not.toBe(one.etag);
});

test("gzip is made on the first request for it, once, and counted in the store's bytes", async () => {
  const text = `<p>${"culla ".repeat(2_000)}</p>`;
  const page = await pageOf(text);
  expect(page.gzip).toBeNull();
  const store = createPageStore(1_000_000);
  store.set("EUR /culle", page);
  const before = store.size().bytes;
  const [first, second] = await Promise.all([store.gzipOf("EUR /culle", page), store.gzipOf("EUR /culle", page)]);
  expect(zlib.gunzipSync(first).toString()).toBe(text);
  expect(second).toBe(first);
  expect(store.size().bytes).toBe(before + first.length);
  expect(await store.gzipOf("EUR /culle", page)).toBe(first);
  expect(store.size().bytes).toBe(before + first.length);
  expect((await plainBytesOf(page)).toString()).toBe(text);
});

test("a page grown by its gzip past the bound makes room by dropping the least recently given", async () => {
  const [old, asked] = await Promise.all([
    pageOf(`<p>${"a".repeat(9_000)}${Math.random()}</p>`),
    pageOf(`<p>${"b".repeat(9_000)}${Math.random()}</p>`),
  ]);
  const store = createPageStore(old.bytes + asked.bytes + 40);
  store.set("EUR /old", old);
  store.set("EUR /asked", asked);
  await store.gzipOf("EUR /asked", asked);
  expect(store.get("EUR /old", "1.1", 0)).toBeUndefined();
  expect(store.get("EUR /asked", "1.1", 0)?.gzip).not.toBeNull();
});

/** A listing's worth of varied markup: brotli's qualities differ on it as on a page. */
const listingLike = () =>
  Array.from({ length: 400 }, (_, index) => `<li class="card"><a href="/product/${index * 7}">Passeggino ${index} ${Math.random()}</a></li>`).join(
    "",
  );

test("a page is kept at once with a fast compression, then strongly compressed in the background: the same page, fewer bytes", async () => {
  const text = listingLike();
  const page = await keepPage(rendered(text), { versions: "1.1", expiresAt: Number.MAX_SAFE_INTEGER });
  const fast = zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: firstBrotliQuality } });
  expect(page.isStronglyCompressed).toBe(false);
  expect(Math.abs(page.br.length - fast.length)).toBeLessThan(fast.length * 0.05);
  const store = createPageStore(1_000_000);
  store.set("EUR /shop", page);
  const before = store.size().bytes;
  const { etag, br: first } = page;
  await store.recompressed();
  expect(page.isStronglyCompressed).toBe(true);
  const strong = zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: keptBrotliQuality } });
  expect(page.br.length).toBeLessThan(fast.length);
  expect(Math.abs(page.br.length - strong.length)).toBeLessThan(strong.length * 0.05);
  expect(zlib.brotliDecompressSync(page.br).toString()).toBe(text);
  expect(page.etag).toBe(etag);
  expect(store.size().bytes, "the store counts the strong bytes").toBe(before - (first.length - page.br.length));
  expect(store.get("EUR /shop", "1.1", 0)).toBe(page);
});

test("the background compression is bounded: pages dropped meanwhile are skipped, and only so many wait", async () => {
  const store = createPageStore(Number.MAX_SAFE_INTEGER);
  const dropped = await keepPage(rendered(listingLike()), { versions: "1.1", expiresAt: Number.MAX_SAFE_INTEGER });
  const replacing = await keepPage(rendered(listingLike()), { versions: "1.1", expiresAt: Number.MAX_SAFE_INTEGER });
  const pages = await Promise.all(
    Array.from({ length: 300 }, (_, index) => keepPage(rendered(`<p>${index}</p>`), { versions: "1.1", expiresAt: Number.MAX_SAFE_INTEGER })),
  );
  store.set("EUR /first", pages[0]!);
  store.set("EUR /dropped", dropped);
  store.set("EUR /dropped", replacing);
  for (const [index, page] of pages.slice(1).entries()) store.set(`EUR /${index + 1}`, page);
  await store.recompressed();
  expect(dropped.isStronglyCompressed).toBe(false);
  const strong = pages.filter((page) => page.isStronglyCompressed).length;
  // The first began at once; 256 waited; the oldest of the rest kept their first bytes.
  expect(strong).toBeLessThanOrEqual(257);
  expect(strong).toBeGreaterThanOrEqual(250);
  expect(pages.at(-1)!.isStronglyCompressed).toBe(true);
});

test("brotli's window holds the whole page and no more: the same bytes as the default window", () => {
  expect([brotliWindowBits(0), brotliWindowBits(1_000), brotliWindowBits(190_000), brotliWindowBits(50_000_000)]).toEqual([10, 10, 18, 24]);
  const page = Buffer.from(
    Array.from({ length: 4_000 }, (_, i) => `<li class="card">Passeggino ${i % 97} a ${(i * 7919) % 1000} euro</li>`).join(""),
  );
  const compress = (windowBits: number) =>
    zlib.brotliCompressSync(page, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: keptBrotliQuality, [zlib.constants.BROTLI_PARAM_LGWIN]: windowBits },
    });
  const fitted = compress(brotliWindowBits(page.length));
  expect(zlib.brotliDecompressSync(fitted).equals(page)).toBe(true);
  expect(fitted.length).toBe(compress(22).length);
});

test("a kept page holds memory for its own bytes only, in every encoding: the bound counts what the store keeps", async () => {
  // Random text compresses little: each encoding is some tens of KB, under zlib's 64 KiB output chunk.
  const page = await keepPage(rendered(crypto.randomBytes(15_000).toString("hex")), { versions: "1.1", expiresAt: Number.MAX_SAFE_INTEGER });
  const heldBy = (bytes: Buffer) => bytes.buffer.byteLength;
  expect(heldBy(page.br)).toBe(page.br.length);
  const store = createPageStore(Number.MAX_SAFE_INTEGER);
  store.set("EUR /", page);
  await store.recompressed();
  expect(page.isStronglyCompressed).toBe(true);
  expect(heldBy(page.br)).toBe(page.br.length);
  const gzipped = await store.gzipOf("EUR /", page);
  expect(heldBy(gzipped)).toBe(gzipped.length);
  expect(store.size().bytes).toBeGreaterThanOrEqual(heldBy(page.br) + heldBy(gzipped));
});
