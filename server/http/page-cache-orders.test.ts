/**
 * An order drops only the kept pages it changed (docs/decisions/0093-orders-drop-their-pages.md), through the
 * production application in-process: the bought product's pages are rendered afresh, the listings showing it
 * stay kept while no variant sells out or comes back, and every page is rendered afresh when one does.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { addToCart } from "#server/cart/cart.service.ts";
import { placeOrder } from "#server/checkout/checkout.service.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { checkoutInput, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { selectRows } from "#tests/db.ts";
import { startInProcessShop, type HttpAnswer, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { settleMs } from "#server/catalog/catalogue-cache.ts";
import type { PageCache } from "./page-cache";

const slow = { timeout: 240_000 };
/** Through the page cache. */
let shop: InProcessShop;
/** The same database, nothing kept: the renderer's answer. */
let renderer: InProcessShop;

beforeAll(async () => {
  shop = await startInProcessShop();
  renderer = await startInProcessShop({ database: shop.handle, pageCacheBytes: 0, fillPersonalPages: false });
}, 240_000);

afterAll(async () => {
  await renderer?.close();
  await shop?.close();
});

const countsOf = () => ({ ...(shop.app.locals.pageCache as PageCache).counts });

function expectSameBody(answer: HttpAnswer, rendered: HttpAnswer, where: string) {
  expect([answer.status, answer.body === rendered.body], where).toEqual([rendered.status, true]);
}

/** Two products the listing shows, each with its variants set to `stocks` (one figure per variant, in id order). */
async function productsOnTheListing(listing: string) {
  const body = (await shop.request(listing)).body;
  const ids = [...new Set([...body.matchAll(/href="\/product\/(\d+)"/g)].map((match) => Number(match[1])))];
  expect(ids.length, "products on the listing").toBeGreaterThanOrEqual(2);
  return ids;
}

async function setStocks(productId: number, stocks: number[]) {
  const variants = await selectRows<{ id: number }>(shop.handle.db, sql`select id from product_variants where product_id = ${productId} order by id`);
  for (const [index, variant] of variants.entries()) {
    await setStockTo(shop.handle.db, { variantId: variant.id, stock: stocks[index] ?? 0 }, { reason: "test" });
  }
  return variants.map((variant) => variant.id);
}

/** A guest's order of `quantity` units of the variant, placed as the checkout places it. */
async function orderOf(variantId: number, quantity: number) {
  const added = await addToCart(shop.handle.db, { cartId: null, variantId, quantity, personalisation: {} });
  expect(added.ok, "added to the cart").toBe(true);
  if (!added.ok) return;
  const placed = await placeOrder(shop.handle.db, {
    cartId: added.cartId,
    userId: null,
    locale: "it",
    input: checkoutInput({ paymentMethod: "bank_transfer" }),
    now: new Date(),
    publicUrl: testPublicUrl,
    secret: testSecret,
  });
  expect(placed.ok, "order placed").toBe(true);
}

/** The app sees the changes made so far, then waits until the pages rendered under them are kept. */
async function settled() {
  await shop.request("/en/about");
  await new Promise((resolve) => setTimeout(resolve, settleMs + 100));
  await shop.request("/en/about");
}

/** Each page asked twice: the second is the kept one. */
async function keep(urls: string[]) {
  for (const url of urls) {
    await shop.request(url);
    await shop.request(url);
  }
}

test("an order that leaves the product available: its pages are rendered afresh, the listings showing it stay kept", slow, async () => {
  const listings = ["/shop", "/en/shop"];
  const [productId, other] = await productsOnTheListing("/shop");
  const [variantId] = await setStocks(productId!, [7, 3]);
  await setStocks(other!, [4]);
  await settled();
  const productPages = [`/product/${productId}`, `/en/product/${productId}`, `/product/${productId}.data`];
  const otherPage = `/product/${other}`;
  await keep([...listings, ...productPages, otherPage]);
  const listingsBefore = await Promise.all(listings.map(async (url) => (await shop.request(url)).body));

  await orderOf(variantId!, 1);

  for (const url of productPages) {
    const before = countsOf();
    const answer = await shop.request(url);
    expect(countsOf().given, `${url}: not the kept page`).toBe(before.given);
    expectSameBody(answer, await renderer.request(url), `${url} after the order`);
  }
  for (const [index, url] of listings.entries()) {
    const before = countsOf();
    const answer = await shop.request(url);
    expect(countsOf(), `${url}: given from the store`).toEqual({ ...before, given: before.given + 1 });
    expect(answer.body === listingsBefore[index], `${url}: the kept listing`).toBe(true);
  }
  const before = countsOf();
  await shop.request(otherPage);
  expect(countsOf().given, "another product's page stays kept").toBe(before.given + 1);
});

test("an order that sells the product out: its pages and the listings showing it are rendered afresh", slow, async () => {
  const listings = ["/shop", "/en/shop"];
  const [productId] = await productsOnTheListing("/shop");
  const [variantId] = await setStocks(productId!, [2]);
  await settled();
  const pages = [`/product/${productId}`, `/en/product/${productId}`, ...listings];
  await keep(pages);

  await orderOf(variantId!, 2);

  for (const url of pages) {
    const before = countsOf();
    const answer = await shop.request(url);
    expect(countsOf().given, `${url}: not the kept page`).toBe(before.given);
    expectSameBody(answer, await renderer.request(url), `${url} after the sell-out`);
  }
  await settled();
  // Kept again from the next request on.
  await keep(pages);
  for (const url of pages) {
    const before = countsOf();
    expectSameBody(await shop.request(url), await renderer.request(url), `${url} kept again`);
    expect(countsOf().given, `${url}: given from the store`).toBe(before.given + 1);
  }
});

test("an order of a bundle's part renders the bundle's pages afresh (decision 0100)", slow, async () => {
  // The sample trio (300): a stroller (24), a carrycot (37) and a car seat (121), black or blue.
  const parts = [24, 37, 121];
  const [strollerBlack] = await setStocks(parts[0]!, [7, 7]);
  for (const part of parts.slice(1)) await setStocks(part, [7, 7]);
  await settled();
  const bundlePages = ["/product/300", "/en/product/300"];
  await keep(bundlePages);

  await orderOf(strollerBlack!, 1);

  for (const url of bundlePages) {
    const before = countsOf();
    const answer = await shop.request(url);
    expect(countsOf().given, `${url}: not the kept page`).toBe(before.given);
    expectSameBody(answer, await renderer.request(url), `${url} after the part's order`);
  }
});
