/**
 * An injection corpus (SQL, HTML/JS, path traversal, header injection, Unicode tricks, NUL bytes,
 * very long strings) against every route with an action (app/routes.ts), the forms that store what
 * people type, the pages that echo the query string, /media, and every endpoint of the API
 * (server/http/api/api-registry.ts, bodies and queries made from each endpoint's own schema):
 * never a 500, never a redirect off the shop or a header split, and whatever was stored shows
 * escaped on the pages that render it.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, test, vi } from "vitest";
import { sampleCatalogue } from "#server/db/sample-catalogue.ts";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import { selectRows } from "../db";
import { fill, jsonSchemaOf } from "./api-bodies";
import { cookieHeaderOf, useShopWithVisitors, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import type { ConcreteRoute } from "./page-routes";

const slow = { timeout: 300_000 };

/** Raw fragments that must never reach a page as markup. */
const markup = ['<script>alert("x1")</script>', '"><img src=x onerror=alert("x2")>', "<svg onload=alert('x3')>"];
const rawMarkers = ["<script>alert(", "<img src=x onerror", "<svg onload"];

const corpus: Record<string, string> = {
  sqlQuote: "' OR '1'='1",
  sqlDrop: "'; DROP TABLE users; --",
  sqlSleep: "1); select pg_sleep(3); --",
  sqlUnion: "x' UNION SELECT email, password FROM accounts --",
  htmlScript: markup[0]!,
  htmlAttribute: markup[1]!,
  htmlSvg: markup[2]!,
  javascriptUrl: "javascript:alert(document.cookie)",
  traversal: "../../../../etc/passwd",
  traversalEncoded: "..%2f..%2f..%2fetc%2fpasswd",
  crlf: "x\r\nSet-Cookie: evil=1\r\nLocation: https://evil.example",
  crlfEncoded: "%0d%0aSet-Cookie:%20evil=1",
  rtlOverride: "Maria\u202Eartsor\u202C",
  homoglyph: "\u0430dmin@bimbif\u0435lici.example",
  zeroWidth: "Ma\u200Bria\u200D Ros\uFEFFsi",
  nulByte: "Maria\u0000Rossi",
  /** Far past every field's limit (a few hundred characters at most), and past the API's body limit in a few fields. */
  longString: "a".repeat(20_000),
  templates: "{{7*7}} ${7*7} %s%n%x <%= 7*7 %>",
  emoji: "👶🏽🍼 Ĳ ﬁ \uD800",
};

let shop: InProcessShop;
let routes: ConcreteRoute[];
let admin: string;
let customer: string;

useShopWithVisitors((started) => ({ shop, routes, admin, customer } = started));

/**
 * The request, with what was sent named when the connection itself fails. An oversized body may be
 * refused by the server closing the connection before it has read it all (Node then resets it while
 * the client still sends): that is a refusal, not a failure, for the long strings only.
 */
async function send(where: string, request: () => Promise<HttpAnswer>, oversized = false): Promise<HttpAnswer | null> {
  try {
    return await request();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (oversized && (code === "ECONNRESET" || code === "EPIPE")) return null;
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
}

/** Raw markup in an HTML answer (JSON is data: it is never parsed as markup, nosniff keeps it so). */
function expectNoRawMarkup(answer: HttpAnswer, where: string) {
  if (!String(answer.headers["content-type"]).startsWith("text/html")) return;
  for (const marker of rawMarkers) expect(answer.body, where).not.toContain(marker);
}

/**
 * The answer is a clean one: no unhandled error (a 500; a deliberate 502 such as the back office's
 * "the rates source did not answer" is an answer), no header split, no redirect away from the shop.
 */
function expectHandled(answer: HttpAnswer, where: string) {
  expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).not.toBe(500);
  expect(answer.body, where).not.toContain("Unexpected Server Error");
  expect(
    answer.setCookies.some((cookie) => cookie.startsWith("evil=")),
    where,
  ).toBe(false);
  if (answer.location) {
    expect(answer.location, where).not.toMatch(/[\r\n]/);
    expect(new URL(answer.location, shop.publicUrl).origin, `${where} -> ${answer.location}`).toBe(shop.publicUrl);
  }
}

/** Every name a form of the shop uses for text, all carrying the payload. */
const textFieldNames = [
  "name",
  "email",
  "password",
  "passwordConfirm",
  "phone",
  "subject",
  "message",
  "firstName",
  "lastName",
  "street",
  "houseNumber",
  "postcode",
  "city",
  "province",
  "label",
  "companyName",
  "vatNumber",
  "sdiCode",
  "pec",
  "invoiceKind",
  "fiscalCode",
  "denomination",
  "regimeFiscale",
  "reaNumber",
  "discountCode",
  "title",
  "celebratedNames",
  "messageToGuests",
  "eventDate",
  "code",
  "codice",
  "query",
  "q",
  "search",
  "token",
  "newEmail",
  "currentPassword",
  "newPassword",
  "giverName",
  "giftMessage",
  "emails",
  "note",
  "trackingNumber",
  "carrier",
  "sku",
  "nameIt",
  "nameEn",
  "redirectTo",
  "currency",
  "variantId",
  "quantity",
  "lineId",
  "listId",
  "itemId",
  "addressId",
  "status",
];

/** The intents an action module names in its source; the ones that end the test's own session are left out. */
function intentsOf(route: ConcreteRoute): string[] {
  const source = fs.readFileSync(path.resolve("app", route.file), "utf8");
  const named = [...source.matchAll(/(?:case|intent [!=]==|get\("intent"\) [!=]==) "([a-z-]+)"/g)].map((match) => match[1]!);
  return [...new Set(["", ...named])].filter((intent) => !["intent", "logout-everywhere", "delete-account"].includes(intent));
}

/** Four forms per intent: every field gets a corpus value, each value lands in a dozen fields, and in other fields in the next form. */
function hostileForms(): Record<string, string>[] {
  const values = Object.values(corpus);
  return [0, 5, 10, 15].map((shift) => Object.fromEntries(textFieldNames.map((name, index) => [name, values[(index + shift) % values.length]!])));
}

test(
  "every route with an action, the corpus in every field, for each intent it names (and a hostile one): never a 500, never a split header or a foreign redirect",
  slow,
  async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const targets = routes.filter((route) => route.hasAction && !route.url.startsWith("/en/") && !route.url.startsWith("/api/"));
    expect(targets.length).toBeGreaterThan(15);
    for (const route of targets) {
      const cookie = route.url.includes("/admin") ? admin : customer;
      for (const [round, form] of hostileForms().entries()) {
        for (const intent of [form.name!, ...intentsOf(route)]) {
          const where = `POST ${route.url} intent=${intent.slice(0, 20)} form ${round}`;
          const answer = await send(
            where,
            () =>
              shop.request(route.url, { form: { ...form, intent, privacy: "on", acceptTerms: "on" }, cookie, headers: { Origin: shop.publicUrl } }),
            true,
          );
          if (answer) expectHandled(answer, where);
        }
      }
    }
  },
);

test("pages that read the query string (search, filters, lookups, redirects): never a 500, the value shown escaped", slow, async () => {
  const pages = [
    "/shop?search=",
    "/shop?page=",
    "/shop?color=",
    "/shop?sort=",
    "/search/suggest?q=",
    "/lista-nascita?codice=",
    "/lista-nascita?nome=",
    "/login-register?redirectTo=",
    "/categoria/A-spasso?size=",
    "/product/1?colore=",
  ];
  for (const page of pages) {
    for (const [kind, payload] of Object.entries(corpus)) {
      if (kind === "longString") continue; // too long for a URL: Node refuses it before the shop (431); 6,000 characters below
      const answer = (await send(`GET ${page} ${kind}`, () => shop.request(`${page}${encodeURIComponent(payload.toWellFormed())}`)))!;
      expectHandled(answer, `GET ${page} ${kind}`);
      expectNoRawMarkup(answer, `GET ${page} ${kind}`);
    }
  }
  const long = await shop.request(`/shop?search=${"a".repeat(6_000)}`);
  expectHandled(long, "GET /shop?search=6000 chars");
});

test("/media and the static files never serve outside their folders", slow, async () => {
  for (const path of [
    "/media/../../../../etc/passwd",
    "/media/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/media/%2e%2e/%2e%2e/etc/passwd",
    "/assets/..%2f..%2fpackage.json",
    "/..%2fpackage.json",
    "/media/x%00.avif",
  ]) {
    const answer = await shop.request(path);
    expect(answer.status, path).toBeLessThan(500);
    expect(answer.body, path).not.toContain("root:x:0:0");
    expect(answer.body, path).not.toContain('"name": "bimbi-shop"');
  }
});

test("a sample picture is drawn on its first request and kept; a name that is not one draws nothing and is a 404", slow, async () => {
  const key = sampleCatalogue[0]!.images[0]!.key;
  const first = await shop.request(`/media/products/${key}-320.avif`);
  expect(first.status).toBe(200);
  expect(first.headers["content-type"]).toBe("image/avif");
  expect(first.headers["cache-control"]).toBe("public, max-age=604800");
  const again = await shop.request(`/media/products/${key}-320.avif`);
  expect(again.headers["last-modified"]).toBe(first.headers["last-modified"]);
  for (const path of [`/media/products/${key}-800.avif`, "/media/products/sample-99999-1-320.webp", `/media/products/${key}-320.webp.partial`]) {
    expect((await shop.request(path)).status, path).toBe(404);
  }
});

test("every API endpoint, its body and query made from its own schema with each corpus value: never a 500, always the JSON shape", slow, async () => {
  const same = { Origin: shop.publicUrl };
  for (const endpoint of apiEndpoints) {
    const cookie = endpoint.auth === "user" ? customer : undefined;
    for (const [kind, payload] of Object.entries(corpus)) {
      for (const all of [true, false]) {
        const where = `${endpoint.method} ${endpoint.path} ${kind}${all ? "" : " (free text)"}`;
        let path = endpoint.path;
        if (endpoint.query) {
          const values = fill(jsonSchemaOf(endpoint.query), kind === "longString" ? payload.slice(0, 5_000) : payload.toWellFormed(), all) as Record<
            string,
            unknown
          >;
          path += `?${new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)])).toString()}`;
        }
        const body = endpoint.body ? fill(jsonSchemaOf(endpoint.body), payload, all) : undefined;
        const answer = await send(
          where,
          () =>
            endpoint.method === "GET"
              ? shop.request(path, { cookie, headers: { Accept: "application/json" } })
              : shop.request(path, { json: body ?? {}, cookie, headers: same }),
          kind === "longString",
        );
        if (!answer) continue;
        expectHandled(answer, where);
        expect(String(answer.headers["content-type"]), where).toContain("application/json");
      }
    }
  }
});

describe("what people type and the shop stores is shown escaped", () => {
  test("names, addresses, gift lists and orders with markup in every field: rendered escaped wherever they are shown", slow, async () => {
    const own = { Origin: shop.publicUrl };
    const hostile = `Sofia ${markup[0]} ${markup[1]} ${markup[2]}`;
    const stored: string[] = [];
    const post = async (path: string, form: Record<string, string>, cookie: string) => {
      const answer = await shop.request(path, { form, cookie, headers: own });
      expectHandled(answer, `POST ${path} ${form.intent ?? ""}`);
      stored.push(path);
      return answer;
    };
    await post("/my-account", { intent: "profile", name: hostile, phone: "081 555 1234" }, customer);
    await post(
      "/my-account",
      {
        intent: "address-add",
        label: hostile,
        firstName: hostile,
        lastName: hostile,
        street: hostile,
        houseNumber: "12",
        postcode: "80134",
        city: hostile,
        province: "NA",
        phone: "081 555 1234",
      },
      customer,
    );
    await post(
      "/crea-lista-nascita",
      {
        intent: "create",
        title: hostile,
        type: "nascita",
        eventDate: "2030-06-01",
        celebratedNames: hostile,
        messageToGuests: hostile,
        shippingAddressId: "",
        visibility: "public",
      },
      customer,
    );
    await post(
      "/contact",
      { name: hostile, email: "maria@example.it", phone: "", subject: hostile, message: `${hostile} ${hostile}`, privacy: "on" },
      customer,
    );
    const [variant] = await selectRows<{ id: number }>(
      shop.handle.db,
      sql`select v.id from product_variants v join products p on p.id = v.product_id where p.is_published and not p.is_on_request and p.personalisation_fields is null and v.stock > 0 order by v.id limit 1`,
    );
    const added = await shop.request("/cart", {
      form: { intent: "add", variantId: String(variant!.id), quantity: "1", redirectTo: "/cart" },
      headers: own,
    });
    const checkout = await post(
      "/checkout",
      {
        idempotencyKey: crypto.randomUUID(),
        firstName: hostile,
        lastName: hostile,
        email: "maria@example.it",
        phone: "081 555 1234",
        deliveryMethod: "standard",
        paymentMethod: "bank_transfer",
        street: hostile,
        houseNumber: "12",
        postcode: "80134",
        city: hostile,
        province: "NA",
        acceptTerms: "on",
      },
      cookieHeaderOf(added),
    );

    // What the database holds now, and every page where it could show.
    const [held] = await selectRows<{ n: number }>(
      shop.handle.db,
      sql`select (select count(*) from users where name like '%<script>%') + (select count(*) from addresses where street like '%<script>%') + (select count(*) from gift_lists where title like '%<script>%') + (select count(*) from orders where first_name like '%<script>%') + (select count(*) from contact_messages where subject like '%<script>%') as n`,
    );
    const [list] = await selectRows<{ code: string }>(shop.handle.db, sql`select code from gift_lists order by created_at desc limit 1`);
    const pages: [string, string | undefined][] = [
      ["/my-account", customer],
      ["/shopping", customer],
      ["/crea-lista-nascita", customer],
      ["/admin/ordini", admin],
      ["/admin/posta", admin],
      ["/admin/registro", admin],
      ["/lista-nascita?nome=Sofia", undefined],
    ];
    if (list) pages.push([`/lista-nascita/${list.code}`, undefined]);
    if (checkout.location?.startsWith("/ordine/")) pages.push([checkout.location, undefined]);
    const [order] = await selectRows<{ id: string }>(shop.handle.db, sql`select id from orders order by created_at desc limit 1`);
    if (order) pages.push([`/admin/ordini/${order.id}`, admin]);
    let escapedSeen = 0;
    for (const [path, cookie] of pages) {
      const answer = await shop.request(path, { cookie });
      expectHandled(answer, `GET ${path}`);
      expectNoRawMarkup(answer, `GET ${path}`);
      if (answer.body.includes("&lt;script&gt;alert(")) escapedSeen += 1;
    }
    // When the forms kept the markup as text, it must have been seen (escaped) somewhere: else the check proved nothing.
    if (Number(held!.n) > 0) expect(escapedSeen).toBeGreaterThan(0);
    expect(stored.length).toBe(5);
  });
});
