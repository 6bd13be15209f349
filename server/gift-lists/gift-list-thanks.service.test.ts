import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { giftListPurchases, giftLists } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { listGiftThanks, markGiftThanked } from "./gift-list-thanks.service.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-12-05T10:00:00Z");

async function listWithGifts() {
  const db = await openDb();
  const { variantIds } = await createProduct(db, { nameIt: "Body a righe", nameEn: "Striped bodysuit", priceCents: 1990 });
  const list = await createGiftList(db, variantIds);
  const [owner] = await db.select({ ownerUserId: giftLists.ownerUserId }).from(giftLists).where(eq(giftLists.id, list.id));
  const [zia, nonno] = await db
    .insert(giftListPurchases)
    .values([
      {
        giftListId: list.id,
        giftListItemId: list.itemIds[0],
        kind: "item",
        quantity: 2,
        amountCents: 3980,
        giverName: "Zia Carmela",
        message: "Per il piccolo!",
        createdAt: new Date("2026-11-20T09:00:00Z"),
      },
      {
        giftListId: list.id,
        giftListItemId: list.itemIds[0],
        kind: "item",
        quantity: 1,
        amountCents: 1990,
        giverName: "Nonno Peppe",
        message: null,
        createdAt: new Date("2026-11-22T09:00:00Z"),
      },
    ])
    .returning({ id: giftListPurchases.id });
  return { db, list, ownerId: owner!.ownerUserId, ziaId: zia!.id, nonnoId: nonno!.id };
}

test("the owner sees who gave what, newest first, with the message, in the page's language", async () => {
  const { db, list, ownerId } = await listWithGifts();
  const rows = (await listGiftThanks(db, { userId: ownerId, locale: "en", now })).get(list.id)!;
  expect(rows.map((row) => [row.giverName, row.itemName, row.quantity, row.message, row.thankedAt])).toEqual([
    ["Nonno Peppe", "Striped bodysuit", 1, null, null],
    ["Zia Carmela", "Striped bodysuit", 2, "Per il piccolo!", null],
  ]);
});

test("marking a gift thanked and undoing it; another customer sees nothing and changes nothing", async () => {
  const { db, list, ownerId, ziaId } = await listWithGifts();
  const stranger = await createUser(db);

  expect(await markGiftThanked(db, { userId: stranger, input: { purchaseId: String(ziaId), thanked: "yes" }, now })).toEqual({
    ok: false,
    error: "not-found",
  });
  expect((await listGiftThanks(db, { userId: stranger, locale: "it", now })).size).toBe(0);
  const [untouched] = await db.select({ thankedAt: giftListPurchases.thankedAt }).from(giftListPurchases).where(eq(giftListPurchases.id, ziaId));
  expect(untouched!.thankedAt).toBeNull();

  expect(await markGiftThanked(db, { userId: ownerId, input: { purchaseId: String(ziaId), thanked: "yes" }, now })).toEqual({
    ok: true,
    thanked: true,
  });
  let rows = (await listGiftThanks(db, { userId: ownerId, locale: "it", now })).get(list.id)!;
  expect(rows.find((row) => row.giverName === "Zia Carmela")!.thankedAt).toEqual(now);
  expect(rows.find((row) => row.giverName === "Nonno Peppe")!.thankedAt).toBeNull();

  expect(await markGiftThanked(db, { userId: ownerId, input: { purchaseId: String(ziaId), thanked: "no" }, now })).toEqual({
    ok: true,
    thanked: false,
  });
  rows = (await listGiftThanks(db, { userId: ownerId, locale: "it", now })).get(list.id)!;
  expect(rows.every((row) => row.thankedAt === null)).toBe(true);
});

test("malformed input is refused as not found", async () => {
  const { db, ownerId } = await listWithGifts();
  for (const input of [
    {},
    { purchaseId: "abc", thanked: "yes" },
    { purchaseId: "1; drop table", thanked: "yes" },
    { purchaseId: "1", thanked: "maybe" },
    { purchaseId: "999999", thanked: "yes" },
  ]) {
    expect(await markGiftThanked(db, { userId: ownerId, input, now })).toEqual({ ok: false, error: "not-found" });
  }
});
