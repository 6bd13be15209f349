/**
 * One customer against another, and a customer against the back office, through the whole
 * application over HTTP: every page and `.data` URL of app/routes.ts with the other customer's
 * order, gift list, payment session and account filled in; the API calls that name an address, a
 * gift list or a checkout key; every endpoint better-auth offers (listed from the library itself);
 * every /admin route, read and posted. Every attempt is refused, no answer carries the other
 * customer's name, address, phone or e-mail, and none of their rows changes.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, expect, test, vi } from "vitest";
import { openAuthEndpoints } from "#server/accounts/auth-endpoints.ts";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import { cartWith, checkoutForm, checkoutInput } from "#tests/fixtures/checkout.fixtures.ts";
import { placeOrder } from "#server/checkout/checkout.service.ts";
import { addresses, giftLists, orders, products, productVariants, sessions, users, wishlistItems } from "#server/db/schema.ts";
import { startCardPayment } from "#server/payments/payment.service.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { selectRows } from "../db";
import { cookieHeaderOf, signIn, useShopWithVisitors, type HttpAnswer, type InProcessShop } from "./in-process-shop";
import { concreteRoutes, type ConcreteRoute } from "./page-routes";

const slow = { timeout: 600_000 };
let shop: InProcessShop;
/** The attacker: a signed-in customer of the shop. */
let mallory: string;

/** What only the victim's own pages may show. */
const victim = {
  email: "ottavia.vittima@example.it",
  lastName: "Quagliarulo",
  street: "Vico Sgariglia Riservato",
  phone: "+39 333 987 6543",
};
const secrets = [victim.email, victim.lastName, victim.street, "987 6543"];

type VictimData = {
  userId: string;
  cookie: string;
  orderId: string;
  cardOrderId: string;
  idempotencyKey: string;
  addressId: number;
  giftListId: string;
  giftListCode: string;
  sessionToken: string;
};
let data: VictimData;
let victimRoutes: ConcreteRoute[];

useShopWithVisitors((started) => ({ shop, customer: mallory } = started));

beforeAll(async () => {
  const db = shop.handle.db;
  const cookie = await signIn(shop, "customer", victim.email);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, victim.email));
  const userId = user!.id;
  const [address] = await db
    .insert(addresses)
    .values({
      userId,
      firstName: "Ottavia",
      lastName: victim.lastName,
      street: victim.street,
      houseNumber: "77",
      postcode: "80013",
      city: "Casalnuovo di Napoli",
      province: "NA",
      phone: victim.phone,
    })
    .returning({ id: addresses.id });
  const [variant] = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(sql`${productVariants.stock} >= 5`)
    .limit(1);
  const place = async (paymentMethod: string) => {
    const input = checkoutInput({
      firstName: "Ottavia",
      lastName: victim.lastName,
      email: victim.email,
      phone: victim.phone,
      street: victim.street,
      paymentMethod,
    });
    const placed = await placeOrder(db, {
      cartId: await cartWith(db, [{ variantId: variant!.id, quantity: 1 }]),
      userId,
      locale: "it",
      input,
      now: new Date(),
      publicUrl: shop.publicUrl,
      secret: resolveAuthSecret(shop.services.env),
    });
    if (!placed.ok) throw new Error(placed.error);
    return { orderId: placed.orderId, idempotencyKey: input.idempotencyKey };
  };
  const { orderId, idempotencyKey } = await place("bank_transfer");
  const card = await place("card");
  const started = await startCardPayment(shop.services, { orderId: card.orderId, locale: "it" });
  if (!started.ok) throw new Error(started.error);
  const [list] = await db
    .insert(giftLists)
    .values({
      code: "QGVTRWXY",
      ownerUserId: userId,
      title: "Lista di Ottavia",
      eventDate: "2027-03-01",
      celebratedNames: "Ottavia",
      shippingAddressId: address!.id,
    })
    .returning({ id: giftLists.id, code: giftLists.code });
  const [product] = await db.select({ id: products.id }).from(products).limit(1);
  await db.insert(wishlistItems).values({ userId, productId: product!.id });
  const [session] = await db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, userId)).limit(1);
  data = {
    userId,
    cookie,
    orderId,
    cardOrderId: card.orderId,
    idempotencyKey,
    addressId: address!.id,
    giftListId: list!.id,
    giftListCode: list!.code,
    sessionToken: session!.token,
  };
  // The test-payment page's session ref is, like Stripe's checkout URL, the payer's own link: it is not tried here.
  victimRoutes = await concreteRoutes(db, { orderId, giftListId: list!.id, codice: list!.code, userId, id: String(address!.id) });
}, 600_000);

/** Every row of the victim's, in every table that names its owner, plus the victim's orders and list. */
async function victimFingerprint(): Promise<Record<string, string>> {
  const owned = await selectRows<{ table: string; column: string }>(
    shop.handle.db,
    sql`select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = 'public' and column_name in ('user_id', 'owner_user_id') order by 1`,
  );
  const queries: [string, string][] = [
    ...owned.map(({ table, column }): [string, string] => [table, `select * from "${table}" t where "${column}" = '${data.userId}'`]),
    ["users", `select * from users t where id = '${data.userId}'`],
    ["orders", `select * from orders t where id in ('${data.orderId}', '${data.cardOrderId}')`],
    ["order_lines", `select * from order_lines t where order_id in ('${data.orderId}', '${data.cardOrderId}')`],
    ["payments", `select * from payments t where order_id in ('${data.orderId}', '${data.cardOrderId}')`],
    ["order_status_history", `select * from order_status_history t where order_id in ('${data.orderId}', '${data.cardOrderId}')`],
    ["gift_list_items", `select * from gift_list_items t where gift_list_id = '${data.giftListId}'`],
  ];
  const prints: Record<string, string> = {};
  for (const [name, query] of queries) {
    const [row] = await selectRows<{ print: string | null }>(
      shop.handle.db,
      sql.raw(`select md5(string_agg(t::text, '|' order by t::text)) as print from (${query}) t`),
    );
    prints[name] = row?.print ?? "empty";
  }
  return prints;
}

/** Every answer that shows one of the victim's details, named by what was asked. */
function leaks(label: string, answer: HttpAnswer): string[] {
  const text = `${answer.body} ${answer.location ?? ""}`;
  return secrets.filter((secret) => text.includes(secret) || text.includes(secret.replace(/ /g, "+"))).map((secret) => `${label}: shows ${secret}`);
}

/** Pages where a customer acts on their own things; every intent of theirs is tried with the victim's ids. */
const ownerPages = /my-account|shopping|crea-lista-nascita|lista-nascita\/|ordine\/|pagamento-di-prova|checkout|wishlist|compare|cart/;
const ownerIntents = [
  "address-delete",
  "address-update",
  "address-default",
  "update",
  "close",
  "reopen",
  "delete",
  "invite",
  "item-remove",
  "item-update",
  "group-gift",
  "thank",
  "pay",
  "add",
];

const dataUrlOf = (url: string) => `${url === "/" ? "/_root" : url}.data`;
const own = () => ({ Origin: shop.publicUrl });

/**
 * A form that names every resource of the victim's, so only the shop's checks stop it. Not the
 * victim's e-mail: a form shows back what its sender typed.
 */
function victimForm(): Record<string, string> {
  return {
    intent: "delete",
    id: String(data.addressId),
    addressId: String(data.addressId),
    savedAddressId: String(data.addressId),
    orderId: data.orderId,
    giftListId: data.giftListId,
    codice: data.giftListCode,
    userId: data.userId,
    token: data.sessionToken,
    t: "forged-access-token",
  };
}

test(
  "every page and .data URL with the other customer's order, list, payment and account: refused or the attacker's own, never the victim's data",
  slow,
  async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = await victimFingerprint();
    const problems: string[] = [];
    // Logging out would end the attacker's own session, and the rest would be refused for that reason alone.
    const targets = victimRoutes.filter((route) => !route.url.startsWith("/api/") && !route.url.endsWith("/logout"));
    expect(targets.length).toBeGreaterThan(40);
    for (const route of targets) {
      const reads = [route.url, `${route.url}?t=forged-access-token`, ...(route.isPage ? [dataUrlOf(route.url)] : [])];
      for (const url of reads) problems.push(...leaks(`GET ${url}`, await shop.request(url, { cookie: mallory })));
      if (!route.hasAction) continue;
      const intents = ownerPages.test(route.url) ? ownerIntents : ["delete"];
      for (const intent of intents) {
        const form = { ...victimForm(), intent };
        problems.push(...leaks(`POST ${route.url} ${intent}`, await shop.request(route.url, { form, cookie: mallory, headers: own() })));
      }
      if (route.isPage)
        problems.push(
          ...leaks(`POST ${dataUrlOf(route.url)}`, await shop.request(dataUrlOf(route.url), { form: victimForm(), cookie: mallory, headers: own() })),
        );
    }
    expect(problems).toEqual([]);
    expect(await victimFingerprint()).toEqual(before);
  },
);

test(
  "the other customer's order page, pay, abandon and withdrawal links: refused without the order's own link, in both languages",
  slow,
  async () => {
    for (const prefix of ["", "/en"]) {
      for (const url of [
        `${prefix}/ordine/${data.orderId}`,
        `${prefix}/ordine/${data.orderId}?t=forged-access-token`,
        `${prefix}/ordine/${data.cardOrderId}/annulla-pagamento?t=forged`,
        `${prefix}/ordine/${data.cardOrderId}/conferma-pagamento?t=forged`,
        `${prefix}/ordine/${data.cardOrderId}/conferma-pagamento`,
      ]) {
        const answer = await shop.request(url, { cookie: mallory });
        expect(answer.status, url).toBe(404);
        expect(leaks(url, answer)).toEqual([]);
      }
      // The withdrawal function says so in the shop's words for an order that is not hers, and shows nothing of it.
      const notYours = prefix
        ? "This order is not yours: you can only withdraw from your own orders."
        : "Questo ordine non è tuo: puoi recedere solo dai tuoi ordini.";
      for (const url of [`${prefix}/ordine/${data.orderId}/recesso`, `${prefix}/ordine/${data.orderId}/recesso?t=forged-access-token`]) {
        const answer = await shop.request(url, { cookie: mallory });
        expect(answer.status, url).toBe(403);
        expect(answer.body).toContain(notYours);
        expect(leaks(url, answer)).toEqual([]);
      }
      const pay = await shop.request(`${prefix}/ordine/${data.cardOrderId}`, { form: { intent: "pay" }, cookie: mallory, headers: own() });
      expect(pay.status).toBe(404);
      const withdraw = await shop.request(`${prefix}/ordine/${data.orderId}/recesso`, {
        form: { intent: "confirm", submissionKey: "a-forged-submission-key", name: "Mallory" },
        cookie: mallory,
        headers: own(),
      });
      expect(withdraw.status).toBe(403);
    }
    // The owner still sees it: the refusals above are about who asks.
    const mine = await shop.request(`/ordine/${data.orderId}`, { cookie: data.cookie });
    expect(mine.status).toBe(200);
    expect(mine.body).toContain(victim.street);
  },
);

test(
  "checkout with the other customer's idempotency key, by the page and the API: 409 in the page's language, no order page, nothing placed",
  slow,
  async () => {
    const db = shop.handle.db;
    const [variant] = await db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(sql`${productVariants.stock} >= 5`)
      .limit(1);
    const added = await shop.request("/cart", {
      form: { intent: "add", variantId: String(variant!.id), quantity: "1", redirectTo: "/cart" },
      cookie: mallory,
      headers: own(),
    });
    const withCart = [mallory, cookieHeaderOf(added)].filter(Boolean).join("; ");
    const ordersBefore = await db.select({ id: orders.id }).from(orders);
    const before = await victimFingerprint();

    for (const [path, message] of [
      ["/checkout", "appartiene a un altro acquisto: nessun ordine è stato fatto"],
      ["/en/checkout", "This order form belongs to another purchase"],
    ] as const) {
      const page = await shop.request(path, {
        form: checkoutForm({ idempotencyKey: data.idempotencyKey, paymentMethod: "bank_transfer" }),
        cookie: withCart,
        headers: own(),
      });
      expect(page.status, path).toBe(409);
      expect(page.location).toBeNull();
      expect(page.body).toContain(message);
      expect(page.body).not.toContain(data.orderId);
      expect(leaks(path, page)).toEqual([]);
    }
    const form = checkoutForm({ idempotencyKey: data.idempotencyKey, paymentMethod: "bank_transfer" });
    const api = await shop.request("/api/createcheckoutsession", {
      json: { ...form, acceptTerms: true, lines: [{ variantId: variant!.id, quantity: 1 }] },
      cookie: mallory,
      headers: own(),
    });
    expect(api.status).toBe(409);
    expect(JSON.parse(api.body).error.code).toBe("idempotency-key-conflict");
    expect(api.body).not.toContain(data.orderId);
    expect(await db.select({ id: orders.id }).from(orders)).toHaveLength(ordersBefore.length);
    expect(await victimFingerprint()).toEqual(before);
  },
);

test("the API with the other customer's address, gift list and checkout: refused, nothing shown, nothing changed", slow, async () => {
  const before = await victimFingerprint();
  const address = {
    id: data.addressId,
    firstName: "Mallory",
    lastName: "Rossi",
    street: "Via Roma",
    houseNumber: "1",
    postcode: "20121",
    city: "Milano",
    province: "MI",
  };
  const attempts: [string, unknown][] = [
    ["/api/updateaddress", address],
    ["/api/deleteaddress", { id: data.addressId }],
    ["/api/getProdLista", { var1: data.giftListCode }],
    ["/api/deleteListaRegalo", { codiceLista: data.giftListCode }],
  ];
  for (const [path, body] of attempts) {
    const answer = await shop.request(path, { json: body, cookie: mallory, headers: own() });
    expect(answer.status, path).toBe(404);
    expect(JSON.parse(answer.body).error.code, path).toBeTruthy();
    expect(leaks(path, answer)).toEqual([]);
  }
  // Every other endpoint, read or posted with the victim's ids in every field it might take.
  const problems: string[] = [];
  const victimIds = {
    id: data.addressId,
    var1: data.giftListCode,
    codiceLista: data.giftListCode,
    orderId: data.orderId,
    userId: data.userId,
    email: victim.email,
  };
  for (const endpoint of apiEndpoints) {
    const query = new URLSearchParams(Object.entries(victimIds).map(([key, value]) => [key, String(value)]));
    const answer =
      endpoint.method === "GET"
        ? await shop.request(`${endpoint.path}?${query}`, { cookie: mallory, headers: { Accept: "application/json" } })
        : await shop.request(endpoint.path, { json: victimIds, cookie: mallory, headers: own() });
    problems.push(...leaks(`${endpoint.method} ${endpoint.path}`, answer));
  }
  expect(problems).toEqual([]);
  expect(await victimFingerprint()).toEqual(before);
});

test(
  "every endpoint better-auth offers, with the other customer's session, id and e-mail: closed or refused; the victim stays signed in and unchanged",
  slow,
  async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const before = await victimFingerprint();
    const paths = Object.values(shop.services.auth.api)
      .map((endpoint) => (endpoint as { path?: string }).path)
      .filter((path): path is string => typeof path === "string" && path !== "/sign-out");
    expect(paths).toEqual(expect.arrayContaining(["/delete-user", "/update-user", "/revoke-session", "/list-sessions", "/admin/remove-user"]));
    const body = {
      userId: data.userId,
      id: data.userId,
      token: data.sessionToken,
      sessionToken: data.sessionToken,
      email: victim.email,
      newEmail: "mallory@example.com",
      // Not the victim's password: the attacker does not know it.
      password: "Sbagliata-Vesuvio-17",
      newPassword: "Mallory-Prende-Tutto-99",
      currentPassword: "Sbagliata-Vesuvio-17",
      name: "Mallory",
      image: "x".repeat(1000),
      role: "admin",
    };
    const bearer = shop.request("/api/auth/sign-in/email", {
      json: { email: "anna.cliente@example.it", password: "Tr3no-Blu-Vesuvio-42" },
      headers: own(),
    });
    const token = (await bearer).headers["set-auth-token"];
    expect(typeof token).toBe("string");
    const problems: string[] = [];
    const openPaths = new Set(openAuthEndpoints.map((endpoint) => endpoint.path));
    for (const path of paths) {
      const url = `/api/auth${path.replace(":id", "oidc").replace(":token", data.sessionToken)}`;
      const asCookie = [
        await shop.request(url, { cookie: mallory }),
        await shop.request(url, { json: body, cookie: mallory, headers: own() }),
        await shop.request(url, { json: body, headers: { ...own(), Authorization: `Bearer ${String(token)}` } }),
      ];
      for (const answer of asCookie) {
        problems.push(...leaks(url, answer));
        if (!openPaths.has(url.slice("/api/auth".length)) && answer.status !== 404 && answer.status !== 405)
          problems.push(`${url}: ${answer.status} (closed endpoints answer 404)`);
        if (path === "/sign-in/email" && answer.status < 400) problems.push(`${url}: signed in with the victim's e-mail and a wrong password`);
      }
    }
    expect(problems).toEqual([]);
    expect(await victimFingerprint()).toEqual(before);
    expect((await shop.request("/my-account", { cookie: data.cookie })).status).toBe(200);
    expect((await shop.request("/my-account", { cookie: mallory })).status).toBe(200);
  },
);

test("a customer on every /admin page and action (read, posted, .data): 403, no customer's data, nothing changed", slow, async () => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const before = await victimFingerprint();
  const adminRoutes = victimRoutes.filter((route) => /^(\/en)?\/admin(\/|$)/.test(route.url));
  expect(adminRoutes.length).toBeGreaterThan(15);
  const problems: string[] = [];
  for (const route of adminRoutes) {
    const answers: [string, HttpAnswer][] = [[`GET ${route.url}`, await shop.request(route.url, { cookie: mallory })]];
    for (const intent of route.hasAction ? ["save", "delete", "status", "mark-paid", "cancel", "refund", "close", "resend", "role"] : []) {
      answers.push([
        `POST ${route.url} ${intent}`,
        await shop.request(route.url, { form: { ...victimForm(), intent, to: "cancelled", role: "admin" }, cookie: mallory, headers: own() }),
      ]);
    }
    for (const [label, answer] of answers) {
      // The owner's setup page opens to anyone with its link; once there is an owner it only points to the login (decision 0086).
      const openToAll = /^GET (\/en)?\/admin\/setup$/.test(label);
      if (answer.status !== 403 && !(openToAll && answer.status === 200)) problems.push(`${label}: ${answer.status}`);
      problems.push(...leaks(label, answer));
    }
    if (route.isPage) {
      const reads = [await shop.request(dataUrlOf(route.url), { cookie: mallory })];
      if (route.hasAction) reads.push(await shop.request(dataUrlOf(route.url), { form: victimForm(), cookie: mallory, headers: own() }));
      for (const answer of reads) problems.push(...leaks(dataUrlOf(route.url), answer));
    }
  }
  expect(problems).toEqual([]);
  expect(await victimFingerprint()).toEqual(before);
});
