/**
 * Visitors' pages kept whole (page-cache.ts), through the production application in-process: a kept page is
 * the renderer's page byte for byte, headers included, on every kept route in both languages and after each
 * kind of change; personal requests, posts and errors are never kept; ETag, 304 and the encodings; and a
 * change seen by a second application on the same database at its next request.
 */
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { adjustStock } from "#server/admin/product-stock.service.ts";
import { connectPostgres } from "#server/db/client.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { isOnPostgres, selectRows, testOnPostgres } from "#tests/db.ts";
import { cookieHeaderOf, signIn, startInProcessShop, type HttpAnswer, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { concreteRoutes, sampleParams } from "#tests/security/page-routes.ts";
import { settleMs } from "#server/catalog/catalogue-cache.ts";
import { isKeptPattern, type PageCache } from "./page-cache";

const slow = { timeout: 240_000 };
/** Through the page cache. */
let shop: InProcessShop;
/** The same database, nothing kept: the renderer's answer. */
let renderer: InProcessShop;
let productId: number;

beforeAll(async () => {
  shop = await startInProcessShop();
  renderer = await startInProcessShop({ database: shop.handle, pageCacheBytes: 0, fillPersonalPages: false });
  productId = Number((await sampleParams(shop.handle.db)).id);
}, 240_000);

afterAll(async () => {
  await renderer?.close();
  await shop?.close();
});

const countsOf = (app: InProcessShop) => (app.app.locals.pageCache as PageCache).counts;

/** The headers a kept page must share with the rendered one (Date and the connection's aside). */
const keptHeaders = ["content-security-policy", "content-type", "cache-control", "vary", "etag", "content-encoding", "x-frame-options"];

function expectSameAnswer(kept: HttpAnswer, rendered: HttpAnswer, where: string) {
  expect(kept.status, where).toBe(rendered.status);
  for (const name of keptHeaders) expect(kept.headers[name], `${where}: ${name}`).toEqual(rendered.headers[name]);
  expect(kept.body === rendered.body, `${where}: the bodies differ`).toBe(true);
}

function expectSameBody(answer: HttpAnswer, rendered: HttpAnswer, where: string) {
  expect([answer.status, answer.body === rendered.body], where).toEqual([rendered.status, true]);
}

/** Kept routes of app/routes.ts, Italian and English, page and `.data`. */
async function keptUrls() {
  const routes = (await concreteRoutes(shop.handle.db)).filter((route) => isKeptPattern(route.pattern));
  const pages = routes.map((route) => route.url);
  const data = routes.filter((route) => route.isPage).map((route) => (route.url === "/" ? "/_.data" : `${route.url}.data`));
  return [...pages, ...data];
}

// The sweep and the clock are the cache's own logic, the same on either database: run on PGlite. PostgreSQL
// runs the changes (its triggers move the versions) and the two processes.
test.skipIf(isOnPostgres)(
  "every kept route, it and en, page and .data: the second answer is the kept one, the same bytes and headers as the first and as a render",
  slow,
  async () => {
    const urls = await keptUrls();
    expect(urls.filter((url) => url.startsWith("/en")).length).toBeGreaterThanOrEqual(16);
    expect(urls).toContain("/en/product/" + productId);
    for (const url of urls) {
      const first = await shop.request(url);
      expect(first.status, `${url}: ${first.body.slice(0, 200)}`).toBe(200);
      const given = countsOf(shop).given;
      const second = await shop.request(url);
      expect(countsOf(shop).given, `${url} given from the store`).toBe(given + 1);
      expectSameAnswer(second, first, url);
      expectSameAnswer(second, await renderer.request(url), `${url} against the renderer`);
      if (String(first.headers["content-type"]).startsWith("text/html")) {
        expect(first.headers["content-security-policy"], url).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
        expect(first.body, url).not.toContain("nonce=");
      }
    }
  },
);

test.skipIf(isOnPostgres)(
  "the route manifest a page's links ask for: kept, the renderer's answer, given to visitors and customers alike",
  slow,
  async () => {
    // The build's version, as the page hands it to the browser's route discovery.
    const page = await shop.request("/shop");
    const version = /"version": "([^"]+)"/.exec(page.body)?.[1];
    expect(version, "the page's inline manifest names the build").toBeTruthy();
    const url = `/__manifest?${new URLSearchParams({ paths: `/,/shop,/product/${productId},/en/about`, version: version ?? "" })}`;
    const first = await shop.request(url);
    expect(first.status, first.body.slice(0, 200)).toBe(200);
    expect(Object.keys(JSON.parse(first.body)), "the routes of the paths asked for").toEqual(expect.arrayContaining(["root"]));
    const given = countsOf(shop).given;
    const second = await shop.request(url);
    expect(countsOf(shop).given, "given from the store").toBe(given + 1);
    expectSameAnswer(second, first, url);
    expectSameAnswer(second, await renderer.request(url), `${url} against the renderer`);

    const session = await signIn(shop, "customer", "paolo.manifest@example.it");
    const asCustomer = await shop.request(url, { cookie: session });
    expect(countsOf(shop).given, "a customer's request given from the store").toBe(given + 2);
    expectSameAnswer(asCustomer, await renderer.request(url, { cookie: session }), `${url} as a customer, against the renderer`);
  },
);

/** Pages that show the sample product, in both languages; in euros, or in dollars (the exchange rate's pages). */
function pagesOfTheProduct(cookie?: string) {
  return [
    `/product/${productId}`,
    `/en/product/${productId}`,
    `/product/${productId}/quick-view`,
    "/shop",
    "/en/shop",
    `/product/${productId}.data`,
  ].map((url) => ({ url, cookie }));
}

/** The app reads the versions (moved or not), then waits until the pages rendered under them are kept (`settleMs`). */
async function settled(app = shop) {
  await app.request("/en/about");
  await new Promise((resolve) => setTimeout(resolve, settleMs + 100));
}

/**
 * Fills the cache with the pages and makes the change. Right after it, each page is the renderer's page
 * (sent, not kept); once settled, each is kept and given again, the renderer's page byte for byte, and at
 * least one differs from before.
 */
async function expectSeenAfter(change: () => Promise<unknown>, what: string, pages = pagesOfTheProduct()) {
  await settled();
  const before = new Map<string, string>();
  for (const { url, cookie } of pages) {
    await shop.request(url, { cookie });
    before.set(`${cookie} ${url}`, (await shop.request(url, { cookie })).body);
  }
  await change();
  for (const { url, cookie } of pages) {
    expectSameBody(await shop.request(url, { cookie }), await renderer.request(url, { cookie }), `${what}, at once: ${url} ${cookie ?? ""}`);
  }
  await settled();
  const given = countsOf(shop).given;
  let changed = 0;
  for (const { url, cookie } of pages) {
    const first = await shop.request(url, { cookie });
    const kept = await shop.request(url, { cookie });
    expectSameAnswer(kept, first, `${what}: ${url} ${cookie ?? ""}`);
    expectSameAnswer(kept, await renderer.request(url, { cookie }), `${what}: ${url} ${cookie ?? ""} against the renderer`);
    if (kept.body !== before.get(`${cookie} ${url}`)) changed += 1;
  }
  expect(countsOf(shop).given - given, `${what}: pages given from the store`).toBeGreaterThanOrEqual(pages.length);
  expect(changed, `${what}: pages that show it`).toBeGreaterThan(0);
}

test("after a change of price, stock, product, setting and exchange rate, the kept page is a fresh render", slow, async () => {
  const { db } = shop.handle;
  await expectSeenAfter(() => db.execute(sql`update products set price_cents = price_cents + 1234 where id = ${productId}`), "a price");
  const variants = await selectRows<{ id: number }>(db, sql`select id from product_variants where product_id = ${productId}`);
  const setStock = (stock: number) => Promise.all(variants.map(({ id }) => setStockTo(db, { variantId: id, stock }, { reason: "test" })));
  await expectSeenAfter(() => setStock(0), "a stock");
  await expectSeenAfter(() => setStock(7), "a stock back");
  await expectSeenAfter(
    () => db.execute(sql`update products set name_it = 'Passeggino Vesuvio', name_en = 'Vesuvius stroller' where id = ${productId}`),
    "a product",
  );
  await expectSeenAfter(
    () => db.execute(sql`update shop_settings set value = jsonb_set(value, '{name}', '"Bimbi Felicissimi"') where key = 'shop'`),
    "a setting",
  );
  await expectSeenAfter(
    () => db.execute(sql`update exchange_rates set rate_per_eur = 1.5 where currency = 'USD'`),
    "an exchange rate",
    pagesOfTheProduct("currency=USD"),
  );
});

test.skipIf(isOnPostgres)("an offer that ends by the clock: the page kept before the end is rendered again after it", slow, async () => {
  const { db } = shop.handle;
  const endsAt = new Date(Date.now() + 10_000);
  await db.execute(sql`update products set discount_percent = 30, offer_ends_at = ${endsAt.toISOString()} where id = ${productId}`);
  await expectSeenAfter(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt.getTime() - Date.now() + 200))), "an offer's end");
});

test("never kept: a session, a cart, another cookie, a post, a HEAD, a 404", slow, async () => {
  const url = `/product/${productId}`;
  const session = await signIn(shop, "customer", "lucia.cache@example.it");
  const [variant] = await selectRows<{ id: number }>(shop.handle.db, sql`select id from product_variants where product_id = ${productId} limit 1`);
  const added = await shop.request("/cart", {
    form: { intent: "add", variantId: String(variant!.id), quantity: "1", redirectTo: "/cart" },
    headers: { Origin: shop.publicUrl },
  });
  const cart = cookieHeaderOf(added);
  expect(cart).toContain("cart=");
  for (const [cookie, what] of [
    [session, "session"],
    [cart, "cart"],
    ["saved_items=x", "saved items"],
    ["currency=USD; _ga=GA1.2.3", "an unknown cookie"],
  ] as const) {
    const counts = { ...countsOf(shop) };
    const answer = await shop.request(url, { cookie });
    // Never a kept page as it is: her page rendered (with a nonce), or a visitor's kept page with her personal
    // regions rendered in (its scripts allowed by hash; page-cache-fill.test.ts compares it with her render).
    expect(countsOf(shop).given, what).toBe(counts.given);
    const filled = countsOf(shop).filled === counts.filled + 1;
    expect(answer.headers["content-security-policy"], what).toMatch(filled ? /'sha256-/ : /'nonce-/);
    expect(answer.headers.etag, what).toBeUndefined();
    // What her request kept, if anything, is a visitor's page: the renderer's page for a visitor.
    const currency = cookie.startsWith("currency=") ? "currency=USD" : undefined;
    expectSameBody(
      await shop.request(url, { cookie: currency }),
      await renderer.request(url, { cookie: currency }),
      `${what}: a visitor's page after it`,
    );
  }
  const counts = { ...countsOf(shop) };
  await shop.request(url, { method: "POST", form: { intent: "nothing" }, headers: { Origin: shop.publicUrl } });
  await shop.request(url, { method: "HEAD" });
  expect(countsOf(shop), "a post and a head").toEqual(counts);

  for (const missing of ["/product/999999", "/categoria/non-esiste", "/en/product/999999.data"]) {
    const rendered = countsOf(shop).rendered;
    const kept = countsOf(shop).kept;
    expect((await shop.request(missing)).status, missing).toBe(404);
    expect((await shop.request(missing)).status, missing).toBe(404);
    expect(countsOf(shop).rendered, missing).toBe(rendered + 2);
    expect(countsOf(shop).kept, missing).toBe(kept);
  }
});

test("ETag and 304; brotli, gzip and identity carry the same page", slow, async () => {
  const url = "/en/shop";
  const identity = await shop.request(url, { headers: { "Accept-Encoding": "identity" } });
  const etag = String(identity.headers.etag);
  expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
  expect(identity.headers.vary).toContain("Accept-Encoding");
  expect(identity.headers["content-encoding"]).toBeUndefined();
  const browser = "gzip, deflate, br, zstd";
  const br = await shop.request(url, { headers: { "Accept-Encoding": browser } });
  expect(br.headers["content-encoding"]).toBe("br");
  expect(zlib.brotliDecompressSync(br.raw).toString("utf8")).toBe(identity.body);
  const gzip = await shop.request(url, { headers: { "Accept-Encoding": "gzip" } });
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(zlib.gunzipSync(gzip.raw).toString("utf8")).toBe(identity.body);
  for (const answer of [br, gzip]) expect(answer.headers.etag).toBe(etag);

  const notModified = await shop.request(url, { headers: { "Accept-Encoding": browser, "If-None-Match": etag } });
  expect(notModified.status).toBe(304);
  expect(notModified.raw.length).toBe(0);
  expect(notModified.headers.etag).toBe(etag);
  expect((await shop.request(url, { headers: { "If-None-Match": 'W/"another"' } })).status).toBe(200);
});

testOnPostgres(
  "two application processes on one PostgreSQL database: a change through one is seen through the other at its next request",
  slow,
  async () => {
    expect(isOnPostgres).toBe(true);
    const [database] = await selectRows<{ name: string }>(shop.handle.db, sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database!.name}`;
    const other = connectPostgres(url.href, 4);
    const second = await startInProcessShop({ database: other });
    try {
      const page = `/en/product/${productId}`;
      for (const app of [shop, second]) {
        await app.request(page);
        await app.request(page);
      }
      const before = (await shop.request(page)).body;
      // A staff change through the second process's connections.
      await other.db.execute(sql`update products set price_cents = price_cents + 777, name_en = 'Vesuvius stroller, second' where id = ${productId}`);
      const seen = await shop.request(page);
      expect(seen.body).not.toBe(before);
      expect(seen.body).toContain("Vesuvius stroller, second");
      // Right after a change a page is sent as rendered, not kept: the same page, without the kept page's ETag.
      expectSameBody(seen, await second.request(page), "both processes");
      expectSameBody(seen, await renderer.request(page), "against the renderer");

      // The back office's stock adjustment, through the second process's services.
      const [variant] = await selectRows<{ id: number; stock: number }>(
        other.db,
        sql`select id, stock from product_variants where product_id = ${productId} limit 1`,
      );
      const adjusted = await adjustStock(second.services.db, {
        productId,
        input: { variantId: variant!.id, delta: 3, reason: "inventario" },
        actorUserId: null,
      });
      expect(adjusted).toMatchObject({ ok: true, stock: variant!.stock + 3 });
      const afterStock = await shop.request(page);
      expect(afterStock.body).not.toBe(seen.body);
      expectSameBody(afterStock, await renderer.request(page), "after the stock adjustment");
      await settled();
      await shop.request(page);
      const given = countsOf(shop).given;
      expectSameAnswer(await shop.request(page), await renderer.request(page), "kept after the stock adjustment");
      expect(countsOf(shop).given).toBe(given + 1);
    } finally {
      await second.close();
      await other.close();
    }
  },
);
