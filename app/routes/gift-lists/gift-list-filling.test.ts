/**
 * Filling a list while browsing, through the pages' own loaders and actions: the owner's page chooses the
 * list, every page's root data carries its running total, the cards' and quick view's posts add with the
 * product page's rule. Only the owner adds; bad quantities and a missing size are refused, nothing changes.
 */
import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import * as root from "#app/root.tsx";
import { callerFor, createTestAuthServices, requestFor, routeContext, testPublicUrl } from "#tests/fixtures/accounts.fixtures.ts";
import { logIn, registerCustomer } from "#server/accounts/auth-flows.service.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { giftListItems, users } from "#server/db/schema.ts";
import { closeGiftList, createGiftList } from "#server/gift-lists/gift-list.service.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createTestDb } from "#tests/db.ts";
import * as myGiftLists from "./my-gift-lists";

/** Each test hashes passwords (scrypt): slow on a busy 2-core machine. */
const slow = { timeout: 60_000 };
const password = "Tr3no-Blu-Vesuvio";

type Outcome = { status: number; location: string | null; setCookies: string[]; body: unknown };

/** What the browser would get from a loader or action: status, redirect, cookies and data. */
async function outcomeOf(run: () => unknown): Promise<Outcome> {
  const read = (value: unknown, thrown: boolean): Outcome => {
    if (value instanceof Response)
      return { status: value.status, location: value.headers.get("location"), setCookies: value.headers.getSetCookie(), body: null };
    if (value && typeof value === "object" && "type" in value && value.type === "DataWithResponseInit") {
      const { data, init } = value as unknown as { data: unknown; init: ResponseInit | null };
      return { status: init?.status ?? 200, location: null, setCookies: new Headers(init?.headers).getSetCookie(), body: data };
    }
    if (thrown) throw value;
    return { status: 200, location: null, setCookies: [], body: value };
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
  const post = async (path: string, form: Record<string, string>, jar?: CookieJar) => {
    const outcome = await outcomeOf(() =>
      myGiftLists.action({ request: requestFor(path, { jar, form }), url: new URL(path, testPublicUrl), context, params: {} } as never),
    );
    jar?.take(outcome.setCookies);
    return outcome;
  };
  /** The running total every page gets from the root loader (in its loader data on a client navigation). */
  const fillingSeenBy = async (jar: CookieJar, path = "/shop.data") => {
    const page = await outcomeOf(() =>
      root.loader({ request: requestFor(path, { jar }), url: new URL(path, testPublicUrl), context, params: {} } as never),
    );
    return (page.body as { personal: { giftListFilling: unknown } }).personal.giftListFilling;
  };
  const now = new Date();
  const newList = async (userId: string, title: string) => {
    const eventDate = new Date(now.getTime() + 90 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const created = await createGiftList(services.db, {
      userId,
      input: {
        title,
        type: "nascita",
        eventDate,
        celebratedNames: "Nicolò",
        messageToGuests: "",
        shippingAddressId: "collection",
        visibility: "public",
      },
      now,
    });
    if (!created.ok) throw new Error(JSON.stringify(created));
    return created;
  };
  return { db: services.db, signIn, post, fillingSeenBy, newList };
}

test("the owner chooses a list, adds from cards with and without JavaScript, sees the running total, and stops", slow, async () => {
  const { db, signIn, post, fillingSeenBy, newList } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const list = await newList(anna.id, "La lista di Nicolò");
  const bib = await createProduct(db, { priceCents: 1250 });
  const towel = await createProduct(db, { priceCents: 2000, discountPercent: 10 });
  expect(await fillingSeenBy(anna.jar)).toBeNull();

  const start = await post("/crea-lista-nascita", { intent: "fill-start", giftListId: list.id }, anna.jar);
  expect(start).toMatchObject({ status: 303, location: "/shop" });
  expect(await fillingSeenBy(anna.jar)).toEqual({
    id: list.id,
    code: list.code,
    title: "La lista di Nicolò",
    productCount: 0,
    unitCount: 0,
    totalCents: 0,
  });

  // A card with JavaScript: the fetcher gets the answer as data.
  const card = { intent: "gift-list-add", giftListId: list.id, quantity: "1", redirectTo: "/categoria/bagnetto?page=2" };
  expect(await post("/crea-lista-nascita", { ...card, variantId: String(bib.variantId), js: "1" }, anna.jar)).toMatchObject({
    status: 200,
    body: { ok: true },
  });
  // Without JavaScript: back to the listing, with the toast in the flash cookie.
  const plain = await post("/crea-lista-nascita", { ...card, variantId: String(towel.variantId), quantity: "2" }, anna.jar);
  expect(plain).toMatchObject({ status: 303, location: "/categoria/bagnetto?page=2" });
  expect(plain.setCookies.some((cookie) => cookie.startsWith("cart_flash="))).toBe(true);
  // 12,50 + 2 x 18,00
  expect(await fillingSeenBy(anna.jar, "/en/shop.data")).toMatchObject({ productCount: 2, unitCount: 3, totalCents: 1250 + 2 * 1800 });

  const stop = await post("/crea-lista-nascita", { intent: "fill-stop", redirectTo: "/en/shop?sort=price" }, anna.jar);
  expect(stop).toMatchObject({ status: 303, location: "/en/shop?sort=price" });
  expect(await fillingSeenBy(anna.jar)).toBeNull();
  expect(await db.$count(giftListItems, eq(giftListItems.giftListId, list.id))).toBe(2);

  // The English page opens the English shop; another site is never where "stop" goes.
  expect(await post("/en/crea-lista-nascita", { intent: "fill-start", giftListId: list.id }, anna.jar)).toMatchObject({
    status: 303,
    location: "/en/shop",
  });
  expect(await post("/en/crea-lista-nascita", { intent: "fill-stop", redirectTo: "//evil.example/x" }, anna.jar)).toMatchObject({
    status: 303,
    location: "/en/crea-lista-nascita",
  });
});

test("only the owner fills a list: someone else's is not found to choose, refused to add to, and a planted cookie shows nothing", slow, async () => {
  const { db, signIn, post, fillingSeenBy, newList } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const bruno = await signIn("Bruno Russo", "bruno@example.com");
  const annas = await newList(anna.id, "La lista di Anna");
  const { variantId } = await createProduct(db);

  expect((await post("/crea-lista-nascita", { intent: "fill-start", giftListId: annas.id }, bruno.jar)).status).toBe(404);
  expect(await fillingSeenBy(bruno.jar)).toBeNull();
  // Bruno's browser made to carry Anna's list: still nothing to show or to add to.
  bruno.jar.take([`gift_list_filling=${annas.id}; Path=/`]);
  expect(await fillingSeenBy(bruno.jar)).toBeNull();
  const refused = await post(
    "/crea-lista-nascita",
    { intent: "gift-list-add", giftListId: annas.id, variantId: String(variantId), quantity: "1", js: "1" },
    bruno.jar,
  );
  expect(refused).toMatchObject({ status: 400, body: { ok: false, message: "Lista non trovata." } });
  expect(await db.$count(giftListItems)).toBe(0);

  // Logged out: the login page, nothing added.
  expect(
    (await post("/crea-lista-nascita", { intent: "gift-list-add", giftListId: annas.id, variantId: String(variantId), quantity: "1" })).status,
  ).toBe(401);
  expect((await post("/crea-lista-nascita", { intent: "fill-start", giftListId: annas.id })).status).toBe(401);

  // A closed list of her own is not offered for filling, and a chosen one that closes drops out of the bar.
  anna.jar.take([`gift_list_filling=${annas.id}; Path=/`]);
  expect(await fillingSeenBy(anna.jar)).toMatchObject({ id: annas.id });
  await closeGiftList(db, { userId: anna.id, giftListId: annas.id });
  expect(await fillingSeenBy(anna.jar)).toBeNull();
  const closed = await post("/crea-lista-nascita", { intent: "fill-start", giftListId: annas.id }, anna.jar);
  expect(closed).toMatchObject({ status: 400, body: { errors: { form: "giftLists.errors.closed" } } });
});

test("a bad quantity or a size not chosen is refused in the page's language, and nothing is added", slow, async () => {
  const { db, signIn, post, newList } = await openShop();
  const anna = await signIn("Anna Esposito", "anna@example.com");
  const list = await newList(anna.id, "La lista di Nicolò");
  const { variantId } = await createProduct(db, { variants: [{ size: "M" }, { size: "L" }] });
  const add = (path: string, fields: Record<string, string>) =>
    post(path, { intent: "gift-list-add", giftListId: list.id, variantId: String(variantId), quantity: "1", js: "1", ...fields }, anna.jar);

  for (const quantity of ["0", "-1", "100", "1.5", "due", ""]) {
    expect(await add("/crea-lista-nascita", { quantity }), quantity).toMatchObject({
      status: 400,
      body: { ok: false, message: "La quantità deve essere un numero intero da 1 a 99." },
    });
  }
  expect(await add("/en/crea-lista-nascita", { quantity: "100" })).toMatchObject({
    status: 400,
    body: { ok: false, message: "The quantity must be a whole number from 1 to 99." },
  });
  expect(await add("/crea-lista-nascita", { variantId: "" })).toMatchObject({
    status: 400,
    body: { ok: false, message: "Scegli una taglia prima di aggiungere il prodotto alla lista." },
  });
  expect(await db.$count(giftListItems)).toBe(0);
});
