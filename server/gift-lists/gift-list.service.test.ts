import { count, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import {
  addresses,
  cartLines,
  giftListInvitations,
  giftListItems,
  giftListPurchases,
  giftLists,
  outboxEmails,
  rateLimits,
} from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { sendGiftListInvitations, listInvitations } from "./gift-list-invitations.service.ts";
import {
  addGiftListItemToCart,
  codeLookupRule,
  findGiftListByCode,
  getPublicGiftList,
  searchGiftListsByName,
  setCartGiftNote,
} from "./gift-list-public.service.ts";
import {
  addProductToGiftList,
  closeGiftList,
  createGiftList,
  deleteGiftList,
  listMyGiftLists,
  removeGiftListItem,
  updateGiftList,
  updateGiftListItem,
} from "./gift-list.service.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-03-01T10:00:00Z");
const ip = "203.0.113.9";

async function addAddressFor(db: Db, userId: string) {
  const [row] = await db
    .insert(addresses)
    .values({
      userId,
      firstName: "Anna",
      lastName: "Esposito",
      street: "Via Roma",
      houseNumber: "12",
      postcode: "80013",
      city: "Casalnuovo di Napoli",
      province: "NA",
    })
    .returning({ id: addresses.id });
  return row!.id;
}

function listForm(overrides: Record<string, string> = {}) {
  return {
    title: "La lista di Nicolò",
    type: "nascita",
    eventDate: "2026-06-15",
    celebratedNames: "Nicolò e Andrea",
    messageToGuests: "Grazie a tutti!",
    shippingAddressId: "collection",
    visibility: "public",
    ...overrides,
  };
}

async function newList(db: Db, overrides: Record<string, string> = {}, userId?: string) {
  const owner = userId ?? (await createUser(db));
  const created = await createGiftList(db, { userId: owner, input: listForm(overrides), now });
  if (!created.ok) throw new Error(JSON.stringify(created));
  return { owner, ...created };
}

test("an owner creates a list with one of their addresses; its code follows the schema's alphabet", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const addressId = await addAddressFor(db, owner);
  const created = await createGiftList(db, { userId: owner, input: listForm({ shippingAddressId: String(addressId) }), now });
  expect(created).toMatchObject({ ok: true, code: expect.stringMatching(/^[A-HJ-KM-NP-Z2-9]{8}$/) });
  const [row] = await db.select().from(giftLists);
  expect(row).toMatchObject({ ownerUserId: owner, title: "La lista di Nicolò", shippingAddressId: addressId, status: "open", visibility: "public" });
});

test("bad input creates nothing: past date, someone else's address, markup", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const stranger = await createUser(db);
  const strangersAddress = await addAddressFor(db, stranger);
  expect(await createGiftList(db, { userId: owner, input: listForm({ eventDate: "2026-02-28" }), now })).toEqual({
    ok: false,
    errors: { eventDate: "giftLists.errors.eventDatePast" },
  });
  expect(await createGiftList(db, { userId: owner, input: listForm({ shippingAddressId: String(strangersAddress) }), now })).toEqual({
    ok: false,
    errors: { shippingAddressId: "giftLists.errors.address-not-found" },
  });
  expect(await createGiftList(db, { userId: owner, input: listForm({ title: "<img src=x onerror=alert(1)>" }), now })).toMatchObject({
    ok: false,
    errors: { title: "giftLists.errors.invalidCharacters" },
  });
  const [{ n }] = (await db.select({ n: count() }).from(giftLists)) as [{ n: number }];
  expect(n).toBe(0);
});

test("another customer cannot read the address, edit, delete, close, add to or invite on a list", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const addressId = await addAddressFor(db, owner);
  const list = await newList(db, { shippingAddressId: String(addressId) }, owner);
  const { variantId } = await createProduct(db);
  const added = await addProductToGiftList(db, { userId: owner, input: { giftListId: list.id, variantId, quantity: 2 } });
  expect(added).toMatchObject({ ok: true, quantityWished: 2 });
  const itemId = (added as { itemId: string }).itemId;
  const stranger = await createUser(db);
  const notFound = { ok: false, error: "not-found" };
  expect(await updateGiftList(db, { userId: stranger, giftListId: list.id, input: listForm({ title: "Mia" }), now })).toEqual(notFound);
  expect(await deleteGiftList(db, { userId: stranger, giftListId: list.id })).toEqual(notFound);
  expect(await closeGiftList(db, { userId: stranger, giftListId: list.id })).toEqual(notFound);
  expect(await addProductToGiftList(db, { userId: stranger, input: { giftListId: list.id, variantId, quantity: 1 } })).toEqual(notFound);
  expect(await updateGiftListItem(db, { userId: stranger, input: { itemId, quantity: 9 } })).toEqual(notFound);
  expect(await removeGiftListItem(db, { userId: stranger, itemId })).toEqual(notFound);
  expect(
    await sendGiftListInvitations(db, {
      userId: stranger,
      giftListId: list.id,
      input: { emails: "x@example.it" },
      locale: "it",
      publicUrl: "http://shop.test",
      inviterName: "X",
    }),
  ).toEqual(notFound);
  expect(await listInvitations(db, { userId: stranger, giftListId: list.id })).toBeNull();
  expect(await listMyGiftLists(db, { userId: stranger, locale: "it", now })).toEqual([]);
  // Nothing changed.
  const [row] = await db.select().from(giftLists);
  expect(row).toMatchObject({ title: "La lista di Nicolò", status: "open" });
  const [item] = await db.select().from(giftListItems);
  expect(item).toMatchObject({ quantityWished: 2 });
  const [{ n }] = (await db.select({ n: count() }).from(outboxEmails)) as [{ n: number }];
  expect(n).toBe(0);
});

test("the same variant again raises its wished quantity; quantity can change but not below what was bought", async () => {
  const db = await openDb();
  const list = await newList(db);
  const { variantIds } = await createProduct(db, {
    variants: [
      { colour: "white", size: "M" },
      { colour: "blue", size: "M" },
    ],
  });
  await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: variantIds[0], quantity: 1 } });
  const again = await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: variantIds[0], quantity: 2 } });
  expect(again).toMatchObject({ ok: true, quantityWished: 3 });
  // The product page's form sent with no variant (no size chosen) asks for the size; an unknown one is not found.
  expect(await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: "", quantity: 1 } })).toEqual({
    ok: false,
    errors: { variantId: "giftLists.errors.size-required" },
  });
  expect(await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: 999_999, quantity: 1 } })).toEqual({
    ok: false,
    error: "variant-not-found",
  });
  await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: variantIds[1], quantity: 1 } });
  const [mine] = await listMyGiftLists(db, { userId: list.owner, locale: "it", now });
  expect(mine!.items.map((item) => [item.colour, item.size, item.quantityWished, item.quantityBought])).toEqual([
    ["white", "M", 3, 0],
    ["blue", "M", 1, 0],
  ]);
  const itemId = mine!.items[0]!.id;
  await db.update(giftListItems).set({ quantityBought: 2 }).where(eq(giftListItems.id, itemId));
  expect(await updateGiftListItem(db, { userId: list.owner, input: { itemId, quantity: 1 } })).toEqual({ ok: false, error: "below-bought" });
  expect(await updateGiftListItem(db, { userId: list.owner, input: { itemId, quantity: 5 } })).toEqual({ ok: true, giftListId: list.id });
  expect(await updateGiftListItem(db, { userId: list.owner, input: { itemId, quantity: 0 } })).toMatchObject({
    ok: false,
    errors: { quantity: "giftLists.errors.quantity-invalid" },
  });
  expect(await removeGiftListItem(db, { userId: list.owner, itemId })).toEqual({ ok: false, error: "has-purchases" });
  expect(await removeGiftListItem(db, { userId: list.owner, itemId: mine!.items[1]!.id })).toEqual({ ok: true, giftListId: list.id });
});

test("personalised products need their texts; on-request products cannot be wished", async () => {
  const db = await openDb();
  const list = await newList(db);
  const { variantId } = await createProduct(db, { personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 12 }] });
  expect(await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId, quantity: 1 } })).toEqual({
    ok: false,
    error: "personalisation-missing",
  });
  expect(
    await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId, quantity: 1, personalisation: { "0": "Sofia" } } }),
  ).toMatchObject({
    ok: true,
  });
  const onRequest = await createProduct(db, { isOnRequest: true });
  expect(await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: onRequest.variantId, quantity: 1 } })).toEqual(
    {
      ok: false,
      error: "not-for-sale",
    },
  );
  expect(await addProductToGiftList(db, { userId: list.owner, input: { giftListId: "0", variantId, quantity: 1 } })).toMatchObject({
    ok: false,
    errors: { giftListId: "giftLists.errors.no-list-selected" },
  });
});

test("a list with a purchase cannot be deleted, only closed; an untouched one is deleted", async () => {
  const db = await openDb();
  const list = await newList(db);
  const { variantId } = await createProduct(db);
  await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId, quantity: 2 } });
  await db.update(giftListItems).set({ quantityBought: 1 }).where(eq(giftListItems.giftListId, list.id));
  expect(await deleteGiftList(db, { userId: list.owner, giftListId: list.id })).toEqual({ ok: false, error: "has-purchases" });
  expect(await closeGiftList(db, { userId: list.owner, giftListId: list.id })).toEqual({ ok: true });
  const [row] = await db.select({ status: giftLists.status }).from(giftLists);
  expect(row!.status).toBe("closed");
  const other = await newList(db, {}, list.owner);
  expect(await deleteGiftList(db, { userId: list.owner, giftListId: other.id })).toEqual({ ok: true });
  expect(await db.select({ id: giftLists.id }).from(giftLists)).toEqual([{ id: list.id }]);
});

test("guests find a list by exact code in any case; name search ignores case and accents and shows public lists only", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const addressId = await addAddressFor(db, owner);
  const shown = await newList(db, { shippingAddressId: String(addressId) }, owner);
  await newList(db, { title: "Lista segreta", celebratedNames: "Nicolò", visibility: "code_only" });
  const found = await findGiftListByCode(db, { code: shown.code.toLowerCase(), clientIp: ip, now });
  expect(found).toEqual({
    ok: true,
    list: { code: shown.code, title: "La lista di Nicolò", type: "nascita", eventDate: "2026-06-15", celebratedNames: "Nicolò e Andrea" },
  });
  expect(JSON.stringify(found)).not.toContain("Via Roma");
  const results = await searchGiftListsByName(db, { query: "NICOLO" });
  expect(results.map((list) => list.title)).toEqual(["La lista di Nicolò"]);
  expect(await searchGiftListsByName(db, { query: "nicolò andrea" })).toHaveLength(1);
  expect(await searchGiftListsByName(db, { query: "nicolò giulia" })).toHaveLength(0);
  expect(await searchGiftListsByName(db, { query: "%" })).toHaveLength(0);
  expect(await searchGiftListsByName(db, { query: "' or 1=1 --" })).toHaveLength(0);
  expect(await searchGiftListsByName(db, { query: "segreta" })).toHaveLength(0);
});

test("unknown codes, codes with SQL or HTML are refused, and too many misses from one address are throttled", async () => {
  const db = await openDb();
  const list = await newList(db);
  expect(await findGiftListByCode(db, { code: "ZZZZZZZZ", clientIp: ip, now })).toEqual({ ok: false, error: "not-found" });
  expect(await findGiftListByCode(db, { code: "' OR '1'='1", clientIp: ip, now })).toEqual({ ok: false, error: "invalid-code" });
  expect(await findGiftListByCode(db, { code: "<b>ABCDEFGH</b>", clientIp: ip, now })).toEqual({ ok: false, error: "invalid-code" });
  for (let attempt = 3; attempt < codeLookupRule.max; attempt++) await findGiftListByCode(db, { code: "ZZZZZZZZ", clientIp: ip, now });
  expect(await findGiftListByCode(db, { code: "ZZZZZZZZ", clientIp: ip, now })).toEqual({ ok: false, error: "throttled" });
  // Even the right code now waits; another address, or the same later, is served.
  expect(await findGiftListByCode(db, { code: list.code, clientIp: ip, now })).toEqual({ ok: false, error: "throttled" });
  expect(await findGiftListByCode(db, { code: list.code, clientIp: "198.51.100.1", now })).toMatchObject({ ok: true });
  const later = new Date(now.getTime() + codeLookupRule.windowMs + 1000);
  expect(await findGiftListByCode(db, { code: list.code, clientIp: ip, now: later })).toMatchObject({ ok: true });
  const counters = await db.select({ key: rateLimits.key }).from(rateLimits);
  expect(counters.map((row) => row.key)).toEqual([`gift-list-code:ip:${ip}`]);
});

test("the public list shows still-needed, the pre-order warning, and lets a guest add up to what is still needed", async () => {
  const db = await openDb();
  const list = await newList(db, { eventDate: "2026-03-10" });
  const plain = await createProduct(db, { nameIt: "Culla", variants: [{ stock: 10 }] });
  const late = await createProduct(db, { nameIt: "Passeggino", variants: [{ stock: 5, isPreorder: true, preorderDays: 30 }] });
  await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: plain.variantId, quantity: 2 } });
  await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId: late.variantId, quantity: 1 } });
  const view = await getPublicGiftList(db, { code: list.code, clientIp: ip, locale: "it", now });
  if (!view.ok) throw new Error("list not found");
  expect(view.list.items.map((item) => [item.name, item.stillNeeded, item.maxAddable, item.arrivesAfterEvent])).toEqual([
    ["Culla", 2, 2, false],
    ["Passeggino", 1, 1, true],
  ]);
  expect(JSON.stringify(view)).not.toMatch(/ownerUserId|shippingAddressId/);
  const item = view.list.items[0]!;
  expect(await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 3 } })).toEqual({
    ok: false,
    error: "gift-list-quantity-exceeded",
    maxAddable: 2,
  });
  const added = await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 2 } });
  expect(added).toMatchObject({ ok: true, count: 2 });
  const cartId = (added as { cartId: string }).cartId;
  expect(await addGiftListItemToCart(db, { cartId, code: list.code, input: { itemId: item.id, quantity: 1 } })).toEqual({
    ok: false,
    error: "gift-list-quantity-exceeded",
    maxAddable: 0,
  });
  const again = await getPublicGiftList(db, { code: list.code, clientIp: ip, locale: "it", now, cartId });
  expect(again.ok && again.list.items[0]).toMatchObject({ inCart: 2, maxAddable: 0 });
  // An ordinary product now meets the cart's mixing rule (docs/rules.md#gift-list-mixing, its text in cart.errors).
  const { addToCart } = await import("#server/cart/cart.service.ts");
  expect(await addToCart(db, { cartId, variantId: plain.variantId, quantity: 1, personalisation: {} })).toEqual({
    ok: false,
    error: "gift-list-conflict-gift-list",
  });
  expect(await setCartGiftNote(db, { cartId, input: { giverName: "Zia Carla", giftMessage: "Auguri!" } })).toEqual({ ok: true });
  expect(await setCartGiftNote(db, { cartId, input: { giverName: " ", giftMessage: "" } })).toMatchObject({
    ok: false,
    errors: { giverName: "giftLists.errors.giverNameRequired" },
  });
  const lines = await db.select({ giftListItemId: cartLines.giftListItemId }).from(cartLines);
  expect(lines).toEqual([{ giftListItemId: item.id }]);
});

test("a closed list is shown but nothing can be added from it", async () => {
  const db = await openDb();
  const list = await newList(db);
  const { variantId } = await createProduct(db);
  const added = await addProductToGiftList(db, { userId: list.owner, input: { giftListId: list.id, variantId, quantity: 2 } });
  await closeGiftList(db, { userId: list.owner, giftListId: list.id });
  const view = await getPublicGiftList(db, { code: list.code, clientIp: ip, locale: "en", now });
  expect(view.ok && view.list).toMatchObject({ isOpen: false, items: [{ maxAddable: 0 }] });
  expect(
    await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: (added as { itemId: string }).itemId, quantity: 1 } }),
  ).toEqual({
    ok: false,
    error: "gift-list-closed",
  });
  expect(await searchGiftListsByName(db, { query: "Nicolò" })).toEqual([]);
});

test("invitations: up to 50 valid addresses queued in the list's link and code, recorded; 51 or bad ones send nothing", async () => {
  const db = await openDb();
  const list = await newList(db);
  const send = (emails: string) =>
    sendGiftListInvitations(db, {
      userId: list.owner,
      giftListId: list.id,
      input: { emails },
      locale: "it",
      publicUrl: "http://shop.test",
      inviterName: "Anna",
    });
  const fiftyOne = Array.from({ length: 51 }, (_, index) => `ospite${index}@example.it`).join(", ");
  expect(await send(fiftyOne)).toMatchObject({ ok: false, errors: { emails: "giftLists.errors.tooManyEmails" } });
  expect(await send("nonna@example.it, zio@@example")).toMatchObject({
    ok: false,
    errors: { emails: "giftLists.errors.emailsInvalid" },
    bad: ["zio@@example"],
  });
  const [{ n }] = (await db.select({ n: count() }).from(outboxEmails)) as [{ n: number }];
  expect(n).toBe(0);
  expect(await send("Nonna@example.it\nzia@example.it")).toEqual({ ok: true, sent: 2 });
  const mails = await db.select().from(outboxEmails).orderBy(outboxEmails.id);
  expect(mails.map((mail) => mail.toAddress)).toEqual(["nonna@example.it", "zia@example.it"]);
  expect(mails[0]!.subject).toBe("Anna ti invita a vedere la lista «La lista di Nicolò»");
  expect(mails[0]!.textBody).toContain(`http://shop.test/lista-nascita/${list.code}`);
  expect(mails[0]!.textBody).toContain(list.code);
  expect(mails[0]!.kind).toBe("gift-list-invitation");
  const invited = await listInvitations(db, { userId: list.owner, giftListId: list.id });
  expect(invited!.map((row) => row.email).sort()).toEqual(["nonna@example.it", "zia@example.it"]);
  const recorded = await db.select({ outboxEmailId: giftListInvitations.outboxEmailId }).from(giftListInvitations);
  expect(recorded.every((row) => row.outboxEmailId !== null)).toBe(true);
  const [{ purchases }] = (await db.select({ purchases: count() }).from(giftListPurchases)) as [{ purchases: number }];
  expect(purchases).toBe(0);
});
