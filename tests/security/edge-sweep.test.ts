/**
 * What a careless client or an attacker sends at the shop's edge, to every route it has: every page
 * action and its `.data` twin (app/routes.ts), every /api endpoint (server/http/api/api-registry.ts, the
 * source of the OpenAPI document) and every endpoint of the auth library (its own endpoint table).
 * Bodies that are not forms, other content types and charsets, malformed multipart and JSON, NUL and
 * control characters in fields, queries and route parameters, oversized bodies, unknown methods:
 * never a 5xx, every refusal a 4xx with a message in the page's language (the API's and the auth
 * library's as JSON), and not one row of the database changed. New routes are swept as they are added.
 */
import { sql } from "drizzle-orm";
import { expect, test, vi } from "vitest";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { selectRows } from "../db";
import { fill, jsonSchemaOf } from "./api-bodies";
import { authEndpointsOf, rawExchange, useShopWithVisitors, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import type { ConcreteRoute } from "./page-routes";

const slow = { timeout: 600_000 };

let shop: InProcessShop;
let routes: ConcreteRoute[];
let admin: string;
let customer: string;

useShopWithVisitors((started) => ({ shop, routes, admin, customer } = started));

/** Tables whose rows count requests rather than hold the shop's data: the auth library's rate-limit counters. */
const countersOnly = new Set(["rate_limits"]);

/** Each table's row count and a hash of all its rows: equal before and after means nothing was written. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await selectRows<{ name: string }>(
    shop.handle.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const prints: Record<string, string> = {};
  for (const { name } of tables) {
    if (countersOnly.has(name) || name.startsWith("__drizzle")) continue;
    const [row] = await selectRows<{ n: number | string; hash: string | null }>(
      shop.handle.db,
      sql`select count(*) as n, md5(string_agg(t::text, '|' order by t::text)) as hash from ${sql.identifier(name)} t`,
    );
    prints[name] = `${row!.n} ${row!.hash ?? ""}`;
  }
  return prints;
}

const languageOf = (url: string) => (url === "/en" || url.startsWith("/en/") ? "en" : "it");
const catalogues = { it: messagesIt, en: messagesEn };

/** A page or `.data` refusal: 4xx, and the refusal's title in the page's language. */
function expectPageRefusal(answer: HttpAnswer, url: string, where: string) {
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  const title = catalogues[languageOf(url)].errors.badRequestTitle;
  expect.soft(answer.body, `${where}: the refusal in the page's language`).toContain(title);
}

/** An API or auth refusal: 4xx, `{ error: { code, message } }` with a message that is a sentence, not a key. */
function expectJsonRefusal(answer: HttpAnswer, where: string) {
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
  const parsed = JSON.parse(answer.body) as { error?: { code?: unknown; message?: unknown } };
  expect.soft(typeof parsed.error?.code, where).toBe("string");
  expect.soft(String(parsed.error?.message), where).toMatch(/ /);
}

/** No 5xx; a refusal of the auth library's own (not the edge's) may keep its own JSON shape, with a message. */
function expectNoServerError(answer: HttpAnswer, where: string) {
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
}

const dataUrlOf = (url: string) => (url === "/" ? "/_root.data" : `${url.replace(/\/$/, "")}.data`);

/** Bodies no page form sends: each must be refused before any action runs. */
const badPageBodies: { name: string; type: string; body: string | Buffer }[] = [
  { name: "JSON", type: "application/json", body: '{"intent":"add","email":"x@example.it"}' },
  { name: "text", type: "text/plain", body: "intent=add" },
  { name: "XML", type: "application/xml", body: '<?xml version="1.0"?><intent>add</intent>' },
  { name: "no type", type: "", body: "intent=add" },
  { name: "Latin-1 form", type: "application/x-www-form-urlencoded; charset=iso-8859-1", body: Buffer.from("intent=add&name=Nicol\xf2", "latin1") },
  {
    name: "malformed multipart",
    type: "multipart/form-data; boundary=XyZ",
    body: '--XyZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\nadd',
  },
  { name: "multipart without boundary", type: "multipart/form-data", body: "intent=add" },
  { name: "NUL in a field", type: "application/x-www-form-urlencoded", body: "intent=add&name=Maria%00Rossi&email=a%00@example.it" },
  { name: "escape in a field", type: "application/x-www-form-urlencoded", body: "intent=add&name=Maria%1B%5B31mRossi" },
  {
    name: "NUL in multipart",
    type: "multipart/form-data; boundary=XyZ",
    body: '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nMaria\0Rossi\r\n--XyZ--\r\n',
  },
  { name: "bad escapes and invalid UTF-8", type: "application/x-www-form-urlencoded", body: "intent=%ZZ&name=%E0%A4%A&email=%C0%80%FF" },
  { name: "oversized", type: "application/x-www-form-urlencoded", body: `intent=add&message=${"a".repeat(2 * 1024 * 1024)}` },
];

const unknownMethods = ["TRACE", "PROPFIND", "PUT", "DELETE", "PATCH"];

/** The refusal of a body may come before it was read: the server may close while it is still being sent. */
async function send(where: string, request: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  try {
    return await request();
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
}

test(
  "every page action and .data action, every /api endpoint and auth endpoint, with bodies no form sends, control characters, weird parameters and unknown methods: 4xx with a message in the page's language, never a 5xx, nothing written",
  slow,
  async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = await fingerprint();
    const own = { Origin: shop.publicUrl };
    const cookieFor = (url: string) => (url.includes("/admin") ? admin : customer);
    let requests = 0;

    // Page actions, as a document post and as the `.data` post of a script.
    const actions = routes.filter((route) => route.hasAction && !route.url.startsWith("/api/") && route.url !== "/currency");
    expect(actions.length).toBeGreaterThan(30);
    for (const route of actions) {
      for (const url of [route.url, dataUrlOf(route.url)]) {
        // The English twins run the same modules: a few bodies show the refusal speaks English there.
        for (const bad of languageOf(url) === "en" ? badPageBodies.filter((_, index) => index % 4 === 0) : badPageBodies) {
          const where = `POST ${url} (${bad.name})`;
          const headers: Record<string, string> = { ...own, "Content-Type": bad.type };
          const answer = await send(where, () => shop.request(url, { body: bad.body, headers, cookie: cookieFor(url) }));
          requests += 1;
          expectPageRefusal(answer, route.url, where);
        }
      }
    }

    // Unknown methods on every URL: 405 with the methods it does take.
    for (const route of routes) {
      for (const method of languageOf(route.url) === "en" ? ["TRACE"] : unknownMethods) {
        const where = `${method} ${route.url}`;
        const answer = await send(where, () =>
          shop.request(route.url, { method, body: "x", headers: { ...own, "Content-Type": "text/plain" }, cookie: cookieFor(route.url) }),
        );
        requests += 1;
        expect.soft(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(405);
        expect.soft(String(answer.headers.allow), where).toMatch(/GET/);
      }
    }

    // Route parameters no link makes: encoded non-Latin-1 letters, CR/LF, NUL, escapes, invalid UTF-8.
    const weirdParams = ["%D0%B0", "%E2%80%AE", "a%0D%0Ab", "a%00b", "%1B", "%FF%FE", "%C0%AF", "a%2Fb", "%25", "x".repeat(600)];
    const withParams = routes.filter((route) => /:|\*/.test(route.pattern) && !route.url.startsWith("/api/"));
    for (const route of withParams) {
      const segments = route.pattern.split("/");
      for (const weird of weirdParams) {
        let url = route.url;
        // The last concrete value of a parameter is replaced: the URL's own shape stays.
        const parameter = segments.filter((segment) => segment.startsWith(":") || segment === "*").at(-1)!;
        const sample = route.url.split("/").at(segments.indexOf(parameter) - segments.length);
        if (sample)
          url = `${route.url.slice(0, route.url.lastIndexOf(sample))}${weird}${route.url.slice(route.url.lastIndexOf(sample) + sample.length)}`;
        for (const post of [false, true]) {
          const where = `${post ? "POST" : "GET"} ${url}`;
          const answer = await send(where, () =>
            shop.request(url, post ? { form: { intent: "add", quantity: "1" }, headers: own, cookie: cookieFor(url) } : { cookie: cookieFor(url) }),
          );
          requests += 1;
          expectNoServerError(answer, where);
          if (String(answer.headers["content-type"]).startsWith("text/html")) {
            expect.soft(answer.body, `${where}: the page's language`).toContain(`<html lang="${languageOf(route.url)}"`);
          }
        }
      }
    }

    // The API: every endpoint of the registry, with bodies that are not JSON, broken JSON, NUL in every string, an oversized body.
    const english = { "Accept-Language": "en", Accept: "application/json" };
    for (const endpoint of apiEndpoints) {
      const cookie = endpoint.auth === "user" ? customer : undefined;
      const schemaBody = endpoint.body ? fill(jsonSchemaOf(endpoint.body), "Maria\u0000Rossi", false) : {};
      const query = endpoint.query
        ? `?${new URLSearchParams(Object.entries(fill(jsonSchemaOf(endpoint.query), "a\u0000b", false) as Record<string, unknown>).map(([name, value]) => [name, String(value)])).toString()}`
        : "?x=%00";
      if (endpoint.method === "GET") {
        const where = `GET ${endpoint.path}${query}`;
        const answer = await send(where, () => shop.request(`${endpoint.path}${query}`, { cookie, headers: english }));
        requests += 1;
        expectJsonRefusal(answer, where);
      } else {
        const bodies: { name: string; type: string; body: string }[] = [
          { name: "text", type: "text/plain", body: "{}" },
          { name: "XML", type: "application/xml", body: "<a/>" },
          { name: "form", type: "application/x-www-form-urlencoded", body: "a=b" },
          { name: "broken JSON", type: "application/json", body: '{"a":' },
          { name: "NUL in every string", type: "application/json", body: JSON.stringify(schemaBody) },
          { name: "escape in every string", type: "application/json", body: JSON.stringify(schemaBody).replaceAll("\\u0000", "\\u001b") },
          { name: "NUL in a key", type: "application/json", body: '{"a\\u0000":1}' },
          { name: "oversized", type: "application/json", body: JSON.stringify({ a: "a".repeat(300 * 1024) }) },
        ];
        // A body with no string to spoil (`{ consent: true }`) is a valid one: its control-character variants are skipped.
        const hasStrings = JSON.stringify(schemaBody).includes("\\u0000");
        for (const bad of bodies.filter((body) => hasStrings || !body.name.endsWith("in every string"))) {
          const where = `POST ${endpoint.path} (${bad.name})`;
          const answer = await send(where, () =>
            shop.request(endpoint.path, { body: bad.body, cookie, headers: { ...english, ...own, "Content-Type": bad.type } }),
          );
          requests += 1;
          expectJsonRefusal(answer, where);
        }
      }
      for (const method of unknownMethods) {
        const where = `${method} ${endpoint.path}`;
        const answer = await send(where, () =>
          shop.request(endpoint.path, { method, cookie, body: "{}", headers: { ...english, ...own, "Content-Type": "application/json" } }),
        );
        requests += 1;
        expect.soft(answer.status, where).toBe(405);
        expectJsonRefusal(answer, where);
      }
    }

    // The auth library's own endpoints, from its endpoint table: control characters refused at the edge as the API does.
    const authEndpoints = authEndpointsOf(shop);
    expect(authEndpoints.length).toBeGreaterThan(20);
    const hostileAuthFields = Object.fromEntries(
      [
        "email",
        "password",
        "newPassword",
        "currentPassword",
        "token",
        "image",
        "name",
        "callbackURL",
        "newEmail",
        "idToken",
        "providerId",
        "userId",
      ].map((name) => [name, `x\u0000${name}`]),
    );
    for (const endpoint of authEndpoints) {
      for (const method of endpoint.methods.length > 0 ? endpoint.methods : ["GET", "POST"]) {
        if (method === "GET") {
          const where = `GET ${endpoint.path}?token=NUL`;
          const answer = await send(where, () =>
            shop.request(`${endpoint.path}?token=a%00b&callbackURL=%2F%00`, { cookie: customer, headers: english }),
          );
          requests += 1;
          expectJsonRefusal(answer, where);
          continue;
        }
        const bodies = [
          { name: "NUL in every field", type: "application/json", body: JSON.stringify(hostileAuthFields) },
          { name: "escape in a field", type: "application/json", body: JSON.stringify({ ...hostileAuthFields, name: "\u001b[31m" }) },
          { name: "text", type: "text/plain", body: "{}" },
          { name: "XML", type: "application/xml", body: "<a/>" },
          { name: "oversized", type: "application/json", body: JSON.stringify({ email: "a".repeat(300 * 1024) }) },
        ];
        for (const bad of bodies) {
          const where = `${method} ${endpoint.path} (${bad.name})`;
          const answer = await send(where, () =>
            shop.request(endpoint.path, { method, body: bad.body, cookie: customer, headers: { ...english, ...own, "Content-Type": bad.type } }),
          );
          requests += 1;
          expectJsonRefusal(answer, where);
        }
        const broken = await send(`${method} ${endpoint.path} (broken JSON)`, () =>
          shop.request(endpoint.path, { method, body: '{"email":', headers: { ...english, ...own, "Content-Type": "application/json" } }),
        );
        requests += 1;
        expectNoServerError(broken, `${method} ${endpoint.path} (broken JSON)`);
      }
    }

    expect(requests).toBeGreaterThan(1000);
    expect(await fingerprint()).toEqual(before);
  },
);

test(
  "a body refused as too large on a kept-alive connection: the 413 arrives at once and the connection is closed, not left hanging",
  slow,
  async () => {
    const endpoint = apiEndpoints.find((candidate) => candidate.method === "POST" && candidate.auth !== "user")!;
    const body = Buffer.alloc(400 * 1024, "a");
    for (const [path, type] of [
      [endpoint.path, "application/json"],
      ["/contact", "application/x-www-form-urlencoded"],
    ] as const) {
      for (const declared of [true, false]) {
        const head = [
          `POST ${path} HTTP/1.1`,
          `Host: ${new URL(shop.publicUrl).host}`,
          `Origin: ${shop.publicUrl}`,
          `Content-Type: ${type}`,
          "Connection: keep-alive",
          declared ? `Content-Length: ${path === "/contact" ? 4 * body.byteLength : body.byteLength}` : "Transfer-Encoding: chunked",
          "",
          "",
        ].join("\r\n");
        const sent = declared
          ? body
          : Buffer.concat([Buffer.from(`${(4 * body.byteLength).toString(16)}\r\n`), body, body, body, body, Buffer.from("\r\n0\r\n\r\n")]);
        const answer = await rawExchange(shop.port, head, sent);
        const where = `${path} ${declared ? "Content-Length" : "chunked"}`;
        expect(answer.text, where).toMatch(/^HTTP\/1\.1 413 /);
        expect(answer.text.toLowerCase(), where).toContain("connection: close");
        expect(answer.answeredMs, where).toBeLessThan(2_000);
        expect(answer.closedMs, where).toBeLessThan(2_000);
      }
    }
  },
);
