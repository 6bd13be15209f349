/**
 * Security headers and the Content-Security-Policy on every route of app/routes.ts (anonymous, and
 * the account and back-office pages signed in), every inline script carrying the answer's nonce, or, on a
 * visitor's page kept for every visitor (server/http/page-cache.ts), listed by its hash;
 * HSTS and upgrade-insecure-requests under https; every cookie the shop sets httpOnly, SameSite,
 * path-wide, and Secure exactly when the shop is served over https.
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { selectRows } from "../db";
import { cookieHeaderOf, logIn, signIn, startInProcessShop, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import { concreteRoutes, type ConcreteRoute } from "./page-routes";
import { isKeptPattern } from "#server/http/page-cache.ts";

const slow = { timeout: 240_000 };
let shop: InProcessShop;
let routes: ConcreteRoute[];

beforeAll(async () => {
  shop = await startInProcessShop();
  routes = await concreteRoutes(shop.handle.db);
}, 240_000);

afterAll(async () => {
  await shop?.close();
});

/** The headers every answer carries; for HTML, every script is the page's own, nonced or allowed by its hash. */
function expectSecured(answer: HttpAnswer, where: string) {
  expect(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  expect(answer.headers["x-content-type-options"], where).toBe("nosniff");
  expect(answer.headers["x-frame-options"], where).toBe("DENY");
  expect(answer.headers["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
  expect(answer.headers["cross-origin-opener-policy"], where).toBe("same-origin");
  expect(answer.headers["permissions-policy"], where).toContain("camera=()");
  const csp = String(answer.headers["content-security-policy"] ?? "");
  const directives = new Map(
    csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
  expect(directives.get("default-src"), where).toEqual(["'self'"]);
  expect(directives.get("object-src"), where).toEqual(["'none'"]);
  expect(directives.get("frame-ancestors"), where).toEqual(["'none'"]);
  expect(directives.get("base-uri"), where).toEqual(["'self'"]);
  const scriptSources = directives.get("script-src") ?? [];
  expect(scriptSources, where).not.toContain("'unsafe-inline'");
  expect(scriptSources, where).not.toContain("'unsafe-eval'");
  const nonce = /^'nonce-(.+)'$/.exec(scriptSources.find((source) => source.startsWith("'nonce-")) ?? "")?.[1];
  const hashes = scriptSources.filter((source) => source.startsWith("'sha256-"));
  // A kept page lists hashes (none when it has no inline script) and every other answer has a nonce; never both.
  expect(nonce !== undefined && hashes.length > 0, `${where}: a nonce and hashes: ${csp}`).toBe(false);
  if (!String(answer.headers["content-type"]).startsWith("text/html")) return;
  for (const [, tag, content] of answer.body.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)) {
    // JSON-LD and the page's personal part are data, never run: CSP does not apply to them (their escaping is
    // the injection suite's).
    if (/type="application\/(ld\+)?json"/.test(tag!)) continue;
    const external = /\ssrc="\/[^/]/.test(tag!);
    const hash = `'sha256-${crypto.createHash("sha256").update(content!, "utf8").digest("base64")}'`;
    const allowed = nonce ? tag!.includes(`nonce="${nonce}"`) : hashes.includes(hash);
    expect(external || allowed, `${where}: ${tag}`).toBe(true);
  }
  expect(answer.body, `${where}: inline event handler`).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
}

test("every route of app/routes.ts answers with the security headers and a nonce or hash CSP, anonymous", slow, async () => {
  expect(routes.length).toBeGreaterThan(80);
  for (const route of routes) {
    const answer = await shop.request(route.url);
    expectSecured(answer, `GET ${route.url}`);
    const csp = String(answer.headers["content-security-policy"]);
    const isHtml = String(answer.headers["content-type"]).startsWith("text/html");
    // An answer that is no page (her /personal JSON, answered before React Router) may allow no inline script at all.
    if (!isKeptPattern(route.pattern)) expect(csp, `GET ${route.url}`).toMatch(isHtml ? /'nonce-/ : /'nonce-|script-src 'self'(;|$)/);
    else if (answer.status === 200 && isHtml) expect(csp, `GET ${route.url}`).toContain("'sha256-");
  }
});

test("an answer that is no page (the health check) carries the headers and runs no inline script at all", async () => {
  const answer = await shop.request("/healthz");
  expectSecured(answer, "GET /healthz");
  expect(String(answer.headers["content-security-policy"])).toMatch(/(^|; )script-src 'self'(;|$)/);
});

test("the account and back-office pages signed in, as their owners see them: the same headers, scripts nonced", slow, async () => {
  const admin = await signIn(shop, "admin", "carla.admin@bimbifelici.test");
  const customer = await signIn(shop, "customer", "anna.cliente@example.it");
  const signedInRoutes = routes.filter((route) => /\/(admin|my-account|shopping|crea-lista-nascita)/.test(route.url));
  expect(signedInRoutes.length).toBeGreaterThan(15);
  for (const route of signedInRoutes) {
    const cookie = route.url.includes("/admin") ? admin : customer;
    const answer = await shop.request(route.url, { cookie });
    expectSecured(answer, `GET ${route.url} signed in`);
    expect(answer.headers["content-security-policy"], `GET ${route.url} signed in`).toContain("'nonce-");
    if (route.isPage && !route.url.includes(":")) expect(answer.status, route.url).not.toBe(401);
  }
});

/** What each Set-Cookie says, by name. */
function cookieAttributes(answers: HttpAnswer[]) {
  const found = new Map<string, string[]>();
  for (const answer of answers) {
    for (const cookie of answer.setCookies) {
      const [pair = "", ...attributes] = cookie.split(";").map((part) => part.trim());
      found.set(
        pair.slice(0, pair.indexOf("=")),
        attributes.map((attribute) => attribute.toLowerCase()),
      );
    }
  }
  return found;
}

/** A visitor's round: currency, cart, registration and login; every answer's cookies. */
async function cookiesOfAVisit(target: InProcessShop, email: string) {
  const origin = { Origin: target.publicUrl };
  const [variant] = await selectRows<{ id: number }>(
    target.handle.db,
    sql`select v.id from product_variants v join products p on p.id = v.product_id where p.is_published and not p.is_on_request and p.personalisation_fields is null and v.stock > 0 order by v.id limit 1`,
  );
  const answers: HttpAnswer[] = [];
  answers.push(await target.request("/currency", { form: { currency: "USD", redirectTo: "/" }, headers: origin }));
  answers.push(
    await target.request("/cart", { form: { intent: "add", variantId: String(variant!.id), quantity: "1", redirectTo: "/cart" }, headers: origin }),
  );
  answers.push(await target.request("/cart", { cookie: cookieHeaderOf(...answers) }));
  await signIn(target, "customer", email);
  answers.push(await logIn(target, email));
  return answers;
}

describe("cookies", () => {
  test("over http (a local shop): every cookie httpOnly, SameSite=Lax or Strict, Path=/, not Secure", slow, async () => {
    const answers = await cookiesOfAVisit(shop, "bruno.cookie@example.it");
    const cookies = cookieAttributes(answers);
    expect(cookies.size).toBeGreaterThanOrEqual(3);
    for (const [name, attributes] of cookies) {
      // `pv` is read by the shop's scripts: a random version of the browser's copy of her part, no secret (decision 0095).
      if (name !== "pv") expect(attributes, name).toContain("httponly");
      expect(
        attributes.some((attribute) => attribute === "samesite=lax" || attribute === "samesite=strict"),
        `${name}: ${attributes.join("; ")}`,
      ).toBe(true);
      expect(attributes, name).toContain("path=/");
      expect(attributes, name).not.toContain("secure");
    }
  });

  test("over https: every cookie also Secure, HSTS sent, insecure requests upgraded", slow, async () => {
    const secureShop = await startInProcessShop({ publicUrl: "https://shop.test" });
    try {
      const home = await secureShop.request("/");
      expectSecured(home, "GET / over https");
      expect(home.headers["strict-transport-security"]).toMatch(/max-age=\d{7,}/);
      expect(String(home.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
      const answers = await cookiesOfAVisit(secureShop, "carla.cookie@example.it");
      for (const [name, attributes] of cookieAttributes(answers)) {
        expect(attributes, name).toContain("secure");
        if (name !== "pv") expect(attributes, name).toContain("httponly");
      }
    } finally {
      await secureShop.close();
    }
  });
});
