/**
 * Requests that broke the edge's shared mechanisms, sent to every route that could take them: JSON nested
 * thousands deep (every route that reads JSON: the API, the auth library, the currency switch), paths that
 * write another site into the page's own links (every page, and the not-found page), and heads above Node's
 * limit (refused before Express). docs/decisions/0084-request-edge-limits.md.
 */
import { expect, test } from "vitest";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { authEndpointsOf, rawExchange, useShopWithVisitors, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import type { ConcreteRoute } from "./page-routes";

const slow = { timeout: 600_000 };

let shop: InProcessShop;
let routes: ConcreteRoute[];
let admin: string;
let customer: string;

useShopWithVisitors((started) => ({ shop, routes, admin, customer } = started));

const deepArray = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
const deepObject = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;

function expectDeepJsonRefusal(answer: HttpAnswer, language: "it" | "en", where: string) {
  expect.soft(answer.status, `${where}: ${answer.body.slice(0, 300)}`).toBe(400);
  const error = (JSON.parse(answer.body) as { error?: { code?: unknown; message?: unknown } }).error;
  expect.soft(error?.code, where).toBe("too-deeply-nested");
  const messages = language === "en" ? messagesEn : messagesIt;
  expect.soft(error?.message, where).toBe(messages.api.errors["too-deeply-nested"]);
}

test("JSON nested thousands deep, to every route that reads JSON: 400 with a sentence in the caller's language, never a 500", slow, async () => {
  const own = { Origin: shop.publicUrl };
  const jsonRoutes = [
    ...apiEndpoints
      .filter((endpoint) => endpoint.method === "POST")
      .map((endpoint) => ({ path: endpoint.path, cookie: endpoint.auth === "user" ? customer : admin })),
    ...authEndpointsOf(shop)
      .filter((endpoint) => endpoint.methods.includes("POST"))
      .map((endpoint) => ({ path: endpoint.path, cookie: customer })),
    { path: "/currency", cookie: customer },
  ];
  expect(jsonRoutes.length).toBeGreaterThan(22);
  for (const [index, route] of jsonRoutes.entries()) {
    for (const body of [deepArray, deepObject]) {
      // Every route in English; every other one also as an Italian caller (no Accept-Language), signed in or not.
      const callers: { language: "it" | "en"; headers: Record<string, string>; cookie: string | undefined }[] = [
        { language: "en", headers: { "Accept-Language": "en", Accept: "application/json" }, cookie: route.cookie },
        ...(index % 2 === 0 ? [{ language: "it" as const, headers: { Accept: "application/json" }, cookie: undefined }] : []),
      ];
      for (const caller of callers) {
        const where = `POST ${route.path} (${body === deepArray ? "arrays" : "objects"}, ${caller.language})`;
        const answer = await shop.request(route.path, {
          body,
          cookie: caller.cookie,
          headers: { ...own, ...caller.headers, "Content-Type": "application/json" },
        });
        expectDeepJsonRefusal(answer, caller.language, where);
      }
    }
  }
  // Nesting as deep as the limit is still read: the refusal is about depth, not about arrays.
  const atLimit = await shop.request("/api/auth/sign-in/email", {
    body: JSON.stringify({ email: "anna@example.it", password: "x", extra: JSON.parse(`${"[".repeat(30)}${"]".repeat(30)}`) as unknown }),
    headers: { ...own, Accept: "application/json", "Content-Type": "application/json" },
  });
  expect(atLimit.status).not.toBe(400);
  expect(atLimit.status).toBeLessThan(500);
});

/** Paths that name this shop but, written back into an href, another site; and their cousins. */
const offSitePaths = [
  "//evil.example/x",
  "///evil.example/x",
  "/.//evil.example/x",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/x/..//evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "/%5Cevil.example",
  "/%2F%2Fevil.example",
  "/en//evil.example/x",
  "/en/.//evil.example",
  "/en/%2e//evil.example/x",
  "/en/\\evil.example",
  "/en%2F%2Fevil.example",
  "//evil.example/x?currency=USD",
  "/shop//evil.example/..//evil.example",
];

const attributePattern = /\s(href|action|formaction|value|content)="([^"]*)"/gi;
const decodeEntities = (value: string) =>
  value
    .replaceAll("&amp;", "&")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">");

/** The links, form targets and path-like hidden values of a page, each as the browser would resolve it from `pageUrl`. */
function linksOf(html: string, pageUrl: string): { written: string; reaches: URL }[] {
  const found: { written: string; reaches: URL }[] = [];
  for (const tag of html.match(/<(?:a|link|form|button|area|input|meta)\b[^>]*>/gi) ?? []) {
    for (const [, name, raw] of tag.matchAll(attributePattern)) {
      const written = decodeEntities(raw!);
      const lower = name!.toLowerCase();
      // A hidden value or a meta's content counts when a browser or the shop could follow it: a path or a URL.
      if ((lower === "value" || lower === "content") && !/^(?:[/\\]|[a-z][a-z0-9+.-]*:)/i.test(written)) continue;
      if (lower === "value" && !/type="hidden"/i.test(tag)) continue;
      const reaches = URL.parse(written, pageUrl);
      // Only what a browser would load or open as a web page: tel:, mailto: and data: stay where they are.
      if (reaches && (reaches.protocol === "http:" || reaches.protocol === "https:")) found.push({ written, reaches });
    }
  }
  return found;
}

test("odd paths on every page and on the not-found page: no link, form or hidden path in the answer leaves the shop", slow, async () => {
  const origin = new URL(shop.publicUrl).origin;
  const pages = routes.filter((route) => route.isPage && !route.url.startsWith("/api/"));
  expect(pages.length).toBeGreaterThan(40);
  // Each path signed out and signed in (the account menu writes the path too); every page with two of the tricks, one way or the other.
  const visits = [
    ...offSitePaths.flatMap((path) => [{ path }, { path, cookie: customer }]),
    ...pages.flatMap((route, index) => {
      const cookie = index % 2 === 0 ? undefined : customer;
      return [
        { path: `/${route.url}`, cookie },
        { path: `/.${route.url === "/" ? "/" : `/${route.url}`}`, cookie },
      ];
    }),
  ];
  let checked = 0;
  for (const { path, cookie } of visits) {
    const first = await shop.request(path, { cookie });
    let answer = first;
    let pageUrl = `${origin}${path.startsWith("/") ? path : `/${path}`}`;
    if (first.status >= 300 && first.status < 400) {
      const target = URL.parse(first.location ?? "", `${origin}/`);
      expect.soft(target?.origin, `${path}: redirected to ${first.location}`).toBe(origin);
      expect.soft(first.location, `${path}: redirected to a tidy path`).toMatch(/^\/(?![/\\])/);
      if (!target || target.origin !== origin) continue;
      pageUrl = target.href;
      answer = await shop.request(`${target.pathname}${target.search}`, { cookie });
      expect.soft(answer.status, `${path} -> ${first.location}: one redirect is enough`).not.toBe(first.status);
    }
    expect.soft(answer.status, `${path}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    for (const link of linksOf(answer.body, pageUrl)) {
      // The shop's own links to other sites (a product's page elsewhere, WhatsApp) are not named in the path.
      const leaves = link.reaches.origin !== origin && path.toLowerCase().includes(link.reaches.hostname);
      expect.soft(leaves ? link.written : null, `${path}: ${link.written}`).toBeNull();
    }
    checked += 1;
  }
  expect(checked).toBeGreaterThan(200);
});

/** The head of a GET with a query of `queryBytes` and the extra header lines given, as a raw HTTP/1.1 request. */
function hugeHead(path: string, queryBytes: number, extraLines: string[]) {
  return [
    `GET ${path}${queryBytes > 0 ? `?q=${"a".repeat(queryBytes)}` : ""} HTTP/1.1`,
    `Host: ${new URL(shop.publicUrl).host}`,
    ...extraLines,
    "",
    "",
  ].join("\r\n");
}

function parseRaw(text: string) {
  const [head = "", ...rest] = text.split("\r\n\r\n");
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    head: head.toLowerCase(),
    body: Buffer.from(rest.join("\r\n\r\n"), "latin1").toString("utf8"),
  };
}

test(
  "a 10 MB query or 20 KB of headers: 431 with the API's JSON error or a short page in the page's language, and the shop goes on",
  slow,
  async () => {
    const getEndpoint = apiEndpoints.find((endpoint) => endpoint.method === "GET" && !endpoint.path.includes(":"))!;
    const bigCookie = `Cookie: filler=${"b".repeat(20 * 1024)}`;
    const cases = [
      { head: hugeHead(getEndpoint.path, 10 * 1024 * 1024, ["Accept-Language: en"]), json: true, language: "it" as const },
      { head: hugeHead(getEndpoint.path, 0, ["Accept: application/json", "Accept-Language: en", bigCookie]), json: true, language: "en" as const },
      { head: hugeHead("/", 10 * 1024 * 1024, []), json: false, language: "it" as const },
      { head: hugeHead("/en/shop", 0, ["Accept: text/html", bigCookie]), json: false, language: "en" as const },
    ];
    for (const { head, json, language } of cases) {
      const where = `${head.slice(0, 40)}… (${head.length} bytes)`;
      const answer = parseRaw((await rawExchange(shop.port, head, Buffer.alloc(0))).text);
      expect(answer.status, where).toBe(431);
      expect(answer.head, where).toContain("connection: close");
      expect(answer.head, where).toContain("cache-control: no-store");
      const messages = language === "en" ? messagesEn : messagesIt;
      if (json) {
        expect(answer.head, where).toContain("content-type: application/json");
        expect(JSON.parse(answer.body), where).toEqual({ error: { code: "headers-too-large", message: messages.api.errors["headers-too-large"] } });
      } else {
        expect(answer.head, where).toContain("content-type: text/html");
        expect(answer.body, where).toContain(`<html lang="${language}"`);
        expect(answer.body, where).toContain(messages.errors.headersTooLargeBody.replaceAll("'", "&#39;"));
      }
    }
    // A request line Node cannot read: 400 with a page, not an empty answer.
    const garbled = parseRaw((await rawExchange(shop.port, "GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n", Buffer.alloc(0))).text);
    expect(garbled.status).toBe(400);
    expect(garbled.body).toContain(messagesIt.errors.badRequestTitle);
    expect((await shop.request("/healthz")).status).toBe(200);
  },
);
