/**
 * A signed-in customer whose browser runs the shop's scripts (the `js` cookie, decision 0095): her documents and
 * `.data` are the visitors' kept answers, nothing of hers in them, and her personal part is a small private answer
 * of its own (`/personal`). Without the cookie her page is still filled in for her (no JavaScript).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createGiftList } from "#server/gift-lists/gift-list.service.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { selectRows } from "#tests/db.ts";
import { signIn, startInProcessShop, type InProcessShop } from "#tests/security/in-process-shop.ts";
import type { PageCache } from "./page-cache";

const slow = { timeout: 240_000 };
let shop: InProcessShop;
/** Her session with a cart line and a gift list, as the browser keeps it. */
let her: CookieJar;
let variantId: number;
const email = "giulia.scripts@example.it";

beforeAll(async () => {
  shop = await startInProcessShop();
  her = new CookieJar().take((await signIn(shop, "customer", email)).split("; ").map((pair) => pair));
  const [user] = await selectRows<{ id: string }>(shop.handle.db, sql`select id from users where email = ${email}`);
  const created = await createGiftList(shop.handle.db, {
    userId: user!.id,
    input: {
      title: "La lista di Giulia",
      type: "nascita",
      eventDate: "2027-03-15",
      celebratedNames: "Giulia",
      shippingAddressId: "collection",
      visibility: "public",
    },
    now: new Date(),
  });
  expect(created.ok).toBe(true);
  const [variant] = await selectRows<{ id: number }>(shop.handle.db, sql`select id from product_variants where product_id = 47 order by id limit 1`);
  variantId = variant!.id;
  const added = await shop.request("/cart", {
    cookie: her.header(),
    form: { intent: "add", variantId: String(variantId), quantity: "1", redirectTo: "/cart" },
    headers: { Origin: shop.publicUrl },
  });
  expect(added.status).toBe(303);
  her.take(added.setCookies);
  // The page after the post shows (and clears) its flash toast, as a browser's does.
  her.take((await shop.request("/cart", { cookie: her.header() })).setCookies);
}, 240_000);

afterAll(async () => {
  await shop?.close();
});

const countsOf = () => (shop.app.locals.pageCache as PageCache).counts;

test("with the js cookie her product page, listing and .data are the visitors' kept answers, with nothing of hers", slow, async () => {
  for (const url of ["/product/47", "/en/product/47", "/shop", "/product/47.data", "/en/shop.data"]) {
    const visitor = await shop.request(url, { cookie: "js=1" });
    expect(visitor.status, url).toBe(200);
    const given = countsOf().given;
    const rendered = countsOf().rendered;
    const hers = await shop.request(url, { cookie: `${her.header()}; js=1` });
    expect(hers.status, url).toBe(200);
    expect(hers.body, url).toBe(visitor.body);
    expect(hers.headers.etag, url).toBe(visitor.headers.etag);
    expect(countsOf().given, url).toBe(given + 1);
    expect(countsOf().rendered, url).toBe(rendered);
    expect(hers.body, url).not.toContain("Anna Esposito");
    expect(hers.body, url).not.toContain("La lista di Giulia");
    // Given to someone who says who she is: never kept by a shared cache.
    expect(hers.headers["cache-control"], url).toBe("private, no-store");
  }
});

test("without the js cookie her page is still filled in for her", slow, async () => {
  await shop.request("/product/47");
  const hers = await shop.request("/product/47", { cookie: her.header() });
  expect(hers.status).toBe(200);
  expect(hers.body).toContain("Anna Esposito");
  expect(hers.body).toContain("La lista di Giulia");
});

test("her personal part is a small private JSON answer: her name, her cart line, her gift list", slow, async () => {
  const answer = await shop.request("/en/personal", { cookie: `${her.header()}; js=1` });
  expect(answer.status).toBe(200);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(answer.headers["cache-control"]).toBe("private, no-store");
  const part = JSON.parse(answer.body) as {
    user: { name: string } | null;
    cart: { count: number; lines: { variantId: number; quantity: number }[] };
    giftListChoices: { title: string }[] | null;
  };
  expect(part.user?.name).toBe("Anna Esposito");
  expect(part.cart.lines.map((line) => [line.variantId, line.quantity])).toEqual([[variantId, 1]]);
  expect(part.giftListChoices?.map((list) => list.title)).toEqual(["La lista di Giulia"]);
  expect(answer.body.length).toBeLessThan(8_000);
  // Its own answer sets no new version of the part (it would be fetched again and again).
  expect(answer.setCookies.some((cookie) => cookie.startsWith("pv="))).toBe(false);

  const visitor = await shop.request("/personal");
  expect(visitor.headers["cache-control"]).toBe("private, no-store");
  expect((JSON.parse(visitor.body) as { user: unknown }).user).toBeNull();
});

test("a post gives a new version of her part; a visitor with only the js and pv cookies is still a visitor", slow, async () => {
  const posted = await shop.request("/cart", {
    cookie: her.header(),
    form: { intent: "add", variantId: String(variantId), quantity: "1", redirectTo: "/cart" },
    headers: { Origin: shop.publicUrl },
  });
  expect(posted.setCookies.filter((cookie) => cookie.startsWith("pv="))).toHaveLength(1);
  const visitor = await shop.request("/product/47", { cookie: "js=1; pv=abc" });
  expect(visitor.headers["cache-control"] ?? "").not.toMatch(/private/);
  expect(visitor.headers.vary).toMatch(/Cookie/);
});
