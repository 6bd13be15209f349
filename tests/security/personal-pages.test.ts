/**
 * What a cache may keep and where a form may send the browser: every route of app/routes.ts that is not
 * the catalogue or a fixed text answers `no-store` (page and `.data`), signed in as its owner; the login's
 * way back stays on the shop whatever normalisation trick it carries; a throttled login says when to retry.
 */
import { expect, test } from "vitest";
import { sharedPagePatterns } from "#server/http/page-caching.ts";
import { logIn, useShopWithVisitors, type ShopWithVisitors } from "./in-process-shop";

const slow = { timeout: 240_000 };
let visitors: ShopWithVisitors;
useShopWithVisitors((started) => (visitors = started));

/** The pages the issue names as personal: none of them may ever join the shared list. */
const personal =
  /^en\?\/(my-account|shopping|checkout|cart|basket|ordine|wishlist|compare|crea-lista-nascita|lista-nascita\/:codice|admin|login-register|forgot-password|reset-password|verify-email|pagamento-di-prova)/;
/** Resource routes that say themselves how long they may be kept (public documents). */
const ownCaching = /^(robots\.txt|sitemap\.xml|api\/openapi\.json)$/;

const dataUrlOf = (url: string) => (url === "/" ? "/_root.data" : `${url}.data`);

test("every personal page and its .data answer Cache-Control: no-store, to its owner", slow, async () => {
  const { shop, routes, admin, customer } = visitors;
  expect([...sharedPagePatterns].filter((pattern) => personal.test(pattern))).toEqual([]);
  const checked = new Set<string>();
  for (const route of routes) {
    if (sharedPagePatterns.has(route.pattern) || ownCaching.test(route.pattern)) continue;
    const cookie = route.pattern.startsWith("en?/admin") ? admin : customer;
    for (const url of route.isPage ? [route.url, dataUrlOf(route.url)] : [route.url]) {
      const answer = await shop.request(url, { cookie });
      expect(answer.status, `GET ${url}`).toBeLessThan(500);
      expect(answer.headers["cache-control"], `GET ${url} (${answer.status})`).toContain("no-store");
    }
    checked.add(route.pattern);
  }
  for (const pattern of [
    "en?/my-account",
    "en?/shopping",
    "en?/checkout",
    "en?/cart",
    "en?/ordine/:orderId",
    "en?/wishlist",
    "en?/compare",
    "en?/admin",
    "en?/login-register",
  ]) {
    expect(checked, pattern).toContain(pattern);
  }
});

test("the signed-in pages really are the owner's, and a refused post is not stored either", slow, async () => {
  const { shop, customer } = visitors;
  const account = await shop.request("/my-account", { cookie: customer });
  expect(account.status).toBe(200);
  expect(account.body).toContain("anna.cliente@example.it");
  expect(account.headers["cache-control"]).toContain("no-store");
  const refused = await shop.request("/checkout", { cookie: customer, form: { intent: "place" }, headers: { Origin: shop.publicUrl } });
  expect(refused.headers["cache-control"]).toContain("no-store");
});

test("catalogue pages keep the browser's ordinary caching", slow, async () => {
  const { shop } = visitors;
  for (const url of ["/", "/en/shop", "/product/24"]) {
    const answer = await shop.request(url);
    expect(answer.status, url).toBe(200);
    expect(answer.headers["cache-control"] ?? "", url).not.toContain("no-store");
  }
});

test("after a login whose way back hides another host, the browser stays on the shop", slow, async () => {
  const { shop } = visitors;
  // The login page as the defect report opened it: the form's hidden field keeps no foreign way back.
  const page = await shop.request("/login-register?redirectTo=%2F.%2F%2Fevil.example%2Fx");
  expect(page.status).toBe(200);
  expect(page.body).toContain('name="redirectTo" value="/my-account"');
  expect(page.body).not.toMatch(/name="redirectTo" value="(\/\.\/|\/\/)/);
  for (const redirectTo of ["/.//evil.example/x", "/%2e//evil.example/x", "/\\evil.example", "//evil.example", "/%09/evil.example"]) {
    const login = await shop.request("/login-register", {
      form: { intent: "login", email: "anna.cliente@example.it", password: "Tr3no-Blu-Vesuvio-42", redirectTo },
      headers: { Origin: shop.publicUrl },
    });
    expect(login.status, redirectTo).toBe(302);
    expect(new URL(login.location!, shop.publicUrl).host, `${redirectTo} -> ${login.location}`).toBe(new URL(shop.publicUrl).host);
    expect(login.location, redirectTo).toBe("/my-account");
  }
  // A same-site way back is still honoured.
  const back = await shop.request("/login-register", {
    form: { intent: "login", email: "anna.cliente@example.it", password: "Tr3no-Blu-Vesuvio-42", redirectTo: "/en/cart?x=1" },
    headers: { Origin: shop.publicUrl },
  });
  expect(back.location).toBe("/en/cart?x=1");
});

test("the cart, currency and wishlist posts send no-JavaScript visitors back only to the shop", slow, async () => {
  const { shop } = visitors;
  const posts: [string, Record<string, string>][] = [
    ["/currency", { currency: "USD" }],
    ["/currency", { currency: "XYZ" }],
    ["/cart", { intent: "clear" }],
    ["/cart", { intent: "add", variantId: "x" }],
    ["/wishlist", { intent: "clear" }],
    ["/compare", { intent: "clear" }],
  ];
  for (const [url, form] of posts) {
    const answer = await shop.request(url, { form: { ...form, redirectTo: "/.//evil.example/x" }, headers: { Origin: shop.publicUrl } });
    expect(answer.status, url).toBeLessThan(400);
    // Sent back (to a page of the shop) or answered in place: never to the other host.
    if (answer.location) expect(new URL(answer.location, shop.publicUrl).host, `${url} -> ${answer.location}`).toBe(new URL(shop.publicUrl).host);
    expect(answer.location ?? "", url).not.toContain("evil");
  }
});

test("a throttled login answers 429 with Retry-After in seconds, on the page and on the auth endpoint", slow, async () => {
  const { shop } = visitors;
  const email = "tentativi.ripetuti@example.it";
  let page = await logIn(shop, email, "password-sbagliata-1");
  for (let attempt = 0; attempt < 6 && page.status !== 429; attempt++) page = await logIn(shop, email, "password-sbagliata-1");
  expect(page.status).toBe(429);
  expect(page.body).toContain("Troppi tentativi: riprova tra un minuto.");
  const seconds = Number(page.headers["retry-after"]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(60);
  const api = await shop.request("/api/auth/sign-in/email", {
    json: { email, password: "password-sbagliata-1" },
    headers: { Origin: shop.publicUrl },
  });
  expect(api.status).toBe(429);
  expect(Number(api.headers["retry-after"])).toBeGreaterThan(0);
});
