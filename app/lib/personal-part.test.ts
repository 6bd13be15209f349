/**
 * The personal part of a page apart from its loader data (personal-part.tsx), through the production
 * application in-process: a signed-in customer's page carries the visitor's loader data and its own part in
 * one JSON script; a client navigation's `.data` carries the part in the root's data.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { selectRows } from "#tests/db.ts";
import { cookieHeaderOf, signIn, startInProcessShop, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { sampleParams } from "#tests/security/page-routes.ts";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { DocumentPersonalPart, PersonalPartScript, type PersonalPart } from "./personal-part";

let shop: InProcessShop;
let params: Record<string, string>;

beforeAll(async () => {
  // Nothing kept: every answer is a render, the visitor's as the customer's.
  shop = await startInProcessShop({ pageCacheBytes: 0 });
  params = await sampleParams(shop.handle.db);
}, 240_000);

afterAll(async () => {
  await shop?.close();
});

/** The page's serialized loader data: what React Router's scripts hand to the browser's router. */
const loaderDataOf = (html: string) => [...html.matchAll(/streamController\.enqueue\(([\s\S]*?)\);<\/script>/g)].map((match) => match[1]).join("");

const personalPartOf = (html: string): PersonalPart | null => {
  const text = /<script type="application\/json" id="personal-part">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return text ? (JSON.parse(text) as PersonalPart) : null;
};

test("a customer's page: the visitor's loader data, the customer's part in its own script and on the screen", { timeout: 120_000 }, async () => {
  const session = await signIn(shop, "customer", "anna.personale@example.it");
  const [variant] = await selectRows<{ id: number }>(
    shop.handle.db,
    sql`select id from product_variants where product_id = ${Number(params.id)} limit 1`,
  );
  const added = await shop.request("/cart", {
    form: { intent: "add", variantId: String(variant!.id), quantity: "2", redirectTo: "/cart" },
    headers: { Origin: shop.publicUrl },
    cookie: session,
  });
  const customer = `${session}; ${cookieHeaderOf(added)}`;

  // The product page's own data still names the customer's gift lists and cart line: its page differs there.
  for (const url of [`/categoria/${params.category}`, `/en/categoria/${params.category}`, "/", "/en", `/en/product/${params.id}`]) {
    const visitorPage = await shop.request(url);
    const customerPage = await shop.request(url, { cookie: customer });
    expect([visitorPage.status, customerPage.status], url).toEqual([200, 200]);
    expect(loaderDataOf(customerPage.body).length, url).toBeGreaterThan(1_000);
    if (!url.includes("/product/")) expect(loaderDataOf(customerPage.body), `${url}: the loader data`).toBe(loaderDataOf(visitorPage.body));
    expect(loaderDataOf(customerPage.body), url).not.toContain("Anna Esposito");

    expect(personalPartOf(visitorPage.body), url).toMatchObject({ user: null, cart: { count: 0 } });
    expect(personalPartOf(customerPage.body), url).toMatchObject({ user: { name: "Anna Esposito" }, cart: { count: 2 } });
    // What the server drew from it: the account menu's name and the cart's count.
    expect(customerPage.body, url).toMatch(/\(Anna Esposito\)<\/span>/);
    expect(visitorPage.body, url).not.toContain("Anna Esposito");
  }

  // A client navigation: the part in the root's loader data, no script.
  const data = await shop.request(`/categoria/${params.category}.data`, { cookie: customer });
  expect(data.status).toBe(200);
  expect(data.body).toContain("Anna Esposito");
  expect(data.body).not.toContain("personal-part");
});

test("a post answered with a page (no JavaScript) still writes the personal part for its render", { timeout: 60_000 }, async () => {
  const session = await signIn(shop, "customer", "bruno.personale@example.it");
  // The contact form refused: its page is rendered again for the same signed-in customer.
  const answer = await shop.request("/contact", { form: { name: "" }, headers: { Origin: shop.publicUrl }, cookie: session });
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(personalPartOf(answer.body)).toMatchObject({ user: { name: "Anna Esposito" } });
  expect(answer.body).toMatch(/\(Anna Esposito\)<\/span>/);
});

test("text that looks like markup stays data in the personal part: no end of script, the same text read back", () => {
  // A product's name on a cart line is the staff's text; a user's name is checked at registration.
  const name = '</script><script>alert("x1")</script><!-- \u2028';
  const part: PersonalPart = {
    user: { name, email: "anna@example.it", role: "customer" },
    cart: { count: 1, voucherCount: 0, voucherCents: 0, lines: [], subtotalCents: 0, giftList: null, flash: [] },
    giftListFilling: null,
    giftListChoices: [{ id: "0b7a3c4e-1f2a-4b5c-8d9e-0123456789ab", title: name, code: "AB12CD" }],
    savedItems: { wishlist: [], compare: [] },
  };
  const html = renderToString(createElement(DocumentPersonalPart, { value: part }, createElement(PersonalPartScript)));
  const script = /^<script type="application\/json" id="personal-part">([\s\S]*)<\/script>$/.exec(html)?.[1] ?? "";
  expect(script).not.toContain("<");
  expect(personalPartOf(html)?.user?.name).toBe(name);
});
