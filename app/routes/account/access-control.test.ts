/**
 * Who may see and change what, through the pages' own loaders and actions (each checks for itself):
 * logged out -> 401; another customer's address -> 404 and nothing changes; /admin is for admins.
 */
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { addresses, orders, profiles, users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { callerFor, createTestAuthServices, insertOrder, requestFor, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { addAddress, listAddresses } from "#server/accounts/address.service.ts";
import { logIn, registerCustomer } from "#server/accounts/auth-flows.service.ts";
import * as adminPage from "#app/routes/admin/dashboard.tsx";
import * as dataDownload from "./account-data";
import * as orderPage from "#app/routes/checkout/order.tsx";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { orderAccessToken } from "#server/orders/order-access.ts";
import * as myGiftLists from "#app/routes/gift-lists/my-gift-lists.tsx";
import { createGiftList, listMyGiftLists } from "#server/gift-lists/gift-list.service.ts";
import * as myAccount from "./my-account";
import * as shopping from "./shopping";

/** Each test hashes several passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };

const password = "Tr3no-Blu-Vesuvio";
type Outcome = { status: number; location?: string | null; body?: unknown };

/** What the browser would get from a loader or action: its status (and where a redirect goes). */
async function outcomeOf(run: () => unknown): Promise<Outcome> {
  const read = (value: unknown, thrown: boolean): Outcome => {
    if (value instanceof Response) return { status: value.status, location: value.headers.get("location"), body: value };
    if (value && typeof value === "object" && "type" in value && value.type === "DataWithResponseInit") {
      const { data, init } = value as unknown as { data: unknown; init: ResponseInit | null };
      return { status: init?.status ?? 200, body: data };
    }
    if (thrown) throw value;
    return { status: 200, body: value };
  };
  try {
    return read(await run(), false);
  } catch (error) {
    return read(error, true);
  }
}

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const services = createTestAuthServices(handle.db);
  const context = routeContext(services);
  const signIn = async (name: string, email: string) => {
    await registerCustomer(services, callerFor("/"), { name, email, password, passwordConfirm: password, privacy: "on" });
    const login = await logIn(services, callerFor("/"), { email, password });
    const [user] = await services.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { jar: new CookieJar().take(login.ok ? login.headers : null), id: user!.id };
  };
  const load = (module: { loader: (args: never) => unknown }, path: string, jar?: CookieJar) =>
    outcomeOf(() => module.loader({ request: requestFor(path, { jar }), url: new URL(path, testPublicUrl), context, params: {} } as never));
  const post = (module: { action: (args: never) => unknown }, path: string, form: Record<string, string>, jar?: CookieJar) =>
    outcomeOf(() => module.action({ request: requestFor(path, { jar, form }), url: new URL(path, testPublicUrl), context, params: {} } as never));
  return { services, db: handle.db, signIn, load, post };
}

const address = { firstName: "Bruno", lastName: "Russo", street: "Via Toledo", houseNumber: "5", postcode: "80134", city: "Napoli", province: "NA" };

test("logged out, every account page and every account action answers 401 (the login page)", slow, async () => {
  const { load, post } = await openShop();
  for (const [module, path] of [
    [myAccount, "/my-account"],
    [myAccount, "/en/my-account"],
    [shopping, "/shopping"],
    [dataDownload, "/my-account/data"],
    [adminPage, "/admin"],
  ] as const) {
    expect((await load(module, path)).status, path).toBe(401);
  }
  for (const intent of [
    "profile",
    "address-add",
    "address-update",
    "address-delete",
    "address-default",
    "email",
    "password",
    "resend-verification",
    "logout-everywhere",
    "delete-account",
    "anything",
  ]) {
    expect((await post(myAccount, "/my-account", { intent, addressId: "1", name: "X" })).status, intent).toBe(401);
  }
});

test("another customer's address: 404 on every action and on the edit page, and nothing changes", slow, async () => {
  const { db, signIn, load, post } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const bruno = await signIn("Bruno Russo", "bruno@example.com");
  const brunos = await addAddress(db, bruno.id, { ...address, label: "Casa" });
  await addAddress(db, bruno.id, { ...address, label: "Lavoro" });
  if (!brunos.ok) throw new Error("setup failed");
  const [, second] = await listAddresses(db, bruno.id);
  const before = await listAddresses(db, bruno.id);

  expect((await load(myAccount, `/my-account?edit=${brunos.id}`, anna.jar)).status).toBe(404);
  expect(
    (
      await post(
        myAccount,
        "/my-account",
        { intent: "address-update", addressId: String(brunos.id), ...address, city: "Roma", province: "RM" },
        anna.jar,
      )
    ).status,
  ).toBe(404);
  expect((await post(myAccount, "/my-account", { intent: "address-delete", addressId: String(brunos.id) }, anna.jar)).status).toBe(404);
  expect((await post(myAccount, "/my-account", { intent: "address-default", addressId: String(second!.id) }, anna.jar)).status).toBe(404);
  expect(await listAddresses(db, bruno.id)).toEqual(before);
  expect(await listAddresses(db, anna.id)).toEqual([]);

  // Bruno himself can.
  expect((await load(myAccount, `/my-account?edit=${brunos.id}`, bruno.jar)).status).toBe(200);
  const own = await post(myAccount, "/my-account", { intent: "address-delete", addressId: String(brunos.id) }, bruno.jar);
  expect(own).toMatchObject({ status: 302, location: "/my-account?done=addressDeleted" });
});

test("the profile form changes only the signed-in person, whatever ids the form carries", slow, async () => {
  const { db, signIn, post } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const bruno = await signIn("Bruno Russo", "bruno@example.com");
  const saved = await post(
    myAccount,
    "/en/my-account",
    { intent: "profile", name: "Anna Maria", phone: "081 555 1234", userId: bruno.id, id: bruno.id },
    anna.jar,
  );
  expect(saved).toMatchObject({ status: 302, location: "/en/my-account?done=profileSaved" });
  const names = await db.select({ id: users.id, name: users.name }).from(users);
  expect(names.find((row) => row.id === bruno.id)?.name).toBe("Bruno Russo");
  expect(names.find((row) => row.id === anna.id)?.name).toBe("Anna Maria");
  expect(await db.$count(profiles, eq(profiles.userId, bruno.id))).toBe(0);
});

test("bad input through the page: 400 with the messages, and nothing stored", slow, async () => {
  const { db, signIn, post } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const refused = await post(
    myAccount,
    "/my-account",
    { intent: "address-add", ...address, postcode: "8013", province: "<b>", street: "x".repeat(10_000) },
    anna.jar,
  );
  expect(refused.status).toBe(400);
  expect(refused.body).toMatchObject({
    intent: "address-add",
    errors: { postcode: "auth.errors.postcodeInvalid", province: "auth.errors.provinceInvalid", street: "auth.errors.tooLong" },
  });
  expect(await db.$count(addresses)).toBe(0);
  expect((await post(myAccount, "/my-account", { intent: "no-such-intent" }, anna.jar)).status).toBe(400);
});

test("purchases and the data download show only the person's own orders", slow, async () => {
  const { db, signIn, load } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const bruno = await signIn("Bruno Russo", "bruno@example.com");
  const annas = await insertOrder(db, anna.id);
  await insertOrder(db, bruno.id);
  const page = await load(shopping, "/shopping", anna.jar);
  expect(page.status).toBe(200);
  expect((page.body as { orders: { number: number }[] }).orders.map((order) => order.number)).toEqual([annas.number]);
  const download = await load(dataDownload, "/my-account/data", anna.jar);
  expect(download.status).toBe(200);
  const file = (download.body as Response).headers.get("content-disposition");
  expect(file).toMatch(/attachment; filename="i-miei-dati-\d{4}-\d{2}-\d{2}\.json"/);
  const json = (await (download.body as Response).json()) as { account: { email: string }; orders: { number: number }[] };
  expect(json.account.email).toBe("anna@example.com");
  expect(json.orders.map((order) => order.number)).toEqual([annas.number]);
});

test(
  "another customer's order: its page and its pay action are 404 (as for no order); the owner, the link's holder and an admin see it",
  slow,
  async () => {
    const { services, db, signIn } = await openShop();
    const anna = await signIn("Anna Esposito", "anna@example.com");
    const bruno = await signIn("Bruno Russo", "bruno@example.com");
    const annas = await insertOrder(db, anna.id, { status: "awaiting_payment" });
    const context = routeContext(services);
    const path = `/ordine/${annas.id}`;
    const open = (url: string, jar?: CookieJar) =>
      outcomeOf(() =>
        orderPage.loader({ request: requestFor(url, { jar }), url: new URL(url, testPublicUrl), context, params: { orderId: annas.id } } as never),
      );
    const pay = (url: string, jar?: CookieJar) =>
      outcomeOf(() =>
        orderPage.action({
          request: requestFor(url, { jar, form: { intent: "pay" } }),
          url: new URL(url, testPublicUrl),
          context,
          params: { orderId: annas.id },
        } as never),
      );
    const before = await db.select().from(orders).where(eq(orders.id, annas.id));

    expect((await open(path, bruno.jar)).status).toBe(404);
    expect((await open(path)).status).toBe(404);
    expect((await open(`${path}?t=forged`, bruno.jar)).status).toBe(404);
    expect((await pay(path, bruno.jar)).status).toBe(404);
    expect(await db.select().from(orders).where(eq(orders.id, annas.id))).toEqual(before);

    expect((await open(path, anna.jar)).status).toBe(200);
    expect((await open(`${path}?t=${orderAccessToken(resolveAuthSecret(services.env), annas.id)}`)).status).toBe(200);
    await db.update(users).set({ role: "admin" }).where(eq(users.id, bruno.id));
    expect((await open(path, bruno.jar)).status).toBe(200);
  },
);

test("another customer's gift list through the pages: edit page, update, close, delete and invite are 404, and nothing changes", slow, async () => {
  const { db, signIn, load, post } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const bruno = await signIn("Bruno Russo", "bruno@example.com");
  const now = new Date();
  const eventDate = new Date(now.getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
  const list = {
    title: "La lista di Sofia",
    type: "nascita",
    eventDate,
    celebratedNames: "Sofia",
    visibility: "public",
    shippingAddressId: "collection",
  };
  const created = await createGiftList(db, { userId: anna.id, input: list, now });
  if (!created.ok) throw new Error(`setup failed: ${JSON.stringify(created)}`);
  const annasLists = () => listMyGiftLists(db, { userId: anna.id, locale: "it", now });
  const before = await annasLists();

  expect((await load(myGiftLists, `/crea-lista-nascita?edit=${created.id}`, bruno.jar)).status).toBe(404);
  const forms: Record<string, string>[] = [
    { intent: "update", giftListId: created.id, ...list, title: "Presa da Bruno" },
    { intent: "close", giftListId: created.id },
    { intent: "delete", giftListId: created.id },
    { intent: "invite", giftListId: created.id, emails: "zia@example.com" },
  ];
  for (const form of forms) {
    expect((await post(myGiftLists, "/crea-lista-nascita", form, bruno.jar)).status, form.intent).toBe(404);
  }
  expect(await annasLists()).toEqual(before);
  expect((await load(myGiftLists, `/crea-lista-nascita?edit=${created.id}`, anna.jar)).status).toBe(200);
});

test("/admin: 403 for a customer, the dashboard for an admin", slow, async () => {
  const { db, signIn, load } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  expect((await load(adminPage, "/admin", anna.jar)).status).toBe(403);
  await db.update(users).set({ role: "admin" }).where(eq(users.id, anna.id));
  const page = await load(adminPage, "/admin", anna.jar);
  expect(page).toMatchObject({ status: 200, body: { name: "Anna Esposito" } });
});

test("a bearer token (from the sign-in endpoint's set-auth-token header) opens the same pages; a forged one does not", slow, async () => {
  const { services, signIn, load } = await openShop();
  await signIn("Anna Esposito", "anna@example.com");
  const response = await services.auth.handler(
    new Request(`${testPublicUrl}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: testPublicUrl },
      body: JSON.stringify({ email: "anna@example.com", password }),
    }),
  );
  const token = response.headers.get("set-auth-token")!;
  const withToken = (value: string) =>
    outcomeOf(() =>
      shopping.loader({
        request: requestFor("/shopping", { headers: { Authorization: `Bearer ${value}` } }),
        url: new URL("/shopping", testPublicUrl),
        context: routeContext(services),
        params: {},
      } as never),
    );
  expect((await withToken(token)).status).toBe(200);
  expect((await withToken(`${token.split(".")[0]}.forged`)).status).toBe(401);
  expect((await load(shopping, "/shopping")).status).toBe(401);
});
