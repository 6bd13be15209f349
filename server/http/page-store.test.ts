import { expect, test } from "vitest";
import { createPageStore, keepPage, type KeptPage } from "./page-store";

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
