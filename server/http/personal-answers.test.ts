/**
 * No cache but the browser keeps what is someone's (docs/decisions/0083-personal-answers-private.md): every
 * route of app/routes.ts (page, `.data`, resource route) and every GET of the API, asked by a visitor, a
 * visitor in dollars, a signed-in customer (her cookie) and the same customer with a bearer token, through
 * the production application in-process, and each answer's headers read by the rules of RFC 9111.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { BuyGiftCardInput, parseVoucherForm } from "#server/vouchers/voucher.inputs.ts";
import { addGiftCardToCart } from "#server/vouchers/voucher.service.ts";
import { signIn, startInProcessShop, type HttpAnswer, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { concreteRoutes } from "#tests/security/page-routes.ts";

const slow = { timeout: 600_000 };
const customerName = "Anna Esposito";
const customerEmail = "cache.privata@example.it";

let shop: InProcessShop;
let cookie: string;
let token: string;

beforeAll(async () => {
  shop = await startInProcessShop();
  cookie = await signIn(shop, "customer", customerEmail);
  const bearer = await shop.request("/api/auth/sign-in/email", {
    json: { email: customerEmail, password: "Tr3no-Blu-Vesuvio-42" },
    headers: { Origin: shop.publicUrl },
  });
  token = String(bearer.headers["set-auth-token"]);
}, 240_000);

afterAll(async () => {
  await shop?.close();
});

/** Cache-Control's directives, names in lower case; a directive's argument, or true when it has none (RFC 9111 5.2). */
function directivesOf(answer: HttpAnswer): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  for (const part of String(answer.headers["cache-control"] ?? "").split(",")) {
    const [name, ...argument] = part.split("=");
    if (name?.trim()) directives.set(name.trim().toLowerCase(), argument.length > 0 ? argument.join("=").trim().replace(/^"|"$/g, "") : true);
  }
  return directives;
}

/** Status codes a cache may keep without an explicit freshness (RFC 9110 15.1). */
const heuristicallyCacheable = new Set([200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]);

/** Whether a shared cache may store this answer to a GET (RFC 9111 3, and 3.5 for a request with Authorization). */
function sharedCacheMayStore(answer: HttpAnswer, { withAuthorization }: { withAuthorization: boolean }): boolean {
  const directives = directivesOf(answer);
  // A qualified `private="..."` only keeps the fields it names from a shared cache.
  if (directives.has("no-store") || directives.get("private") === true) return false;
  if (withAuthorization && !["public", "s-maxage", "must-revalidate"].some((name) => directives.has(name))) return false;
  const explicit = ["public", "max-age", "s-maxage"].some((name) => directives.has(name)) || answer.headers.expires !== undefined;
  return explicit || heuristicallyCacheable.has(answer.status);
}

/** Whether a cache would look at request header `name` before giving the answer again (RFC 9110 12.5.5). */
function variesBy(answer: HttpAnswer, name: string): boolean {
  const fields = String(answer.headers.vary ?? "")
    .split(",")
    .map((field) => field.trim().toLowerCase());
  return fields.includes("*") || fields.includes(name);
}

const carriesHerData = (answer: HttpAnswer) => answer.body.includes(customerEmail) || answer.body.includes(customerName);
const sameAnswer = (one: HttpAnswer, other: HttpAnswer) => one.status === other.status && one.body === other.body;

const dataUrlOf = (url: string) => (url === "/" ? "/_root.data" : `${url}.data`);

/** One URL per route pattern (page and `.data`), the root's data of a listing, and every GET of the API. */
async function sweptUrls(): Promise<string[]> {
  const byPattern = new Map<string, { url: string; isPage: boolean }>();
  for (const route of await concreteRoutes(shop.handle.db)) if (!byPattern.has(route.pattern)) byPattern.set(route.pattern, route);
  const routeUrls = [...byPattern.values()].flatMap(({ url, isPage }) => (isPage ? [url, dataUrlOf(url)] : [url]));
  const apiGets = apiEndpoints.filter((endpoint) => endpoint.method === "GET").map((endpoint) => endpoint.path);
  return [...routeUrls, "/shop.data?_routes=root", "/en/shop", ...apiGets];
}

function problemsOf(url: string, asked: Record<"visitor" | "inDollars" | "customer" | "bearer", HttpAnswer>): string[] {
  const problems: string[] = [];
  const { visitor } = asked;
  for (const who of ["customer", "bearer"] as const) {
    const answer = asked[who];
    const hers = carriesHerData(answer) && !carriesHerData(visitor);
    if ((hers || !sameAnswer(answer, visitor)) && sharedCacheMayStore(answer, { withAuthorization: who === "bearer" })) {
      problems.push(
        `${url} (${who}, ${answer.status}): hers, and a shared cache may keep it: Cache-Control "${answer.headers["cache-control"] ?? ""}"`,
      );
    }
    if (hers && !directivesOf(answer).has("no-store")) problems.push(`${url} (${who}): her name or e-mail without no-store`);
  }
  if (sharedCacheMayStore(visitor, { withAuthorization: false })) {
    for (const [who, header] of [
      ["customer", "cookie"],
      ["inDollars", "cookie"],
      ["bearer", "authorization"],
    ] as const) {
      if (!sameAnswer(asked[who], visitor) && !variesBy(visitor, header)) {
        problems.push(
          `${url}: a visitor's answer a shared cache may keep, different for ${who}, without Vary: ${header} ("${visitor.headers.vary ?? ""}")`,
        );
      }
    }
  }
  return problems;
}

test(
  "every route and API GET: an answer that depends on who asks is private (no-store with her data); a shared one varies by what it depends on",
  slow,
  async () => {
    const urls = await sweptUrls();
    expect(urls).toContain("/api/getAllinformation");
    const problems: string[] = [];
    let hersSeen = 0;
    for (const url of urls) {
      const visitor = await shop.request(url);
      const asked = {
        visitor,
        inDollars: await shop.request(url, { cookie: "currency=USD" }),
        customer: await shop.request(url, { cookie }),
        bearer: await shop.request(url, { headers: { Authorization: `Bearer ${token}` } }),
      };
      for (const [who, answer] of Object.entries(asked)) expect(answer.status, `${url} (${who}): ${answer.body.slice(0, 200)}`).toBeLessThan(500);
      if (carriesHerData(asked.customer)) hersSeen += 1;
      problems.push(...problemsOf(url, asked));
    }
    expect(problems).toEqual([]);
    // The sweep saw her data where the issue found it: the header's account menu on the catalogue's pages.
    expect(hersSeen, "answers with her name or e-mail").toBeGreaterThan(10);
  },
);

test("the catalogue page and its root data as the issue asked them: hers private and not stored, a visitor's varying by cookie", slow, async () => {
  for (const url of ["/shop", "/shop.data?_routes=root"]) {
    for (const answer of [await shop.request(url, { cookie }), await shop.request(url, { headers: { Authorization: `Bearer ${token}` } })]) {
      expect(answer.status, url).toBe(200);
      expect(answer.body, url).toContain(customerEmail);
      expect(answer.headers["cache-control"], url).toBe("private, no-store");
    }
    const visitor = await shop.request(url);
    expect(visitor.body, url).not.toContain(customerEmail);
    expect(visitor.headers["cache-control"], url).toBeUndefined();
    expect(visitor.headers.vary, url).toMatch(/Cookie/);
    expect(visitor.headers.vary, url).toMatch(/Authorization/);
  }
});

test("her /personal answer counts a gift card in her cart as one line, private and not stored", slow, async () => {
  const parsed = parseVoucherForm(BuyGiftCardInput, { preset: "5000", senderName: "Anna", recipientName: "Giulia", delivery: "print" });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const added = await addGiftCardToCart(shop.handle.db, { cartId: null, input: parsed.input, now: new Date() });
  if (!added.ok) throw new Error(added.error);
  const cartCookie = readCartRequest(new Request(shop.publicUrl), shop.services).cookieHeaders.cart(added.cartId).split(";")[0]!;
  const answer = await shop.request("/personal", { cookie: `${cookie}; ${cartCookie}`, headers: { Accept: "application/json" } });
  expect(answer.status).toBe(200);
  expect(answer.headers["cache-control"]).toBe("private, no-store");
  const part = JSON.parse(answer.body) as { user: { email: string } | null; cart: { count: number; voucherCount: number } };
  expect(part.user?.email).toBe(customerEmail);
  expect(part.cart).toMatchObject({ count: 1, voucherCount: 1 });
});
