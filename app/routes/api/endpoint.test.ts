/**
 * The contract of /api (docs/rules.md#http-api), through the real route handlers with Request objects, on the sample
 * catalogue: every endpoint answers a valid request with 200 in the shape its OpenAPI schema gives
 * (checked with its zod schema, and the served document's JSON Schema is the one generated from it);
 * and every endpoint refuses what it must (no token, expired or forged token, another customer's data,
 * malformed JSON, wrong types, missing and unknown fields, oversize bodies, cross-site cookie calls)
 * with the right 4xx, a clear message, and nothing changed in the database.
 */
import crypto from "node:crypto";
import { and, asc, eq, gte, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { clientIpHeader } from "#server/accounts/auth-request.ts";
import { callerFor, createTestAuthServices, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { registerCustomer } from "#server/accounts/auth-flows.service.ts";
import { answerApiPreflight } from "#server/http/api/api-handler.ts";
import { maxApiBodyBytes } from "#server/http/api/api-http.ts";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import type { ApiEndpoint } from "#server/http/api/api-route.ts";
import type { DbHandle } from "#server/db/client.ts";
import {
  addresses,
  cartVouchers,
  carts,
  giftCards,
  giftListFunds,
  giftListInvitations,
  giftListItems,
  giftLists,
  orders,
  orderVouchers,
  productColours,
  productVariants,
  products,
  profiles,
  sessions,
  shopSettings,
  subcategories,
  users,
} from "#server/db/schema.ts";
import { seedSampleCatalogue } from "#server/db/seed.ts";
import { issueGiftCard } from "#server/gift-cards/gift-card.service.ts";
import { newGiftCardCode } from "#server/gift-cards/gift-card.ts";
import { shopContext } from "#server/http/context.ts";
import { submitTestPayment } from "#server/payments/payment.service.ts";
import { addGiftListFund } from "#server/vouchers/gift-list-fund.service.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { createTestDb } from "#tests/db.ts";
import * as endpointRoute from "./endpoint";
import * as openApiRoute from "./openapi-json";
import messagesEn from "#messages/en.json";

const password = "Tr3no-Blu-Vesuvio";
const slow = { timeout: 120_000 };

type Shop = {
  handle: DbHandle;
  services: ReturnType<typeof createTestAuthServices>;
  tokens: { anna: string; bruno: string; expired: string };
  jars: { anna: CookieJar };
  subcategorySlug: string;
  /** A published, one-size, colour-less product with stock, for gift lists and checkout. */
  simple: { productId: number; variantId: number };
};
let shop: Shop;

async function signIn(services: Shop["services"], name: string, email: string) {
  await registerCustomer(services, callerFor("/"), { name, email, password, passwordConfirm: password, privacy: "on" });
  const response = await services.auth.handler(
    new Request(`${testPublicUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: testPublicUrl, [clientIpHeader]: "203.0.113.9" },
      body: JSON.stringify({ email, password }),
    }),
  );
  expect(response.status).toBe(200);
  return { token: response.headers.get("set-auth-token")!, jar: new CookieJar().take(response.headers) };
}

beforeAll(async () => {
  const handle = await createTestDb();
  await seedSampleCatalogue(handle.db, { now: new Date() });
  const services = createTestAuthServices(handle.db);
  const anna = await signIn(services, "Anna Esposito", "anna@example.com");
  const bruno = await signIn(services, "Bruno Russo", "bruno@example.com");
  const carla = await signIn(services, "Carla Bianchi", "carla@example.com");
  const [carlaRow] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, "carla@example.com"));
  await handle.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sessions.userId, carlaRow!.id));
  const [subcategory] = await handle.db.select({ slug: subcategories.slug }).from(subcategories).orderBy(asc(subcategories.id)).limit(1);
  const [simple] = await handle.db
    .select({ productId: products.id, variantId: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        eq(products.isPublished, true),
        eq(products.isOnRequest, false),
        isNull(products.personalisationFields),
        isNull(productVariants.colourId),
        eq(productVariants.size, "TAGLIA_UNICA"),
        gte(productVariants.stock, 20),
      ),
    )
    .orderBy(asc(productVariants.id))
    .limit(1);
  shop = {
    handle,
    services,
    tokens: { anna: anna.token, bruno: bruno.token, expired: carla.token },
    jars: { anna: anna.jar },
    subcategorySlug: subcategory!.slug,
    simple: simple!,
  };
}, 300_000);

afterAll(() => shop?.handle.close());

type CallOptions = {
  token?: string;
  jar?: CookieJar;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  method?: string;
};

/** A request as a client sends it, through the route module the router calls. */
async function call(endpointPath: string, options: CallOptions & { method: string }) {
  const url = new URL(endpointPath, testPublicUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.jar) headers.set("Cookie", options.jar.header());
  const hasBody = options.rawBody !== undefined || options.body !== undefined;
  if (hasBody && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const request = new Request(url, {
    method: options.method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const args = { request, context: routeContext(shop.services), params: { "*": endpointPath.slice(5) } } as never;
  const response = options.method === "GET" ? await endpointRoute.loader(args) : await endpointRoute.action(args);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as unknown) : null };
}

const callEndpoint = (endpoint: ApiEndpoint, options: CallOptions = {}) => call(endpoint.path, { method: endpoint.method, ...options });

/** What an API call may change for customers: any difference after a refused call is a bug. */
async function customerRows() {
  const db = shop.handle.db;
  const [userRows, profileRows, addressRows] = await Promise.all([
    db.select({ id: users.id, name: users.name, email: users.email, updatedAt: users.updatedAt }).from(users).orderBy(asc(users.id)),
    db.select().from(profiles).orderBy(asc(profiles.userId)),
    db.select().from(addresses).orderBy(asc(addresses.id)),
  ]);
  return { userRows, profileRows, addressRows };
}

const ErrorBody = z.strictObject({
  error: z.strictObject({ code: z.string(), message: z.string().min(10), fields: z.record(z.string(), z.string()).optional() }),
});

function expectError(answer: { status: number; json: unknown }, status: number, code: string) {
  expect(answer.status).toBe(status);
  const body = ErrorBody.parse(answer.json);
  expect(body.error.code).toBe(code);
  return body.error;
}

const annaHome = {
  label: "Casa",
  firstName: "Anna",
  lastName: "Esposito",
  street: "Via dell'Orto",
  houseNumber: "12/B",
  postcode: "80013",
  city: "Casalnuovo di Napoli",
  province: "NA",
  phone: "+39 333 123 4567",
};

async function annasAddressId() {
  const added = await call("/api/addaddress", {
    method: "POST",
    token: shop.tokens.anna,
    body: { ...annaHome, label: `Casa ${Math.random().toString(36).slice(2, 7)}` },
  });
  expect(added.status).toBe(200);
  return (added.json as { id: number }).id;
}

/** A date some months ahead, for new gift lists. */
const futureDate = () => new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);

const listValues = (shippingAddressId: number | null) => ({
  title: "Lista di Sofia",
  type: "nascita",
  eventDate: futureDate(),
  celebratedNames: "Sofia Esposito",
  messageToGuests: "Grazie a tutti!",
  shippingAddressId,
  visibility: "public",
});

async function newAnnaList(values: Record<string, unknown> = {}) {
  const created = await call("/api/setListaRegalo", {
    method: "POST",
    token: shop.tokens.anna,
    body: { values: { ...listValues(null), ...values } },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return created.json as { code: string; items: { id: string }[] };
}

/** Anna's list shipped to one of her addresses, holding the simple product: made once. */
let annasList: Promise<{ code: string; addressId: number; itemId: string }> | null = null;
function annasGiftList() {
  annasList ??= (async () => {
    const addressId = await annasAddressId();
    const { code } = await newAnnaList({ title: "Lista di Sofia Vesuviana", shippingAddressId: addressId });
    const added = await call("/api/ProdinListaRegalo", {
      method: "POST",
      token: shop.tokens.anna,
      body: { var1: code, var2: shop.simple.productId, var3: null, var4: 2, selectedSize: null },
    });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    return { code, addressId, itemId: (added.json as { items: { id: string }[] }).items[0]!.id };
  })();
  return annasList;
}

const checkoutBody = (extra: Record<string, unknown> = {}) => ({
  idempotencyKey: crypto.randomUUID(),
  firstName: "Anna",
  lastName: "Esposito",
  email: "anna@example.com",
  phone: "+39 333 123 4567",
  deliveryMethod: "standard",
  paymentMethod: "card",
  street: "Via Roma",
  houseNumber: "1",
  postcode: "00184",
  city: "Roma",
  province: "RM",
  acceptTerms: true,
  lines: [{ variantId: shop.simple.variantId, quantity: 1 }],
  ...extra,
});

/** A valid request per endpoint, and what the answer must show beyond its schema. */
const validCases: Record<string, () => Promise<{ options: CallOptions; check?: (json: unknown) => void | Promise<void> }>> = {
  "GET /api/getListaProdotti": async () => ({
    options: {},
    check: (json) => {
      const products = json as { id: number; safety: { warnings: string[] } }[];
      expect(products.length).toBeGreaterThan(100);
      // GPSR article 19: every sample product carries its safety data; a non-EU manufacturer comes with its EU responsible person.
      expect(products.filter((product) => product.safety.warnings.length === 0)).toEqual([]);
      expect(products.find((product) => product.id === 122)?.safety).toMatchObject({
        manufacturer: { name: "Harbourline Nursery Ltd", countryCode: "GB", email: "productsafety@harbourline.example" },
        responsiblePerson: { name: "EuroSafe Rappresentanze S.r.l.", countryCode: "IT" },
        model: "JOI00122",
        recalls: [],
      });
      // Issue 41: a car seat's specifications as data (docs/decisions/0101-product-specifications.md); other products have none.
      const withSpecs = json as { id: number; specifications: Record<string, unknown> | null }[];
      expect(withSpecs.find((product) => product.id === 122)?.specifications).toEqual({
        kind: "car_seat",
        statureCm: { min: 40, max: 105 },
        r44Group: null,
        isofix: true,
        rotation360: true,
        ageMonths: { min: 0, max: 48 },
        maxChildWeightKg: 18,
        weightKg: null,
        foldedCm: null,
        fromBirth: null,
        carrycotCompatible: null,
      });
      expect(withSpecs.find((product) => product.id === 27)?.specifications).toMatchObject({
        kind: "stroller",
        weightKg: 7.2,
        foldedCm: { length: 56, width: 30, height: 57 },
      });
      expect(withSpecs.find((product) => product.id === 180)?.specifications).toBeNull();
    },
  }),
  "GET /api/public/foto": async () => ({
    options: {},
    check: (json) => expect((json as { url: string }[])[0]!.url).toMatch(/^http:\/\/shop\.test\/media\/products\/.+\.webp$/),
  }),
  "GET /api/public/bundles": async () => ({
    options: {},
    check: (json) => {
      const [trio, bath] = json as {
        productId: number;
        price: number;
        saved: number;
        parts: { productId: number }[];
        combinations: { color: string; stock: number; parts: unknown[] }[];
      }[];
      expect(trio).toMatchObject({ productId: 300, price: 899, priceRule: "fixed" });
      expect(trio!.parts.map((part) => part.productId)).toEqual([24, 37, 121]);
      expect(trio!.combinations.map((combination) => [combination.color, combination.parts.length])).toEqual([
        ["black", 3],
        ["blue", 3],
      ]);
      expect(bath).toMatchObject({ productId: 301, priceRule: "percent_off", percentOff: 15 });
      expect(bath!.saved).toBeGreaterThan(0);
    },
  }),
  "POST /api/getCategoria": async () => ({
    options: { body: { categoria: "A-spasso" } },
    check: (json) => {
      const found = json as { category: string[] }[];
      expect(found.length).toBeGreaterThan(0);
      for (const product of found) expect(product.category).toContain("A-spasso");
    },
  }),
  "POST /api/getSottocategoria": async () => ({
    options: { body: { sottocategoria: shop.subcategorySlug } },
    check: (json) => {
      for (const product of json as { sottocategoria: string }[]) expect(product.sottocategoria).toBe(shop.subcategorySlug);
    },
  }),
  "POST /api/setInfo": async () => ({
    options: { token: shop.tokens.anna, body: { name: "Anna Esposito", phone: "+39 333 765 4321", fiscalCode: null } },
    check: (json) => expect(json).toMatchObject({ name: "Anna Esposito", phone: "+39 333 765 4321", email: "anna@example.com" }),
  }),
  "POST /api/modifyInfo": async () => ({
    options: { token: shop.tokens.anna, body: { phone: "+39 081 842 0000" } },
    check: (json) => expect(json).toMatchObject({ name: "Anna Esposito", phone: "+39 081 842 0000" }),
  }),
  "POST /api/addaddress": async () => ({
    options: { token: shop.tokens.anna, body: { ...annaHome, province: "na" } },
    check: (json) => expect(json).toMatchObject({ city: "Casalnuovo di Napoli", province: "NA" }),
  }),
  "POST /api/updateaddress": async () => {
    const id = await annasAddressId();
    return {
      options: { token: shop.tokens.anna, body: { id, ...annaHome, city: "Napoli", postcode: "80134" } },
      check: (json) => expect(json).toMatchObject({ id, city: "Napoli" }),
    };
  },
  "POST /api/deleteaddress": async () => {
    const id = await annasAddressId();
    return {
      options: { token: shop.tokens.anna, body: { id } },
      check: async (json) => {
        expect(json).toEqual({ deleted: id });
        expect(await shop.handle.db.select().from(addresses).where(eq(addresses.id, id))).toEqual([]);
      },
    };
  },
  "GET /api/setInfoEmail": async () => ({
    options: { token: shop.tokens.anna },
    check: (json) => expect(json).toEqual({ email: "anna@example.com", emailVerified: false }),
  }),
  "POST /api/joinLoyaltyCard": async () => ({
    options: { token: shop.tokens.anna, body: { consent: true } },
    check: (json) => expect(json).toMatchObject({ joined: true, number: expect.stringMatching(/^27[0-9]{10}$/), balance: 0, history: [] }),
  }),
  "GET /api/getLoyaltyCard": async () => ({
    options: { token: shop.tokens.bruno },
    check: (json) => expect(json).toMatchObject({ joined: false, number: null, balance: 0 }),
  }),
  "GET /api/getAllinformation": async () => ({
    options: { token: shop.tokens.anna },
    check: (json) => expect(json).toMatchObject({ info: { email: "anna@example.com" } }),
  }),
  "GET /api/public/lista-regalo/search-id": async () => {
    const { code } = await annasGiftList();
    return {
      options: { query: { codice: code.toLowerCase() } },
      check: (json) =>
        expect(json).toEqual({
          code,
          title: "Lista di Sofia Vesuviana",
          type: "nascita",
          eventDate: futureDate(),
          celebratedNames: "Sofia Esposito",
        }),
    };
  },
  "GET /api/public/lista-regalo/search-name": async () => {
    const { code } = await annasGiftList();
    return {
      options: { query: { name: "sofia vesuviana" } },
      check: (json) => expect((json as { code: string }[]).map((list) => list.code)).toContain(code),
    };
  },
  "GET /api/public/lista-regalo/search-products": async () => {
    const { code } = await annasGiftList();
    return {
      options: { query: { codice: code } },
      check: (json) => {
        expect(json).toMatchObject({
          code,
          isOpen: true,
          isCollection: false,
          items: [{ productId: shop.simple.productId, quantityWished: 2, stillNeeded: 2, maxAddable: 2 }],
        });
        expect(JSON.stringify(json)).not.toMatch(/Via dell'Orto|80013/);
      },
    };
  },
  "POST /api/setListaRegalo": async () => ({
    options: { token: shop.tokens.anna, body: { values: listValues(null) } },
    check: (json) =>
      expect(json).toMatchObject({
        title: "Lista di Sofia",
        status: "open",
        shippingAddressId: null,
        canDelete: true,
        items: [],
        code: expect.stringMatching(/^[A-HJ-KM-NP-Z2-9]{8}$/),
      }),
  }),
  "POST /api/updateListaRegalo": async () => {
    const { code, addressId } = await annasGiftList();
    return {
      options: {
        token: shop.tokens.anna,
        body: { values: { codiceLista: code, ...listValues(addressId), title: "Lista di Sofia Vesuviana", messageToGuests: "Vi aspettiamo!" } },
      },
      check: (json) => expect(json).toMatchObject({ code, messageToGuests: "Vi aspettiamo!", shippingAddressId: addressId }),
    };
  },
  "GET /api/getListeUtente": async () => {
    const { code } = await annasGiftList();
    return { options: { token: shop.tokens.anna }, check: (json) => expect((json as { code: string }[]).map((list) => list.code)).toContain(code) };
  },
  "POST /api/deleteListaRegalo": async () => {
    const { code } = await newAnnaList();
    return {
      options: { token: shop.tokens.anna, body: { codiceLista: code } },
      check: async (json) => {
        expect(json).toEqual({ deleted: code });
        expect(await shop.handle.db.select().from(giftLists).where(eq(giftLists.code, code))).toEqual([]);
      },
    };
  },
  "POST /api/getProdLista": async () => {
    const { code, itemId } = await annasGiftList();
    return {
      options: { token: shop.tokens.anna, body: { var1: code } },
      check: (json) => expect(json).toMatchObject({ code, items: [{ id: itemId }] }),
    };
  },
  "POST /api/ProdinListaRegalo": async () => {
    const { code } = await newAnnaList();
    return {
      options: { token: shop.tokens.anna, body: { var1: code, var2: shop.simple.productId, var3: null, var4: 3, selectedSize: null } },
      check: (json) =>
        expect(json).toMatchObject({
          code,
          items: [{ productId: shop.simple.productId, variantId: shop.simple.variantId, quantityWished: 3, quantityBought: 0 }],
        }),
    };
  },
  "POST /api/updateProdLista": async () => {
    const { code, itemId } = await annasGiftList();
    return {
      options: { token: shop.tokens.anna, body: { codiceLista: code, itemId, quantity: 4 } },
      check: (json) => expect(json).toMatchObject({ items: [{ id: itemId, quantityWished: 4 }] }),
    };
  },
  "POST /api/lista-regalo/send-emails": async () => {
    const { code } = await annasGiftList();
    return {
      options: { token: shop.tokens.anna, body: { values: { codiceLista: code, emails: ["nonna.rosa@example.com", "zio.gennaro@example.com"] } } },
      check: (json) => expect(json).toEqual({ sent: 2 }),
    };
  },
  "GET /api/lista-regalo/search-address": async () => {
    const { code, addressId } = await annasGiftList();
    return {
      options: { token: shop.tokens.anna, query: { idIndirizzo: String(addressId) } },
      check: (json) => expect(json).toMatchObject({ id: addressId, city: "Casalnuovo di Napoli", giftLists: [code] }),
    };
  },
  "POST /api/createcheckoutsession": async () => ({
    options: { token: shop.tokens.anna, body: checkoutBody() },
    check: (json) => {
      const session = json as { orderNumber: number; url: string; sessionId: string | null };
      expect(session.sessionId).toBeTruthy();
      expect(session.url).toMatch(/^http:\/\/shop\.test\//);
    },
  }),
  "GET /api/public/carta-regalo/saldo": async () => {
    const card = await issueGiftCard(shop.handle.db, { origin: "counter", amountCents: 2500, now: new Date() });
    return {
      options: { query: { codice: card.code.toLowerCase() } },
      check: (json) => expect(json).toMatchObject({ codeTail: card.code.slice(-4), balanceCents: 2500, initialCents: 2500, balance: 25 }),
    };
  },
};

const keyOf = (endpoint: ApiEndpoint) => `${endpoint.method} ${endpoint.path}`;

/** `#/components/schemas/X` references inlined, so documents can be compared with zod's own output. */
function inline(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components));
  if (schema && typeof schema === "object") {
    const ref = (schema as { $ref?: string }).$ref;
    if (ref) return inline(components[ref.replace("#/components/schemas/", "")] ?? components[ref.replace("#/$defs/", "")], components);
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inline(value, components)]));
  }
  return schema;
}

function zodJsonSchema(schema: z.ZodType, io: "input" | "output") {
  const {
    $schema: _dialect,
    $defs,
    ...root
  } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  return inline(root, ($defs ?? {}) as Record<string, unknown>);
}

async function servedDocument() {
  const response = openApiRoute.loader({
    request: new Request(`${testPublicUrl}/api/openapi.json`),
    context: routeContext(shop.services),
    params: {},
  } as never);
  return (await response.json()) as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: unknown }> };
          responses: Record<string, { content: Record<string, { schema: unknown }> }>;
        }
      >
    >;
    components: { schemas: Record<string, unknown> };
  };
}

test("every endpoint of the registry has a valid-request case here, and the paths are those of the original client", () => {
  expect(apiEndpoints.map(keyOf).sort()).toEqual(Object.keys(validCases).sort());
});

describe.each(apiEndpoints.map((endpoint) => [keyOf(endpoint), endpoint] as const))("%s", (_name, endpoint) => {
  test("a valid request answers 200 in the shape of its OpenAPI schema", slow, async () => {
    const { options, check } = await validCases[keyOf(endpoint)]!();
    const answer = await callEndpoint(endpoint, options);
    expect(answer.status, JSON.stringify(answer.json).slice(0, 500)).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    // zod drops keys it does not know: equal means no field outside the schema either.
    expect(endpoint.response.parse(answer.json)).toEqual(answer.json);
    await check?.(answer.json);

    const document = await servedDocument();
    const operation = document.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
    const documented = operation.responses["200"]!.content["application/json"]!.schema;
    expect(inline(documented, document.components.schemas)).toEqual(zodJsonSchema(endpoint.response, "output"));
    if (endpoint.body) {
      expect(inline(operation.requestBody!.content["application/json"]!.schema, document.components.schemas)).toEqual(
        zodJsonSchema(endpoint.body, "input"),
      );
    }
  });

  if (endpoint.auth === "user") {
    test("no token, a forged or expired token, a malformed Authorization header: 401, nothing changed", slow, async () => {
      const { options } = await validCases[keyOf(endpoint)]!();
      const before = await customerRows();
      const { token: _valid, ...withoutToken } = options;
      expectError(await callEndpoint(endpoint, withoutToken), 401, "unauthorized");
      expectError(await callEndpoint(endpoint, { ...withoutToken, token: shop.tokens.expired }), 401, "unauthorized");
      expectError(await callEndpoint(endpoint, { ...withoutToken, token: `${shop.tokens.anna.split(".")[0]}.forged` }), 401, "unauthorized");
      expectError(await callEndpoint(endpoint, { ...withoutToken, headers: { Authorization: "Basic YW5uYTpzZWdyZXRv" } }), 401, "unauthorized");
      // A bearer token wins over a cookie: a bad token is not rescued by Anna's session cookie.
      expectError(
        await callEndpoint(endpoint, { ...withoutToken, token: "not-a-token", jar: shop.jars.anna, headers: { Origin: testPublicUrl } }),
        401,
        "unauthorized",
      );
      expect(await customerRows()).toEqual(before);
    });
  }

  if (endpoint.auth === "user" && endpoint.method === "POST") {
    test("Anna's session cookie from another site: 403, nothing changed; from the shop's own pages it works", slow, async () => {
      const { options } = await validCases[keyOf(endpoint)]!();
      const { token: _valid, ...withoutToken } = options;
      const before = await customerRows();
      const crossSite: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
        {},
      ];
      for (const headers of crossSite) {
        expectError(await callEndpoint(endpoint, { ...withoutToken, jar: shop.jars.anna, headers }), 403, "cross-site-request");
      }
      expect(await customerRows()).toEqual(before);
      const sameSite = await callEndpoint(endpoint, {
        ...withoutToken,
        jar: shop.jars.anna,
        headers: { Origin: testPublicUrl, "Sec-Fetch-Site": "same-origin" },
      });
      expect(sameSite.status).toBe(200);
    });
  }

  if (endpoint.method === "POST") {
    test(
      "malformed JSON, wrong types, missing and unknown fields, other media types, oversize bodies: 4xx in the caller's language, nothing changed",
      slow,
      async () => {
        const { options } = await validCases[keyOf(endpoint)]!();
        const valid = options.body as Record<string, unknown>;
        const before = await customerRows();
        const send = (extra: CallOptions) => callEndpoint(endpoint, { token: options.token, ...extra });

        expectError(await send({ rawBody: '{"categoria": "A-spasso",' }), 400, "invalid-json");
        expectError(await send({ rawBody: "" }), 400, "invalid-json");
        expect(
          expectError(await send({ rawBody: "{oops", headers: { "Accept-Language": "en-GB,en;q=0.9,it;q=0.5" } }), 400, "invalid-json").message,
        ).toBe("The request body is not valid JSON.");

        const [firstField, firstValue] = Object.entries(valid)[0]!;
        const wrongType = typeof firstValue === "number" ? "dodici" : typeof firstValue === "boolean" ? "yes" : 12345;
        const typeError = expectError(await send({ body: { ...valid, [firstField]: wrongType } }), 400, "invalid-input");
        expect(typeError.fields?.[firstField]).toMatch(/^Tipo non valido/);
        expectError(await send({ body: [valid] }), 400, "invalid-input");
        expectError(await send({ body: "text" }), 400, "invalid-input");

        const required = (endpoint.body as z.ZodObject).shape as Record<string, z.ZodType>;
        const requiredNames = Object.keys(required).filter((name) => !required[name]!.safeParse(undefined).success);
        if (requiredNames.length > 0) {
          const missing = expectError(await send({ body: {} }), 400, "invalid-input");
          for (const name of requiredNames) expect(missing.fields?.[name]).toBe("Campo obbligatorio.");
        }

        const unknown = expectError(await send({ body: { ...valid, prezzo: 0.01 } }), 400, "invalid-input");
        expect(unknown.fields).toEqual({ prezzo: "Campo non previsto." });

        expectError(await send({ rawBody: JSON.stringify(valid), headers: { "Content-Type": "text/plain" } }), 415, "unsupported-media-type");
        expectError(
          await send({ rawBody: new URLSearchParams({ x: "1" }).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
          415,
          "unsupported-media-type",
        );

        const huge = JSON.stringify({ ...valid, padding: "x".repeat(maxApiBodyBytes) });
        expectError(await send({ rawBody: huge }), 413, "payload-too-large");
        expectError(
          await send({ rawBody: huge, headers: { "Content-Type": "application/json", "Content-Length": String(huge.length) } }),
          413,
          "payload-too-large",
        );

        expect(await customerRows()).toEqual(before);
      },
    );
  }

  test("an unknown query parameter is refused, and the other method is 405", slow, async () => {
    const { options } = await validCases[keyOf(endpoint)]!();
    const error = expectError(await callEndpoint(endpoint, { ...options, query: { ...options.query, debug: "1" } }), 400, "invalid-input");
    expect(error.fields).toEqual({ debug: "Campo non previsto." });
    const other = await call(endpoint.path, { method: endpoint.method === "GET" ? "POST" : "GET", token: options.token });
    expectError(other, 405, "method-not-allowed");
    expect(other.headers.get("allow")).toBe(endpoint.method);
  });
});

test("another customer's address: 404 to Bruno, and Anna's address is untouched", slow, async () => {
  const id = await annasAddressId();
  const before = await customerRows();
  expectError(
    await call("/api/updateaddress", {
      method: "POST",
      token: shop.tokens.bruno,
      body: { id, ...annaHome, city: "Roma", province: "RM", postcode: "00100" },
    }),
    404,
    "not-found",
  );
  expectError(await call("/api/deleteaddress", { method: "POST", token: shop.tokens.bruno, body: { id } }), 404, "not-found");
  expect(await customerRows()).toEqual(before);
  const brunos = await call("/api/getAllinformation", { method: "GET", token: shop.tokens.bruno });
  expect(brunos.json).toMatchObject({ info: { email: "bruno@example.com" }, addresses: [] });
});

test("the shop's own rules answer with their messages: a postcode of four digits, an unknown province", slow, async () => {
  const before = await customerRows();
  const refused = expectError(
    await call("/api/addaddress", { method: "POST", token: shop.tokens.anna, body: { ...annaHome, postcode: "8001", province: "ZZ" } }),
    400,
    "invalid-input",
  );
  expect(Object.keys(refused.fields ?? {}).sort()).toEqual(["postcode", "province"]);
  for (const message of Object.values(refused.fields ?? {})) expect(message).not.toMatch(/^auth\./);
  expect(await customerRows()).toEqual(before);
});

test("products come in the client form: prices with 2 decimals, variants with sizes, simple products with stock", slow, async () => {
  const answer = await call("/api/getListaProdotti", { method: "GET", headers: { "Accept-Language": "en" } });
  const products = answer.json as Record<string, unknown>[];
  for (const product of products) {
    expect(Math.round((product.price as number) * 100) / 100).toBe(product.price);
    expect("stock" in product !== "variation" in product).toBe(true);
    expect(["{}", "Non Supportata"]).toContain(product.personalizzazione);
  }
  const withSizes = products.find((product) => (product.variation as unknown[] | undefined)?.length);
  expect(withSizes?.variation).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ size: expect.arrayContaining([expect.objectContaining({ prenotazione: expect.stringMatching(/^(Si|No)$/) })]) }),
    ]),
  );
  const italian = (await call("/api/getListaProdotti", { method: "GET" })).json as { id: number; name: string }[];
  expect(italian.map((product) => product.id)).toEqual(products.map((product) => product.id));
  expect(italian.some((product, index) => product.name !== products[index]!.name)).toBe(true);
});

test("an unknown category or subcategory is 404; an unknown /api path is a JSON 404", slow, async () => {
  expectError(await call("/api/getCategoria", { method: "POST", body: { categoria: "nessuna" } }), 404, "not-found");
  expectError(await call("/api/getSottocategoria", { method: "POST", body: { sottocategoria: "nessuna" } }), 404, "not-found");
  expectError(await call("/api/getListaProdottiTutti", { method: "GET" }), 404, "not-found");
});

test("CORS only for the origins in settings; preflights likewise", slow, async () => {
  const friendly = "https://app.bimbifelici.example";
  const asked = () => call("/api/getListaProdotti", { method: "GET", headers: { Origin: friendly } });
  expect((await asked()).headers.get("access-control-allow-origin")).toBeNull();
  const preflight = (origin: string) =>
    answerApiPreflight(
      new Request(`${testPublicUrl}/api/setInfo`, { method: "OPTIONS", headers: { Origin: origin } }),
      routeContext(shop.services).get(shopContext),
    );
  expect((await preflight(friendly)).status).toBe(403);

  await shop.handle.db
    .insert(shopSettings)
    .values({ key: "api", value: { allowedOrigins: [friendly] } })
    .onConflictDoUpdate({ target: shopSettings.key, set: { value: { allowedOrigins: [friendly] } } });
  expect((await asked()).headers.get("access-control-allow-origin")).toBe(friendly);
  const allowed = await preflight(friendly);
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get("access-control-allow-headers")).toContain("Authorization");
  expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
  expect((await preflight("https://evil.example")).status).toBe(403);
  // An allowed site still cannot use Anna's cookie to change anything: it must send her token.
  expectError(
    await call("/api/setInfo", { method: "POST", jar: shop.jars.anna, headers: { Origin: friendly }, body: { name: "Mallory" } }),
    403,
    "cross-site-request",
  );
});

test("the OpenAPI document is 3.1, lists every endpoint once, and refers only to schemas it has", slow, async () => {
  const document = await servedDocument();
  expect(document.openapi).toBe("3.1.0");
  expect(
    Object.entries(document.paths)
      .flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`))
      .sort(),
  ).toEqual(apiEndpoints.map(keyOf).sort());
  const refs = JSON.stringify(document).match(/#\/components\/schemas\/[A-Za-z]+/g) ?? [];
  for (const ref of new Set(refs)) expect(document.components.schemas).toHaveProperty(ref.split("/").at(-1)!);
  expect(document.components.schemas).toHaveProperty("ClientSpecifications");
  // Issue 41: gift cards, funds, points and bundles are part of the contract.
  for (const name of ["GiftCardPurchaseInput", "FundContributionInput", "GiftListFund", "OwnerGiftListFund", "LoyaltyCard"]) {
    expect(document.components.schemas).toHaveProperty(name);
  }
  const checkout = document.paths["/api/createcheckoutsession"]!.post!.requestBody!.content["application/json"]!.schema as { properties: object };
  expect(Object.keys(checkout.properties)).toEqual(
    expect.arrayContaining(["giftCardCode", "giftCards", "fundContributions", "loyaltyPoints", "lines"]),
  );
  expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/api/public/bundles", "/api/getLoyaltyCard", "/api/joinLoyaltyCard"]));
});

/** What the gift-list calls may change: any difference after a refused call is a bug. */
async function giftListRows() {
  const db = shop.handle.db;
  const [lists, items, invitations] = await Promise.all([
    db.select().from(giftLists).orderBy(asc(giftLists.id)),
    db.select().from(giftListItems).orderBy(asc(giftListItems.id)),
    db.select().from(giftListInvitations).orderBy(asc(giftListInvitations.id)),
  ]);
  return { lists, items, invitations };
}

test("another customer's gift list or address: 404 to Bruno for every call, and Anna's list is untouched", slow, async () => {
  const { code, addressId, itemId } = await annasGiftList();
  const before = await giftListRows();
  const bruno = (endpointPath: string, body: unknown) => call(endpointPath, { method: "POST", token: shop.tokens.bruno, body });
  expectError(await bruno("/api/getProdLista", { var1: code }), 404, "not-found");
  expectError(await bruno("/api/updateListaRegalo", { values: { codiceLista: code, ...listValues(null), title: "Rubata" } }), 404, "not-found");
  expectError(await bruno("/api/deleteListaRegalo", { codiceLista: code }), 404, "not-found");
  expectError(
    await bruno("/api/ProdinListaRegalo", { var1: code, var2: shop.simple.productId, var3: null, var4: 1, selectedSize: null }),
    404,
    "not-found",
  );
  expectError(await bruno("/api/updateProdLista", { codiceLista: code, itemId, quantity: 1 }), 404, "not-found");
  expectError(await bruno("/api/lista-regalo/send-emails", { values: { codiceLista: code, emails: "spam@example.com" } }), 404, "not-found");
  expectError(
    await call("/api/lista-regalo/search-address", { method: "GET", token: shop.tokens.bruno, query: { idIndirizzo: String(addressId) } }),
    404,
    "not-found",
  );
  expect((await call("/api/getListeUtente", { method: "GET", token: shop.tokens.bruno })).json).toEqual([]);
  expect(await giftListRows()).toEqual(before);
});

test("gift lists: the list pages' rules and messages, in the caller's language", slow, async () => {
  const { code } = await annasGiftList();
  const before = await giftListRows();
  const anna = (endpointPath: string, body: unknown, headers?: Record<string, string>) =>
    call(endpointPath, { method: "POST", token: shop.tokens.anna, body, headers });
  const blank = expectError(await anna("/api/setListaRegalo", { values: { ...listValues(null), title: " " } }), 400, "invalid-input");
  expect(blank.fields).toEqual({ "values.title": "Inserisci il titolo della lista." });
  const past = expectError(await anna("/api/setListaRegalo", { values: { ...listValues(null), eventDate: "2020-01-01" } }), 400, "invalid-input");
  expect(past.fields).toEqual({ "values.eventDate": "La data dell'evento non può essere nel passato." });
  const someoneElses = expectError(
    await anna("/api/setListaRegalo", { values: listValues(999_999) }, { "Accept-Language": "en" }),
    400,
    "invalid-input",
  );
  expect(Object.keys(someoneElses.fields ?? {})).toEqual(["values.shippingAddressId"]);
  const badMails = expectError(
    await anna("/api/lista-regalo/send-emails", { values: { codiceLista: code, emails: "nonna@example.com, non-una-mail" } }),
    400,
    "invalid-input",
  );
  expect(badMails.fields?.["values.emails"]).toContain("non-una-mail");
  expectError(
    await anna("/api/ProdinListaRegalo", { var1: code, var2: shop.simple.productId, var3: "viola", var4: 1, selectedSize: null }),
    404,
    "not-found",
  );
  // A colour sold in several sizes, sent without one: the caller is told to choose, not that the product is gone.
  const [sized] = await shop.handle.db
    .select({ productId: productVariants.productId, colour: productColours.colour })
    .from(productVariants)
    .innerJoin(productColours, eq(productColours.id, productVariants.colourId))
    .groupBy(productVariants.productId, productColours.colour)
    .having(sql`count(*) > 1`)
    .orderBy(asc(productVariants.productId))
    .limit(1);
  const noSize = { var1: code, var2: sized!.productId, var3: sized!.colour, var4: 1, selectedSize: null };
  const italianNoSize = expectError(await anna("/api/ProdinListaRegalo", noSize), 400, "invalid-input");
  expect(italianNoSize.fields).toEqual({ selectedSize: "Scegli una taglia prima di aggiungere il prodotto alla lista." });
  const englishNoSize = expectError(await anna("/api/ProdinListaRegalo", noSize, { "Accept-Language": "en" }), 400, "invalid-input");
  expect(englishNoSize.message).toBe("Choose a size before adding the product to the list.");
  expectError(await anna("/api/updateProdLista", { codiceLista: code, itemId: crypto.randomUUID(), quantity: 1 }), 404, "not-found");
  expect(await giftListRows()).toEqual(before);

  // Public lookups: a miss is 404, something that cannot be a code is 400, both with the page's message.
  const miss = expectError(await call("/api/public/lista-regalo/search-id", { method: "GET", query: { codice: "ZZZZZZZZ" } }), 404, "not-found");
  expect(miss.message).toBe("Lista non trovata.");
  expectError(await call("/api/public/lista-regalo/search-products", { method: "GET", query: { codice: "??" } }), 400, "invalid-code");
  expect((await call("/api/public/lista-regalo/search-name", { method: "GET", query: { name: "x" } })).json).toEqual([]);
});

test("gift card balance: a typo is 400 before any lookup, an unknown card 404, both in the caller's language", slow, async () => {
  const card = await issueGiftCard(shop.handle.db, { origin: "counter", amountCents: 1000, now: new Date() });
  const body = card.code.replace(/-/g, "");
  const typo = body.slice(0, 3) + (body[3] === "A" ? "B" : "A") + body.slice(4);
  const refused = expectError(await call("/api/public/carta-regalo/saldo", { method: "GET", query: { codice: typo } }), 400, "invalid-code");
  expect(refused.message).toBe("Il codice non è valido: controlla di averlo scritto bene (16 caratteri).");
  const unknown = newGiftCardCode();
  const miss = await call("/api/public/carta-regalo/saldo", { method: "GET", query: { codice: unknown }, headers: { "Accept-Language": "en" } });
  expect(expectError(miss, 404, "not-found").message).toBe("No gift card has this code.");
});

test("a code-only list is found by its code, never by name", slow, async () => {
  const { code } = await newAnnaList({ title: "Battesimo segreto di Luca", visibility: "code_only" });
  expect((await call("/api/public/lista-regalo/search-name", { method: "GET", query: { name: "segreto luca" } })).json).toEqual([]);
  expect((await call("/api/public/lista-regalo/search-id", { method: "GET", query: { codice: code } })).status).toBe(200);
});

test("createcheckoutsession: the same idempotencyKey gives one order and one session; another customer's key is refused", slow, async () => {
  const body = checkoutBody();
  const stockOf = async () =>
    (await shop.handle.db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, shop.simple.variantId)))[0]!
      .stock;
  const stock = await stockOf();
  const first = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body });
  expect(first.status, JSON.stringify(first.json)).toBe(200);
  const again = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body });
  expect(again.json).toEqual(first.json);
  expect(await stockOf()).toBe(stock - 1);
  expect(await shop.handle.db.select({ id: orders.id }).from(orders).where(eq(orders.idempotencyKey, body.idempotencyKey))).toHaveLength(1);
  expectError(
    await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.bruno, body: { ...body, email: "bruno@example.com" } }),
    409,
    "idempotency-key-conflict",
  );
});

test("createcheckoutsession refuses with the checkout page's codes and messages, ordering nothing", slow, async () => {
  const countOrders = async () => (await shop.handle.db.select({ id: orders.id }).from(orders)).length;
  const before = await countOrders();
  const send = (body: unknown, headers?: Record<string, string>) =>
    call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body, headers });
  const { lines: _lines, ...withoutLines } = checkoutBody();
  const empty = expectError(await send(withoutLines), 409, "empty-cart");
  expect(empty.message).toBe("Il carrello è vuoto: aggiungi almeno un prodotto prima di ordinare.");
  const terms = expectError(await send(checkoutBody({ acceptTerms: false, postcode: "8001" })), 400, "invalid-input");
  expect(terms.fields).toEqual({ acceptTerms: "Per ordinare devi accettare le condizioni di vendita.", postcode: expect.any(String) });
  const cod = expectError(
    await send(checkoutBody({ deliveryMethod: "collection", paymentMethod: "cash_on_delivery" }), { "Accept-Language": "en" }),
    400,
    "invalid-input",
  );
  expect(Object.keys(cod.fields ?? {})).toEqual(["paymentMethod"]);
  const tooMany = expectError(await send(checkoutBody({ lines: [{ variantId: shop.simple.variantId, quantity: 99 }] })), 400, "invalid-input");
  expect(Object.keys(tooMany.fields ?? {})).toEqual(["lines.0"]);
  expectError(await send(checkoutBody({ lines: [{ variantId: 2_000_000_000, quantity: 1 }] })), 400, "invalid-input");
  const badCode = expectError(await send(checkoutBody({ invoiceKind: "private", fiscalCode: "RSSMRA85T10A562T" })), 400, "invalid-input");
  expect(badCode.fields).toEqual({
    fiscalCode: "Il codice fiscale non è valido: controlla le 16 lettere e cifre (l'ultima è un carattere di controllo).",
  });
  const unknownCode = expectError(await send(checkoutBody({ discountCode: "NONESISTE" }), { "Accept-Language": "en" }), 400, "invalid-input");
  expect(unknownCode.message).toBe(messagesEn.checkout.discount.errors.unknown);
  expect(unknownCode.fields).toEqual({ discountCode: messagesEn.checkout.discount.errors.unknown });
  expect(await countOrders()).toBe(before);
});

test("createcheckoutsession takes a private person's invoice request with the codice fiscale", slow, async () => {
  const body = checkoutBody({ invoiceKind: "private", fiscalCode: "rssmra85t10a562s" });
  const placed = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body });
  expect(placed.status, JSON.stringify(placed.json)).toBe(200);
  const [order] = await shop.handle.db
    .select({ invoiceKind: orders.invoiceKind, fiscalCode: orders.fiscalCode })
    .from(orders)
    .where(eq(orders.idempotencyKey, body.idempotencyKey));
  expect(order).toEqual({ invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" });
});

/** A gift card as a client buys it through createcheckoutsession. */
const giftCardPurchase = (extra: Record<string, unknown> = {}) => ({
  amountCents: 5000,
  senderName: "Zia Carla",
  recipientName: "Giulia",
  delivery: "email",
  recipientEmail: "giulia@example.it",
  deliverOn: italianDayOf(new Date()),
  message: "Auguri!",
  ...extra,
});

/** Bruno's card payment on the test page, as he would click "pay". */
async function payOnTestPage(sessionId: string) {
  expect((await submitTestPayment(shop.services, { ref: sessionId, intent: "pay", locale: "it" })).ok).toBe(true);
}

test("createcheckoutsession buys gift cards without products: paid, the cards are issued", slow, async () => {
  const { lines: _lines, ...body } = checkoutBody({
    email: "bruno@example.com",
    giftCards: [giftCardPurchase(), giftCardPurchase({ amountCents: 2500, delivery: "print", recipientEmail: null, deliverOn: null })],
  });
  const placed = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.bruno, body });
  expect(placed.status, JSON.stringify(placed.json)).toBe(200);
  const { orderId, sessionId } = placed.json as { orderId: string; sessionId: string };
  const [order] = await shop.handle.db.select().from(orders).where(eq(orders.id, orderId));
  expect(order).toMatchObject({ subtotalCents: 0, voucherCents: 7500, shippingCents: 0, totalCents: 7500 });
  await payOnTestPage(sessionId);
  const issued = await shop.handle.db
    .select({ initialCents: giftCards.initialCents, origin: giftCards.origin })
    .from(giftCards)
    .where(eq(giftCards.purchaseOrderId, orderId))
    .orderBy(asc(giftCards.initialCents));
  expect(issued).toEqual([
    { initialCents: 2500, origin: "online" },
    { initialCents: 5000, origin: "online" },
  ]);
});

test("createcheckoutsession pays with a gift card by its code: all of it, or first with the card for the rest", slow, async () => {
  const big = await issueGiftCard(shop.handle.db, { origin: "counter", amountCents: 50_000, now: new Date() });
  const whole = checkoutBody({ giftCardCode: big.code.toLowerCase().replace(/-/g, " ") });
  const paid = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body: whole });
  expect(paid.status, JSON.stringify(paid.json)).toBe(200);
  expect((paid.json as { sessionId: string | null }).sessionId).toBeNull();
  const [byCard] = await shop.handle.db.select().from(orders).where(eq(orders.idempotencyKey, whole.idempotencyKey));
  expect(byCard!.giftCardCents).toBe(byCard!.totalCents);
  expect(byCard!.paidAt).not.toBeNull();

  const small = await issueGiftCard(shop.handle.db, { origin: "counter", amountCents: 1000, now: new Date() });
  const part = checkoutBody({ giftCardCode: small.code });
  const rest = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.anna, body: part });
  expect(rest.status, JSON.stringify(rest.json)).toBe(200);
  expect((rest.json as { sessionId: string | null }).sessionId).toBeTruthy();
  const [partly] = await shop.handle.db.select().from(orders).where(eq(orders.idempotencyKey, part.idempotencyKey));
  expect(partly).toMatchObject({ giftCardCents: 1000, paidAt: null });

  const unknown = expectError(
    await call("/api/createcheckoutsession", {
      method: "POST",
      token: shop.tokens.anna,
      body: checkoutBody({ giftCardCode: newGiftCardCode() }),
      headers: { "Accept-Language": "en" },
    }),
    400,
    "invalid-input",
  );
  expect(unknown.fields).toEqual({ giftCardCode: "No gift card has this code." });
});

test("createcheckoutsession refuses gift cards and contributions with the purchase page's messages, leaving nothing", slow, async () => {
  const db = shop.handle.db;
  const rows = async () => ({
    orders: (await db.select({ id: orders.id }).from(orders)).length,
    carts: (await db.select({ id: carts.id }).from(carts)).length,
    vouchers: (await db.select({ id: cartVouchers.id }).from(cartVouchers)).length,
  });
  const before = await rows();
  const send = (extra: Record<string, unknown>, headers?: Record<string, string>) =>
    call("/api/createcheckoutsession", {
      method: "POST",
      token: shop.tokens.bruno,
      body: checkoutBody({ email: "bruno@example.com", ...extra }),
      headers,
    });
  const english = { "Accept-Language": "en" };

  const outOfRange = expectError(await send({ giftCards: [giftCardPurchase(), giftCardPurchase({ amountCents: 100 })] }), 400, "invalid-input");
  expect(outOfRange.fields).toEqual({ "giftCards.1.amountCents": "Importo non valido: controlla il minimo e il massimo." });
  const badMail = expectError(
    await send({ giftCards: [giftCardPurchase({ recipientEmail: "giulia@", senderName: " " })] }, english),
    400,
    "invalid-input",
  );
  // Every field's problem in one answer.
  expect(badMail.fields).toEqual({ "giftCards.0.senderName": "Type your name.", "giftCards.0.recipientEmail": "Type a valid e-mail address." });
  const lateDay = expectError(await send({ giftCards: [giftCardPurchase({ deliverOn: "2099-01-01" })] }, english), 400, "invalid-input");
  expect(lateDay.fields).toEqual({ "giftCards.0.deliverOn": "The day to send it is from today to a year from now." });
  const tooMany = expectError(await send({ giftCards: Array.from({ length: 11 }, () => giftCardPurchase()) }), 400, "invalid-input");
  expect(Object.keys(tooMany.fields ?? {})).toEqual(["giftCards"]);

  const contribution = (fundId: number) => ({ fundId, amountCents: 2000, senderName: "Zio Gennaro", message: "Per Sofia" });
  const unknownFund = expectError(await send({ lines: undefined, fundContributions: [contribution(2_000_000_000)] }, english), 400, "invalid-input");
  expect(unknownFund.fields).toEqual({ "fundContributions.0.fundId": "This fund no longer takes contributions." });

  const { code } = await newAnnaList({ title: "Lista dei fondi misti" });
  const fundId = await fundOf(code, "Passeggino");
  const withProducts = expectError(await send({ fundContributions: [contribution(fundId)] }), 400, "invalid-input");
  expect(Object.keys(withProducts.fields ?? {})).toEqual(["fundContributions.0"]);
  expect(withProducts.message).toBe(withProducts.fields!["fundContributions.0"]);
  const withCards = expectError(
    await send({ lines: undefined, giftCards: [giftCardPurchase()], fundContributions: [contribution(fundId)] }),
    400,
    "invalid-input",
  );
  expect(Object.keys(withCards.fields ?? {})).toEqual(["fundContributions.0"]);
  const tooLittle = expectError(
    await send({ lines: undefined, fundContributions: [{ ...contribution(fundId), amountCents: 100 }] }),
    400,
    "invalid-input",
  );
  expect(Object.keys(tooLittle.fields ?? {})).toEqual(["fundContributions.0.amountCents"]);
  expect(await rows()).toEqual(before);
});

/** A fund on one of Anna's lists, added as her list page does. */
async function fundOf(code: string, title: string) {
  const [list] = await shop.handle.db.select({ id: giftLists.id, owner: giftLists.ownerUserId }).from(giftLists).where(eq(giftLists.code, code));
  const added = await addGiftListFund(shop.handle.db, {
    userId: list!.owner,
    giftListId: list!.id,
    input: { title, description: "Per le passeggiate", targetCents: 30_000 },
    now: new Date(),
  });
  expect(added.ok).toBe(true);
  const [fund] = await shop.handle.db.select({ id: giftListFunds.id }).from(giftListFunds).where(eq(giftListFunds.giftListId, list!.id));
  return fund!.id;
}

test("funds: guests see them in search-products and give through the API; the owner sees who gave and her card's code", slow, async () => {
  const { code } = await newAnnaList({ title: "Lista del fondo di Sofia" });
  const fundId = await fundOf(code, "Passeggino");
  const guests = async () =>
    (await call("/api/public/lista-regalo/search-products", { method: "GET", query: { codice: code } })).json as { funds: unknown[] };
  expect((await guests()).funds).toEqual([
    {
      id: fundId,
      title: "Passeggino",
      description: "Per le passeggiate",
      targetCents: 30_000,
      target: 300,
      collectedCents: 0,
      collected: 0,
      progressPercent: 0,
    },
  ]);

  const { lines: _lines, ...body } = checkoutBody({
    email: "bruno@example.com",
    fundContributions: [{ fundId, amountCents: 6000, senderName: "Zio Bruno", message: "Per Sofia" }],
  });
  const placed = await call("/api/createcheckoutsession", { method: "POST", token: shop.tokens.bruno, body });
  expect(placed.status, JSON.stringify(placed.json)).toBe(200);
  const { orderId, sessionId } = placed.json as { orderId: string; sessionId: string };
  expect(
    await shop.handle.db.select({ amountCents: orderVouchers.amountCents }).from(orderVouchers).where(eq(orderVouchers.orderId, orderId)),
  ).toEqual([{ amountCents: 6000 }]);
  await payOnTestPage(sessionId);

  expect((await guests()).funds).toMatchObject([{ id: fundId, collectedCents: 6000, collected: 60, progressPercent: 20 }]);
  expect(JSON.stringify(await guests())).not.toMatch(/Zio Bruno|[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
  const owner = await call("/api/getProdLista", { method: "POST", token: shop.tokens.anna, body: { var1: code } });
  const [fund] = (owner.json as { funds: { contributions: unknown[]; card: { code: string | null; balanceCents: number } | null }[] }).funds;
  expect(fund!.contributions).toEqual([{ giverName: "Zio Bruno", message: "Per Sofia", amountCents: 6000, at: expect.any(String) }]);
  expect(fund!.card).toMatchObject({ code: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/), balanceCents: 6000 });
});
