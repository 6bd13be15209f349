/**
 * A customer's page filled in from a visitor's kept one (page-cache.ts, app/lib/personal-fill.server.tsx):
 * through the production application in-process, every kept page route but the product's, Italian and
 * English, for a signed-in customer without a cart, one with a gift list, one with a cart line and a visitor
 * with a cart. A filled
 * page is the renderer's page for that person byte for byte (the renderer's nonces aside); a page whose other
 * parts would differ for her is rendered, not filled.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createGiftList } from "#server/gift-lists/gift-list.service.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { isOnPostgres, selectRows } from "#tests/db.ts";
import { cookieHeaderOf, signIn, startInProcessShop, type HttpAnswer, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { concreteRoutes } from "#tests/security/page-routes.ts";
import { isKeptPattern, type PageCache } from "./page-cache";

const slow = { timeout: 240_000 };
/** Through the page cache, filling customers' pages in. */
let shop: InProcessShop;
/** The same database, nothing kept or filled: the renderer's answer. */
let renderer: InProcessShop;

beforeAll(async () => {
  shop = await startInProcessShop();
  renderer = await startInProcessShop({ database: shop.handle, pageCacheBytes: 0, fillPersonalPages: false });
}, 240_000);

afterAll(async () => {
  await renderer?.close();
  await shop?.close();
});

const countsOf = (app: InProcessShop) => (app.app.locals.pageCache as PageCache).counts;

/** The renderer's page as a kept one is written: no nonce on its scripts. */
const withoutNonces = (html: string) => html.replace(/ nonce="[^"]*"/g, "");

/**
 * The renderer's page for `cookie`, whole: a kept page is rendered whole before it is sent, as a crawler's
 * page is; a person's page streams its loader data after the shell (the same page, in another order).
 */
const renderedWhole = (url: string, cookie: string) =>
  renderer.request(url, { cookie, headers: { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" } });

/** A variant with stock that no card of these pages offers: a cart line that changes only their header. */
async function variantOffThePages(pages: HttpAnswer[]): Promise<number> {
  const offered = new Set(pages.flatMap((page) => [...page.body.matchAll(/name="variantId" value="(\d+)"/g)].map((match) => Number(match[1]))));
  const variants = await selectRows<{ id: number }>(shop.handle.db, sql`select id from product_variants where stock > 5 order by id`);
  const variant = variants.find(({ id }) => !offered.has(id));
  expect(variant).toBeDefined();
  return variant!.id;
}

/**
 * `cookie` with one unit of the variant added to its cart by the form without JavaScript, after the next page
 * showed (and cleared) the flash toast the add left, as a browser's cookies are.
 */
async function addToCart(cookie: string, variantId: number): Promise<string> {
  const jar = new CookieJar().take(cookie ? cookie.split("; ") : []);
  const added = await shop.request("/cart", {
    cookie: jar.header(),
    form: { intent: "add", variantId: String(variantId), quantity: "1", redirectTo: "/cart" },
    headers: { Origin: shop.publicUrl },
  });
  expect(added.status, added.body.slice(0, 200)).toBe(303);
  jar.take(added.setCookies);
  jar.take((await shop.request("/cart", { cookie: jar.header() })).setCookies);
  return jar.header();
}

/** `cookie`, whose owner now has an open gift list: the product page's selector offers it. */
async function withGiftList(cookie: string, email: string): Promise<string> {
  const [user] = await selectRows<{ id: string }>(shop.handle.db, sql`select id from users where email = ${email}`);
  const created = await createGiftList(shop.handle.db, {
    userId: user!.id,
    input: {
      title: "La lista di Bianca",
      type: "nascita",
      eventDate: "2027-03-15",
      celebratedNames: "Bianca",
      shippingAddressId: "collection",
      visibility: "public",
    },
    now: new Date(),
  });
  expect(created.ok).toBe(true);
  return cookie;
}

/** Kept HTML pages, it and en (their loaders read no session: what is personal is in the personal part). */
async function fillableUrls(): Promise<string[]> {
  const routes = await concreteRoutes(shop.handle.db);
  return routes.filter((route) => route.isPage && isKeptPattern(route.pattern)).map((route) => route.url);
}

function expectFilledAsRendered(filled: HttpAnswer, rendered: HttpAnswer, kept: HttpAnswer, where: string) {
  expect(filled.status, where).toBe(rendered.status);
  for (const name of ["content-type", "cache-control"]) expect(filled.headers[name], `${where}: ${name}`).toEqual(rendered.headers[name]);
  // The kept page's policy: its scripts are allowed by hash, and the filled page has the same scripts.
  expect(filled.headers["content-security-policy"], where).toEqual(kept.headers["content-security-policy"]);
  expect(filled.headers.etag, where).toBeUndefined();
  expect(filled.body === withoutNonces(rendered.body), `${where}: the filled page differs from the renderer's`).toBe(true);
}

test.skipIf(isOnPostgres)(
  "a signed-in customer with and without a cart, a visitor with a cart: every fillable page, it and en, is the renderer's page",
  slow,
  async () => {
    const urls = await fillableUrls();
    expect(urls).toContain("/");
    expect(urls).toContain("/en/shop");
    expect(urls.some((url) => url.startsWith("/categoria/"))).toBe(true);
    const keptPages = new Map<string, HttpAnswer>();
    for (const url of urls) keptPages.set(url, await shop.request(url));
    const variantId = await variantOffThePages([...keptPages.values()]);
    const customer = await signIn(shop, "customer", "carla.filled@example.it");
    const people = {
      "a customer without a cart": customer,
      "a customer with a gift list": await withGiftList(await signIn(shop, "customer", "bianca.lists@example.it"), "bianca.lists@example.it"),
      "a customer with a cart line": await addToCart(customer, variantId),
      "a visitor with a cart": await addToCart("", variantId),
    };
    let filledPages = 0;
    for (const url of urls) {
      const kept = keptPages.get(url)!;
      expect(kept.status, url).toBe(200);
      for (const [who, cookie] of Object.entries(people)) {
        const before = countsOf(shop).filled;
        const answer = await shop.request(url, { cookie });
        const rendered = await renderedWhole(url, cookie);
        const wasFilled = countsOf(shop).filled === before + 1;
        if (wasFilled) {
          filledPages += 1;
          expectFilledAsRendered(answer, rendered, kept, `${url}, ${who}`);
        } else {
          const streamed = await renderer.request(url, { cookie });
          expect(withoutNonces(answer.body) === withoutNonces(streamed.body), `${url}, ${who}: rendered`).toBe(true);
        }
      }
    }
    // Every one of them: none of these pages shows the person anywhere but in the header.
    expect(filledPages).toBe(urls.length * Object.keys(people).length);
    // Her name and her cart in the filled header, in English too; the other's list on a product page.
    const productUrl = urls.find((url) => url.startsWith("/en/product/"))!;
    expect((await shop.request(productUrl, { cookie: people["a customer with a gift list"] })).body).toContain("La lista di Bianca");
    const home = await shop.request("/en", { cookie: people["a customer with a cart line"] });
    expect(home.body).toContain("My account (Anna Esposito)");
    expect(home.body).toMatch(/Cart, 1 item/);
  },
);

test("her cart on a card: the page rendered; on the product page's purchase block, a region: filled; a flash toast: rendered", slow, async () => {
  const cookie = await signIn(shop, "customer", "dora.rendered@example.it");
  // A product of the first listing page in her cart: its card's add button asks the cart.
  const listing = await shop.request("/shop");
  const shownVariant = /name="variantId" value="(\d+)"/.exec(listing.body)?.[1];
  expect(shownVariant).toBeDefined();
  const withShownProduct = await addToCart(cookie, Number(shownVariant));
  let filled = countsOf(shop).filled;
  const answer = await shop.request("/shop", { cookie: withShownProduct });
  expect(countsOf(shop).filled).toBe(filled);
  expect(withoutNonces(answer.body)).toBe(withoutNonces((await renderer.request("/shop", { cookie: withShownProduct })).body));

  // Its product page: the count in her cart is in the purchase block, rendered again for her.
  const [product] = await selectRows<{ product_id: number }>(
    shop.handle.db,
    sql`select product_id from product_variants where id = ${Number(shownVariant)}`,
  );
  const productUrl = `/en/product/${product!.product_id}`;
  const kept = await shop.request(productUrl);
  filled = countsOf(shop).filled;
  const productPage = await shop.request(productUrl, { cookie: withShownProduct });
  expect(countsOf(shop).filled, "the product page").toBe(filled + 1);
  expectFilledAsRendered(productPage, await renderedWhole(productUrl, withShownProduct), kept, productUrl);
  expect(productPage.body).toContain("In your cart: 1");

  // A post without JavaScript leaves a flash toast for the next page: shown once, by the renderer.
  const posted = await shop.request("/cart", {
    cookie,
    form: { intent: "add", variantId: String(shownVariant), quantity: "1", redirectTo: "/" },
    headers: { Origin: shop.publicUrl },
  });
  const withFlash = [cookie, cookieHeaderOf(posted)].join("; ");
  await shop.request("/");
  filled = countsOf(shop).filled;
  const home = await shop.request("/", { cookie: withFlash });
  expect(countsOf(shop).filled, "a flash toast").toBe(filled);
  expect(home.setCookies.join(" ")).toMatch(/flash/);
});

test.skipIf(isOnPostgres)("a page no visitor has asked for yet: rendered once as a visitor's, kept, and filled in for her", slow, async () => {
  const cookie = await signIn(shop, "customer", "elena.first@example.it");
  const url = "/en/shop?page=2";
  const before = { ...countsOf(shop) };
  const answer = await shop.request(url, { cookie });
  expect(countsOf(shop)).toEqual({ ...before, rendered: before.rendered + 1, kept: before.kept + 1, filled: before.filled + 1 });
  expectFilledAsRendered(answer, await renderedWhole(url, cookie), await shop.request(url), url);
  // The next visitor is given the page kept then.
  expect(countsOf(shop).given).toBe(before.given + 1);
});

test("a bearer token, a moved clock, the next page's loader data: rendered, never filled", slow, async () => {
  const cookie = await signIn(shop, "customer", "fiora.rendered@example.it");
  await shop.request("/en/shop");
  const filled = countsOf(shop).filled;
  await shop.request("/en/shop", { cookie, headers: { "X-Test-Clock": new Date().toISOString() } });
  await shop.request("/en/shop", { cookie, headers: { Authorization: "Bearer not-a-token" } });
  const data = await shop.request("/en/shop.data", { cookie });
  expect(data.status).toBe(200);
  expect(countsOf(shop).filled).toBe(filled);
});

test.skipIf(isOnPostgres)(
  "a customer browsing past the plans held: her page filled from a new render, the visitor's kept page kept as it was",
  slow,
  async () => {
    // One plan held: a second kept page drops the first one's.
    const browsing = await startInProcessShop({ database: shop.handle, fillPlans: 1 });
    try {
      const cookie = await signIn(browsing, "customer", "greta.browsing@example.it");
      const [url, other] = ["/en/shop?page=3", "/en/shop?page=4"];
      const kept = await browsing.request(url);
      await browsing.request(other);
      const before = { ...countsOf(browsing) };
      const answer = await browsing.request(url, { cookie });
      // Rendered again for its plan only: not kept a second time, and filled as her own page would be.
      expect(countsOf(browsing)).toEqual({ ...before, rendered: before.rendered + 1, filled: before.filled + 1 });
      expectFilledAsRendered(answer, await renderedWhole(url, cookie), kept, url);
      // The plan is held again: her next ask of it renders nothing, and a visitor still gets the page first kept.
      await browsing.request(url, { cookie });
      expect(countsOf(browsing)).toEqual({ ...before, rendered: before.rendered + 1, filled: before.filled + 2 });
      const again = await browsing.request(url);
      expect(again.headers.etag).toBe(kept.headers.etag);
      expect(countsOf(browsing).given).toBe(before.given + 1);
    } finally {
      await browsing.close();
    }
  },
);
