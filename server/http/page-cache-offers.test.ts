/**
 * An offer ending by the clock drops only the kept pages that show its product (decision 0096): its page, the
 * pages of products whose related cards show it, the listings of its category and of offers, home and shop;
 * another product's page, another category's listing and the texts stay kept. Through the production
 * application in-process, on both databases.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { settleMs } from "#server/catalog/catalogue-cache.ts";
import { selectRows } from "#tests/db.ts";
import { startInProcessShop, type InProcessShop } from "#tests/security/in-process-shop.ts";
import type { PageCache } from "./page-cache";
import { nextClockChange, offerScopeOf } from "./page-versions";

const slow = { timeout: 240_000 };
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const givenCount = () => (shop.app.locals.pageCache as PageCache).counts.given;

/** A product shown in another's related cards, a product and a category apart from both, and the first one's category. */
async function pickProducts() {
  const { db } = shop.handle;
  const [pair] = await selectRows<{ shown: number; showing: number }>(
    db,
    sql`select relation.related_product_id as shown, relation.product_id as showing from product_relations relation
        join products showing on showing.id = relation.product_id and showing.is_published
        join products shown on shown.id = relation.related_product_id and shown.is_published
        order by relation.product_id, relation.position limit 1`,
  );
  const { shown, showing } = pair!;
  const [apart] = await selectRows<{ id: number }>(
    db,
    sql`select listing.product_id as id from product_listing listing
        where listing.is_published and listing.product_id not in (${shown}, ${showing})
          and not listing.category_ids && (select category_ids from product_listing where product_id = ${shown})
          and not exists (select 1 from product_relations r where (r.product_id = listing.product_id and r.related_product_id = ${shown})
            or (r.product_id = ${shown} and r.related_product_id = listing.product_id))
        order by listing.product_id limit 1`,
  );
  const [categoryOfShown] = await selectRows<{ slug: string }>(
    db,
    sql`select slug from categories where array[id] <@ (select category_ids from product_listing where product_id = ${shown}) and slug <> 'offerte' limit 1`,
  );
  const [otherCategory] = await selectRows<{ slug: string }>(
    db,
    sql`select slug from categories where slug <> 'offerte' and not array[id] <@ (select category_ids from product_listing where product_id = ${shown}) order by id limit 1`,
  );
  return { shown, showing, apart: apart!.id, categoryOfShown: categoryOfShown!.slug, otherCategory: otherCategory!.slug };
}

test("an offer's end drops the pages that show its product and keeps the others", slow, async () => {
  const { db } = shop.handle;
  const picked = await pickProducts();
  // Long enough for every page to be rendered and kept first on a loaded machine.
  const endsAt = new Date(Date.now() + 25_000);
  await db.execute(sql`update products set discount_percent = 30, offer_ends_at = ${endsAt.toISOString()} where id = ${picked.shown}`);
  const dropped = [
    `/product/${picked.shown}`,
    `/en/product/${picked.shown}`,
    `/product/${picked.shown}.data`,
    `/product/${picked.showing}`,
    `/categoria/${picked.categoryOfShown}`,
    "/categoria/offerte",
    "/shop",
    "/",
  ];
  const kept = [`/product/${picked.apart}`, `/en/product/${picked.apart}`, `/categoria/${picked.otherCategory}`, "/about", "/en/privacy"];
  // The product's change moved the catalogue's version: pages rendered a second later are kept.
  await shop.request("/en/about");
  await sleep(settleMs + 100);
  const before = new Map<string, string>();
  for (const url of [...dropped, ...kept]) {
    await shop.request(url);
    const given = givenCount();
    before.set(url, (await shop.request(url)).body);
    expect(givenCount(), `${url} kept before the end`).toBe(given + 1);
  }
  await sleep(Math.max(0, endsAt.getTime() - Date.now() + 200));

  for (const url of kept) {
    const given = givenCount();
    const answer = await shop.request(url);
    expect(givenCount(), `${url} still given from the store`).toBe(given + 1);
    expect(answer.body === (await renderer.request(url)).body, `${url}: the renderer's page`).toBe(true);
  }
  for (const url of dropped) {
    const given = givenCount();
    const answer = await shop.request(url);
    expect(givenCount(), `${url} rendered again`).toBe(given);
    expect(answer.body === (await renderer.request(url)).body, `${url}: the renderer's page`).toBe(true);
  }
  // The offer's price is gone from its product's page.
  expect((await shop.request(`/product/${picked.shown}`)).body).not.toBe(before.get(`/product/${picked.shown}`));
});

test("each kind of page is kept until the first end of an offer it shows", slow, async () => {
  const { db } = shop.handle;
  const picked = await pickProducts();
  const now = new Date();
  const endsAt = new Date(now.getTime() + 3_600_000);
  await db.execute(sql`update products set discount_percent = 20, offer_ends_at = ${endsAt.toISOString()} where id = ${picked.shown}`);
  const keptUntil = (pattern: string | null, pathname: string) => nextClockChange(db, now, offerScopeOf(pattern, pathname));
  const endsThen = [
    ["en?/product/:id", `/product/${picked.shown}`],
    ["en?/product/:id/quick-view", `/en/product/${picked.shown}/quick-view`],
    ["en?/product/:id", `/product/${picked.showing}.data`],
    ["en?/categoria/:category", `/categoria/${picked.categoryOfShown}`],
    ["en?/categoria/:category", "/en/categoria/offerte"],
    ["en?/shop", "/shop"],
    ["en?", "/"],
  ] as const;
  for (const [pattern, pathname] of endsThen) expect(await keptUntil(pattern, pathname), pathname).toBeLessThanOrEqual(endsAt.getTime());
  const laterThan = [
    ["en?/product/:id", `/product/${picked.apart}`],
    ["en?/categoria/:category", `/categoria/${picked.otherCategory}`],
    ["en?/about", "/about"],
    [null, "/__manifest"],
  ] as const;
  for (const [pattern, pathname] of laterThan) {
    // Another offer of the sample catalogue may end sooner on its own pages, never at this one's end.
    expect(await keptUntil(pattern, pathname), pathname).not.toBe(endsAt.getTime());
  }
  await db.execute(sql`update products set discount_percent = 0, offer_ends_at = null where id = ${picked.shown}`);
});
