import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, giftListItems, giftListPurchases, giftLists, orders, outboxEmails } from "#server/db/schema.ts";
import { createOrder } from "#server/orders/order-creation.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { addGiftListItemToCart, setCartGiftNote } from "./gift-list-public.service.ts";
import { giftListDeliveryFor, giftListShortfalls, giftNoteOfCart, recordGiftListPurchases } from "./gift-list-orders.service.ts";

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-03-01T10:00:00Z");
const publicUrl = "http://shop.test";

async function listWithItem(db: Db, options: { wished?: number; withAddress?: boolean } = {}) {
  const owner = await createUser(db);
  let shippingAddressId: number | null = null;
  if (options.withAddress) {
    const [address] = await db
      .insert(addresses)
      .values({
        userId: owner,
        firstName: "Anna",
        lastName: "Esposito",
        street: "Via Roma",
        houseNumber: "12",
        postcode: "80013",
        city: "Casalnuovo di Napoli",
        province: "NA",
      })
      .returning({ id: addresses.id });
    shippingAddressId = address!.id;
  }
  const [list] = await db
    .insert(giftLists)
    .values({
      code: "ABCDEFGH",
      ownerUserId: owner,
      title: "La lista di Sofia",
      eventDate: "2026-06-01",
      celebratedNames: "Sofia",
      shippingAddressId,
    })
    .returning();
  const { variantId } = await createProduct(db, { nameIt: "Culla Sogno", variants: [{ stock: 10 }] });
  const [item] = await db
    .insert(giftListItems)
    .values({ giftListId: list!.id, variantId, quantityWished: options.wished ?? 2 })
    .returning();
  return { list: list!, item: item!, variantId };
}

/** A paid-looking gift-list order, as placeOrder will write it. */
/** As markOrderPaid does: the order locked once, then its purchases recorded, in one transaction. */
function recordPurchasesOf(db: Db, orderId: string) {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    return recordGiftListPurchases(tx, { order: order!, now, publicUrl });
  });
}

async function giftOrder(db: Db, args: { giftListId: string; itemId: string; variantId: number; quantity: number; key: string }) {
  const order = await createOrder(db, {
    idempotencyKey: args.key,
    status: "awaiting_payment",
    email: `${args.key}@example.it`,
    phone: "3331234567",
    firstName: "Carla",
    lastName: "Rossi",
    deliveryMethod: "standard",
    paymentMethod: "card",
    subtotalCents: 1000 * args.quantity,
    totalCents: 1000 * args.quantity,
    giftListId: args.giftListId,
    giverName: "Zia Carla",
    giftMessage: "Benvenuta Sofia!",
    createdAt: new Date(),
    lines: [
      {
        variantId: args.variantId,
        sku: "S",
        name: "Culla Sogno",
        quantity: args.quantity,
        listPriceCents: 1000,
        unitPriceCents: 1000,
        lineTotalCents: 1000 * args.quantity,
        giftListItemId: args.itemId,
      },
    ],
    placed: { note: "order-placed", actorUserId: null },
  });
  return order!.id;
}

test("the delivery of a gift-list order is the list's address, or collection; closed lists take no orders", async () => {
  const db = await openDb();
  const shipped = await listWithItem(db, { withAddress: true });
  expect(await giftListDeliveryFor(db, shipped.list.id)).toEqual({
    kind: "address",
    firstName: "Anna",
    lastName: "Esposito",
    street: "Via Roma",
    houseNumber: "12",
    postcode: "80013",
    city: "Casalnuovo di Napoli",
    province: "NA",
    country: "IT",
    phone: null,
  });
  await db.update(giftLists).set({ shippingAddressId: null }).where(eq(giftLists.id, shipped.list.id));
  expect(await giftListDeliveryFor(db, shipped.list.id)).toEqual({ kind: "collection" });
  await db.update(giftLists).set({ status: "closed" }).where(eq(giftLists.id, shipped.list.id));
  expect(await giftListDeliveryFor(db, shipped.list.id)).toBeNull();
});

test("the giver's note and shortfalls of a gift-list cart are read for checkout", async () => {
  const db = await openDb();
  const { list, item } = await listWithItem(db, { wished: 2 });
  const added = await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 2 } });
  if (!added.ok) throw new Error(added.error);
  await setCartGiftNote(db, { cartId: added.cartId, input: { giverName: "Zia Carla", giftMessage: "Auguri" } });
  expect(await giftNoteOfCart(db, added.cartId)).toEqual({ giverName: "Zia Carla", giftMessage: "Auguri" });
  expect(await giftListShortfalls(db, added.cartId)).toEqual([]);
  await db.update(giftListItems).set({ quantityBought: 1 }).where(eq(giftListItems.id, item.id));
  expect(await giftListShortfalls(db, added.cartId)).toEqual([{ giftListItemId: item.id, variantId: item.variantId, wanted: 2, stillNeeded: 1 }]);
});

test("paying raises the bought quantity once, records the giver and mails the owner once, even when repeated", async () => {
  const db = await openDb();
  const { list, item, variantId } = await listWithItem(db, { wished: 3 });
  const orderId = await giftOrder(db, { giftListId: list.id, itemId: item.id, variantId, quantity: 2, key: "k1" });
  const first = await recordPurchasesOf(db, orderId);
  expect(first).toEqual({ recorded: [{ giftListItemId: item.id, quantity: 2 }], overflow: [] });
  const second = await recordPurchasesOf(db, orderId);
  expect(second).toEqual({ recorded: [], overflow: [] });
  const [stored] = await db.select({ quantityBought: giftListItems.quantityBought }).from(giftListItems);
  expect(stored!.quantityBought).toBe(2);
  const purchases = await db.select().from(giftListPurchases);
  expect(purchases).toMatchObject([
    { orderId, giftListItemId: item.id, quantity: 2, giverName: "Zia Carla", message: "Benvenuta Sofia!", kind: "item" },
  ]);
  const mails = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "gift-list-purchase"));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe("Zia Carla ha fatto un regalo dalla lista «La lista di Sofia»");
  expect(mails[0]!.textBody).toContain("Benvenuta Sofia!");
  expect(mails[0]!.textBody).toContain("Culla Sogno");
});

test("the bought quantity never goes above the wished one: the excess is reported", async () => {
  const db = await openDb();
  const { list, item, variantId } = await listWithItem(db, { wished: 1 });
  const a = await giftOrder(db, { giftListId: list.id, itemId: item.id, variantId, quantity: 1, key: "a" });
  const b = await giftOrder(db, { giftListId: list.id, itemId: item.id, variantId, quantity: 1, key: "b" });
  expect(await recordPurchasesOf(db, a)).toEqual({
    recorded: [{ giftListItemId: item.id, quantity: 1 }],
    overflow: [],
  });
  expect(await recordPurchasesOf(db, b)).toEqual({
    recorded: [],
    overflow: [{ giftListItemId: item.id, quantity: 1 }],
  });
  const [stored] = await db.select({ quantityBought: giftListItems.quantityBought }).from(giftListItems);
  expect(stored!.quantityBought).toBe(1);
});

test("an ordinary order records nothing", async () => {
  const db = await openDb();
  const { item, variantId } = await listWithItem(db);
  const order = await createOrder(db, {
    idempotencyKey: "plain",
    status: "awaiting_payment",
    email: "a@b.it",
    phone: "1",
    firstName: "A",
    lastName: "B",
    deliveryMethod: "collection",
    paymentMethod: "in_shop",
    subtotalCents: 1,
    totalCents: 1,
    createdAt: new Date(),
    lines: [{ variantId, sku: "S", name: "x", quantity: 1, listPriceCents: 1, unitPriceCents: 1, lineTotalCents: 1, giftListItemId: item.id }],
    placed: { note: "order-placed", actorUserId: null },
  });
  expect(await recordPurchasesOf(db, order!.id)).toEqual({ recorded: [], overflow: [] });
});

testOnPostgres("two guests paying for the last unit at once: only one takes it", async () => {
  const db = await openDb(6);
  const { list, item, variantId } = await listWithItem(db, { wished: 1 });
  const ids = await Promise.all(
    ["r1", "r2", "r3"].map((key) => giftOrder(db, { giftListId: list.id, itemId: item.id, variantId, quantity: 1, key })),
  );
  const results = await Promise.all(ids.map((orderId) => recordPurchasesOf(db, orderId)));
  expect(results.filter((result) => result.recorded.length === 1)).toHaveLength(1);
  expect(results.filter((result) => result.overflow.length === 1)).toHaveLength(2);
  const [stored] = await db.select({ quantityBought: giftListItems.quantityBought }).from(giftListItems);
  expect(stored!.quantityBought).toBe(1);
});
