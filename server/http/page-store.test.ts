import { expect, test } from "vitest";
import zlib from "node:zlib";
import { createPageStore, keepPage, plainBytesOf, type KeptPage } from "./page-store";

const rendered = (text: string) => ({
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]] as [string, string][],
  body: Buffer.from(text),
});

async function pageOf(text: string, versions = "1.1", expiresAt = Number.MAX_SAFE_INTEGER): Promise<KeptPage> {
  return keepPage(rendered(text), { versions, expiresAt });
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
