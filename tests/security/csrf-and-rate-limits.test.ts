/**
 * Cross-site requests and guessing, through the whole application over HTTP:
 * - every route with an action (app/routes.ts) and every cookie-authenticated POST of the API
 *   (server/http/api/api-registry.ts), posted from another site with a signed-in visitor's cookies, is
 *   refused (400/403) and changes nothing in the database; the visitor stays signed in. The shop's
 *   rule is the Origin (and Sec-Fetch-Site) of the request, with SameSite=Lax cookies behind it:
 *   there is no form token (docs/decisions/0024-load-faults-and-attacks.md).
 * - login, gift-list code lookups and the contact form are rate-limited per account or address.
 */
import { sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import messagesIt from "#messages/it.json";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import { selectRows } from "../db";
import { logIn, signIn, useShopWithVisitors, type InProcessShop } from "./in-process-shop";
import type { ConcreteRoute } from "./page-routes";

const slow = { timeout: 240_000 };
const evil = "https://shop-test.evil.example";
let shop: InProcessShop;
let routes: ConcreteRoute[];
let admin: string;
let customer: string;

useShopWithVisitors((started) => ({ shop, routes, admin, customer } = started));

/** Whether `text` is shown on the page (an element's content), not merely among the messages the page ships for the browser. */
const shows = (body: string, text: string) => body.includes(`>${text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;")}<`);

/**
 * A fingerprint of every table's rows. `rate_limits` is left out: better-auth counts every request
 * to /api/auth, refused ones too (that is its job).
 */
async function databaseFingerprint(): Promise<Record<string, string>> {
  const tables = await selectRows<{ name: string }>(
    shop.handle.db,
    sql`select tablename as name from pg_tables where schemaname = 'public' and tablename <> 'rate_limits' order by 1`,
  );
  const prints: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await selectRows<{ print: string | null }>(
      shop.handle.db,
      sql.raw(`select md5(string_agg(t::text, '|' order by t::text)) as print from "${name}" t`),
    );
    prints[name] = row?.print ?? "empty";
  }
  return prints;
}

/** A form that would do something real on each kind of page, so the refusal is the only thing stopping it. */
function plausibleForm(route: ConcreteRoute): Record<string, string> {
  return {
    intent: route.url.includes("cart") ? "clear" : route.url.includes("admin") ? "save" : "delete-account",
    currency: "USD",
    name: "Mallory",
    email: "mallory@evil.example",
    message: "Messaggio inviato da un altro sito.",
    subject: "CSRF",
    privacy: "on",
    redirectTo: "/",
  };
}

test("every route with an action, posted from another site with the visitor's cookies: refused, nothing changed, still signed in", slow, async () => {
  const targets = routes.filter((route) => route.hasAction && !route.url.startsWith("/api/"));
  expect(targets.length).toBeGreaterThan(20);
  // Each refusal is logged as a warning (app/entry.server.tsx): expected here, by the hundred.
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const before = await databaseFingerprint();
  const refusals: string[] = [];
  for (const route of targets) {
    const cookie = route.url.includes("/admin") ? admin : customer;
    const foreign: Record<string, string>[] = [{ Origin: evil }, { Origin: evil, "Sec-Fetch-Site": "cross-site" }, { Origin: "null" }];
    for (const headers of foreign) {
      const answer = await shop.request(route.url, { form: plausibleForm(route), cookie, headers });
      if (answer.status !== 400 && answer.status !== 403) refusals.push(`${route.url} ${JSON.stringify(headers)}: ${answer.status}`);
    }
    // React Router's data requests (fetchers, JavaScript navigations) take the same rule.
    if (route.isPage) {
      const data = await shop.request(`${route.url === "/" ? "/_root" : route.url}.data`, {
        form: plausibleForm(route),
        cookie,
        headers: { Origin: evil },
      });
      if (data.status !== 400 && data.status !== 403) refusals.push(`${route.url}.data: ${data.status}`);
    }
  }
  expect(refusals).toEqual([]);
  expect(await databaseFingerprint()).toEqual(before);
  expect((await shop.request("/my-account", { cookie: customer })).status).toBe(200);
  expect((await shop.request("/admin", { cookie: admin })).status).toBe(200);
});

test("the same posts from the shop's own pages go through: the refusals above are the origin's", slow, async () => {
  const own = { Origin: shop.publicUrl };
  expect((await shop.request("/currency", { form: { currency: "USD", redirectTo: "/" }, headers: own })).status).toBe(303);
  expect((await shop.request("/cart", { form: { intent: "clear", redirectTo: "/cart" }, headers: own, cookie: customer })).status).toBe(303);
  const leaving = await signIn(shop, "customer", "dario.logout@example.it");
  expect((await shop.request("/logout", { form: {}, headers: own, cookie: leaving })).status).toBe(302);
  expect((await shop.request("/my-account", { cookie: leaving })).status).toBe(401);
});

test("every cookie-authenticated API call that changes something, from another site: 403 cross-site-request, nothing changed", slow, async () => {
  const targets = apiEndpoints.filter((endpoint) => endpoint.method === "POST" && endpoint.auth === "user");
  expect(targets.length).toBeGreaterThan(5);
  const before = await databaseFingerprint();
  for (const endpoint of targets) {
    const foreign: Record<string, string>[] = [{ Origin: evil }, { "Sec-Fetch-Site": "cross-site" }, {}];
    for (const headers of foreign) {
      const answer = await shop.request(endpoint.path, { json: {}, cookie: customer, headers });
      expect(answer.status, `${endpoint.path} ${JSON.stringify(headers)}`).toBe(403);
      expect(JSON.parse(answer.body).error.code).toBe("cross-site-request");
    }
  }
  // better-auth's open endpoints check the Origin against the shop's address; the others are closed.
  const signOut = await shop.request("/api/auth/sign-out", { json: {}, cookie: customer, headers: { Origin: evil } });
  expect(signOut.status).toBe(403);
  for (const path of ["/api/auth/update-user", "/api/auth/delete-user"]) {
    const answer = await shop.request(path, { json: { name: "Mallory" }, cookie: customer, headers: { Origin: evil } });
    expect(answer.status, path).toBe(404);
  }
  expect(await databaseFingerprint()).toEqual(before);
  expect((await shop.request("/my-account", { cookie: customer })).status).toBe(200);
});

describe("rate limits", () => {
  test("login: the 6th wrong password for one account within a minute is refused, even from another address", slow, async () => {
    await signIn(shop, "customer", "bruno.rate@example.it");
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await logIn(shop, "bruno.rate@example.it", `Sbagliata-${attempt}-Vesuvio`);
      expect(wrong.status, `attempt ${attempt}`).toBe(400);
    }
    const sixth = await shop.request("/login-register", {
      form: { intent: "login", email: "bruno.rate@example.it", password: "Sbagliata-6-Vesuvio" },
      headers: { Origin: shop.publicUrl },
      clientIp: "198.51.100.77",
    });
    expect(sixth.status).toBe(429);
    expect(shows(sixth.body, messagesIt.auth.errors.tooManyAttempts)).toBe(true);
  });

  test("gift-list codes: past 20 wrong codes from one address every lookup is refused; another address is not", slow, async () => {
    const look = (code: string, clientIp: string) => shop.request(`/lista-nascita?codice=${code}`, { clientIp });
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const miss = await look(`ZZZZ${String(attempt).padStart(4, "0")}`, "198.51.100.20");
      expect(shows(miss.body, messagesIt.giftLists.errors.throttled), `lookup ${attempt + 1}`).toBe(false);
    }
    const throttled = await look("ZZZZ9999", "198.51.100.20");
    expect(shows(throttled.body, messagesIt.giftLists.errors.throttled)).toBe(true);
    expect(shows((await look("ZZZZ9999", "198.51.100.21")).body, messagesIt.giftLists.errors.throttled)).toBe(false);
    const api = await shop.request("/api/public/lista-regalo/search-id?codice=ZZZZ9999", {
      clientIp: "198.51.100.20",
      headers: { Accept: "application/json" },
    });
    expect(api.status).toBe(429);
    expect(JSON.parse(api.body).error.code).toBe("too-many-requests");
  });

  test("contact form: the 6th message from one address within an hour is refused with a message and not stored", slow, async () => {
    const form = {
      name: "Maria Rossi",
      email: "maria@example.it",
      phone: "",
      subject: "Disponibilità",
      message: "Avete il passeggino Trio in rosso?",
      privacy: "on",
    };
    const send = (clientIp: string) => shop.request("/contact", { form, clientIp, headers: { Origin: shop.publicUrl } });
    for (let message = 1; message <= 5; message += 1) expect((await send("198.51.100.30")).status, `message ${message}`).toBe(302);
    const [stored] = await selectRows<{ n: number }>(shop.handle.db, sql`select count(*)::int as n from contact_messages`);
    const sixth = await send("198.51.100.30");
    expect(sixth.status).toBe(429);
    expect(shows(sixth.body, messagesIt.contact.errors.tooMany)).toBe(true);
    const [after] = await selectRows<{ n: number }>(shop.handle.db, sql`select count(*)::int as n from contact_messages`);
    expect(after!.n).toBe(stored!.n);
    expect((await send("198.51.100.31")).status).toBe(302);
  });
});
