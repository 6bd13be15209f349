import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { insertOrder } from "#tests/fixtures/accounts.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { addresses, auditLog, giftListItems, giftLists, orders, users } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser } from "#tests/fixtures/admin.fixtures.ts";
import { closeGiftListAsAdmin, getAdminGiftList, listAdminGiftLists, parseAdminGiftListFilters } from "./gift-lists-admin.service";

const now = new Date("2026-03-10T10:00:00Z");
const slow = { timeout: 90_000 };

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const db = handle.db;
  await db.insert(users).values([
    { id: "owner-anna", name: "Anna Esposito", email: "anna.esposito@example.com" },
    { id: "owner-luca", name: "Luca Bianchi", email: "luca@example.it" },
  ]);
  const [address] = await db
    .insert(addresses)
    .values({
      userId: "owner-anna",
      firstName: "Anna",
      lastName: "Esposito",
      street: "Via Roma",
      houseNumber: "12",
      postcode: "80013",
      city: "Casalnuovo di Napoli",
      province: "NA",
    })
    .returning({ id: addresses.id });
  const [sofia, battesimo] = await db
    .insert(giftLists)
    .values([
      {
        code: "SQFA2345",
        ownerUserId: "owner-anna",
        title: "Benvenuta Sofìa",
        eventDate: "2026-06-01",
        celebratedNames: "Sofia",
        shippingAddressId: address!.id,
        visibility: "code_only",
      },
      {
        code: "MRCB6789",
        ownerUserId: "owner-luca",
        title: "Battesimo di Marco",
        eventDate: "2026-04-12",
        celebratedNames: "Marco",
        status: "closed",
      },
    ])
    .returning();
  const culla = await createProduct(db, { nameIt: "Culla Sogno", variants: [{ colour: "white", size: "tagliau", stock: 5 }] });
  const body = await createProduct(db, { nameIt: "Body cotone", variants: [{ size: "m", stock: 5 }] });
  await db.insert(giftListItems).values([
    { giftListId: sofia!.id, variantId: culla.variantId, quantityWished: 1, quantityBought: 1, position: 0 },
    { giftListId: sofia!.id, variantId: body.variantId, quantityWished: 3, quantityBought: 1, position: 1 },
  ]);
  const gift = await insertOrder(db, null);
  await db.update(orders).set({ giftListId: sofia!.id, firstName: "Zia", lastName: "Carla" }).where(eq(orders.id, gift.id));
  await insertOrder(db, "owner-anna");
  return { db, sofia: sofia!, battesimo: battesimo!, giftNumber: gift.number, adminId: await createAdminUser(db) };
}

const search = (query: Record<string, string>) => parseAdminGiftListFilters(new URLSearchParams(query));

test("staff find any list, private and closed ones too, by code, words of the title, or the owner's e-mail", slow, async () => {
  const { db } = await openShop();
  const titles = async (query: Record<string, string>) => (await listAdminGiftLists(db, search(query))).rows.map((row) => row.title);
  expect(await titles({})).toEqual(["Benvenuta Sofìa", "Battesimo di Marco"]);
  expect(await titles({ q: "sqfa-2345" })).toEqual(["Benvenuta Sofìa"]);
  expect(await titles({ q: "benvenuta sofia" })).toEqual(["Benvenuta Sofìa"]);
  expect(await titles({ q: "luca@example" })).toEqual(["Battesimo di Marco"]);
  expect(await titles({ q: "marco", status: "closed" })).toEqual(["Battesimo di Marco"]);
  expect(await titles({ q: "marco", status: "open" })).toEqual([]);
  expect(await titles({ q: "100%_" })).toEqual([]);
  const [row] = (await listAdminGiftLists(db, search({ q: "SQFA2345" }))).rows;
  expect(row).toMatchObject({
    code: "SQFA2345",
    ownerName: "Anna Esposito",
    ownerEmail: "anna.esposito@example.com",
    wished: 4,
    bought: 2,
    visibility: "code_only",
  });
});

test(
  "a list's page: items with wished and bought (one size not shown as a size), owner, address, and the orders that bought from it",
  slow,
  async () => {
    const { db, sofia, battesimo, giftNumber } = await openShop();
    const detail = await getAdminGiftList(db, { giftListId: sofia.id, locale: "it", now });
    expect(detail).toMatchObject({ title: "Benvenuta Sofìa", ownerName: "Anna Esposito", eventDate: "2026-06-01", orderCount: 1 });
    expect(detail!.items.map((item) => [item.name, item.colour, item.size, item.quantityWished, item.quantityBought, item.stillNeeded])).toEqual([
      ["Culla Sogno", "white", null, 1, 1, 0],
      ["Body cotone", null, "m", 3, 1, 2],
    ]);
    expect(detail!.delivery).toEqual({
      kind: "address",
      address: expect.objectContaining({ street: "Via Roma", postcode: "80013", city: "Casalnuovo di Napoli" }),
    });
    expect(detail!.orders.map((order) => [order.number, order.customer])).toEqual([[giftNumber, "Zia Carla"]]);

    const collected = await getAdminGiftList(db, { giftListId: battesimo.id, locale: "en", now });
    expect(collected).toMatchObject({ delivery: { kind: "collection" }, items: [], orders: [], orderCount: 0 });
    expect(await getAdminGiftList(db, { giftListId: "not-a-uuid", locale: "it", now })).toBeNull();
    expect(await getAdminGiftList(db, { giftListId: "00000000-0000-4000-8000-000000000000", locale: "it", now })).toBeNull();
  },
);

test("closing a list: closed for its owner, with an audit row; a second close and an unknown list change nothing", slow, async () => {
  const { db, sofia, adminId } = await openShop();
  expect(await closeGiftListAsAdmin(db, { giftListId: sofia.id, actorUserId: adminId })).toEqual({ ok: true });
  const [row] = await db.select({ status: giftLists.status }).from(giftLists).where(eq(giftLists.id, sofia.id));
  expect(row!.status).toBe("closed");
  expect(await closeGiftListAsAdmin(db, { giftListId: sofia.id, actorUserId: adminId })).toEqual({ ok: false, error: "already-closed" });
  expect(await closeGiftListAsAdmin(db, { giftListId: "00000000-0000-4000-8000-000000000000", actorUserId: adminId })).toEqual({
    ok: false,
    error: "not-found",
  });
  expect(await closeGiftListAsAdmin(db, { giftListId: "x'; drop table gift_lists; --", actorUserId: adminId })).toEqual({
    ok: false,
    error: "not-found",
  });
  const audit = await db.select().from(auditLog);
  expect(audit).toHaveLength(1);
  expect(audit[0]).toMatchObject({
    actorUserId: adminId,
    action: "giftList.close",
    entity: "giftList",
    entityId: sofia.id,
    details: { code: "SQFA2345", title: "Benvenuta Sofìa" },
  });
});
