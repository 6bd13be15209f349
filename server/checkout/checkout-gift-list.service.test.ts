import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import type { Db } from "#server/db/client.ts";
import {
  addresses,
  carts,
  giftListItems,
  giftLists,
  orderLines,
  orders,
  orderStatusHistory,
  outboxEmails,
  productVariants,
} from "#server/db/schema.ts";
import { addGiftListItemToCart, setCartGiftNote } from "#server/gift-lists/gift-list-public.service.ts";
import { getOrderView, withoutGiftListAddress } from "#server/orders/order-view.service.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { createTestDb } from "#tests/db.ts";
import { checkoutForm, placeTestOrder, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { parseCheckoutForm } from "./checkout.inputs";
import { getCheckoutSummary } from "./checkout.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-03-02T10:00:00Z");
const links = { publicUrl: testPublicUrl, secret: testSecret };

/** A birth list with one cot wished twice, shipped to the family in Milan (or collected in the shop). */
async function giftListCart(db: Db, options: { collection?: boolean; quantity?: number } = {}) {
  const owner = await createUser(db);
  const [address] = await db
    .insert(addresses)
    .values({
      userId: owner,
      firstName: "Anna",
      lastName: "Esposito",
      street: "Via Segreta",
      houseNumber: "7",
      postcode: "20121",
      city: "Milano",
      province: "MI",
    })
    .returning({ id: addresses.id });
  const [list] = await db
    .insert(giftLists)
    .values({
      code: "SPRTQ234",
      ownerUserId: owner,
      title: "La lista di Sofia",
      eventDate: "2027-06-01",
      celebratedNames: "Sofia",
      shippingAddressId: options.collection ? null : address!.id,
    })
    .returning();
  const { variantId } = await createProduct(db, { nameIt: "Culla Sogno", priceCents: 12900, variants: [{ stock: 5 }] });
  const [item] = await db.insert(giftListItems).values({ giftListId: list!.id, variantId, quantityWished: 2 }).returning();
  const added = await addGiftListItemToCart(db, { cartId: null, code: list!.code, input: { itemId: item!.id, quantity: options.quantity ?? 1 } });
  if (!added.ok) throw new Error(added.error);
  const noted = await setCartGiftNote(db, { cartId: added.cartId, input: { giverName: "Zia Carla", giftMessage: "Benvenuta Sofia!" } });
  if (!noted.ok) throw new Error(JSON.stringify(noted.errors));
  return { cartId: added.cartId, list: list!, item: item!, variantId };
}

/** The giver's form: contact and payment only, no address (the page has none for a gift-list cart). */
function giverInput(fields: Record<string, string> = {}) {
  const form = checkoutForm({ paymentMethod: "bank_transfer", street: "", houseNumber: "", postcode: "", city: "", province: "", ...fields });
  const parsed = parseCheckoutForm(form, "it", { giftList: true });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.input;
}

test("a gift-list order goes to the list's address, copied into the order but never shown to the giver", async () => {
  const db = await openDb();
  const { cartId, list, item, variantId } = await giftListCart(db);

  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now });
  expect(summary.blocker).toBeNull();
  expect(summary.giftList).toEqual({
    code: "SPRTQ234",
    title: "La lista di Sofia",
    delivery: "standard",
    giverName: "Zia Carla",
    giftMessage: "Benvenuta Sofia!",
  });
  expect(summary.deliveries.map((quote) => quote.method)).toEqual(["standard"]);
  expect(summary.shippingCents).toBe(690);
  expect(summary.allowedPayments).toEqual(["card", "bank_transfer"]);
  expect(JSON.stringify(summary)).not.toContain("Segreta");

  const result = await placeTestOrder(db, { cartId, input: giverInput(), now });
  if (!result.ok) throw new Error(result.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({
    giftListId: list.id,
    giverName: "Zia Carla",
    giftMessage: "Benvenuta Sofia!",
    deliveryMethod: "standard",
    street: "Via Segreta",
    postcode: "20121",
    city: "Milano",
    firstName: "Maria",
    shippingCents: 690,
    totalCents: 12900 + 690,
  });
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, result.orderId));
  expect(line).toMatchObject({ giftListItemId: item.id, variantId, quantity: 1 });
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId));
  expect(cart).toMatchObject({ giftListId: null, giftGiverName: null, giftMessage: null });

  // The giver's confirmation mail and order page say where it goes, not the address.
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "order-confirmation"));
  expect(mail!.textBody).toContain("Spedito all'indirizzo della lista");
  expect(mail!.textBody).not.toContain("Segreta");
  const view = await getOrderView(db, { orderId: result.orderId, locale: "it" });
  expect(view!.delivery.address).not.toBeNull();
  expect(withoutGiftListAddress(view!).delivery).toMatchObject({ address: null, toGiftList: true, method: "standard" });
});

test("cash on delivery is refused for a gift-list order; the list decides the delivery, not the form", async () => {
  const db = await openDb();
  const { cartId, variantId } = await giftListCart(db);
  expect(await placeTestOrder(db, { cartId, input: giverInput({ paymentMethod: "cash_on_delivery" }), now })).toEqual({
    ok: false,
    error: "payment-not-allowed",
  });
  // A form claiming collection (to pay in the shop) still ships to the list: pay in shop is not offered then.
  expect(await placeTestOrder(db, { cartId, input: giverInput({ deliveryMethod: "collection", paymentMethod: "in_shop" }), now })).toEqual({
    ok: false,
    error: "payment-not-allowed",
  });
  const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
  expect(variant!.stock).toBe(5);
  expect(await db.select().from(orders)).toHaveLength(0);
});

test("a list collected in the shop: collection forced, pay in shop allowed, no cash on delivery", async () => {
  const db = await openDb();
  const { cartId } = await giftListCart(db, { collection: true });
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now, delivery: "standard" });
  expect(summary.delivery).toBe("collection");
  expect(summary.allowedPayments).toEqual(["card", "bank_transfer", "in_shop"]);
  expect(await placeTestOrder(db, { cartId, input: giverInput({ deliveryMethod: "standard", paymentMethod: "cash_on_delivery" }), now })).toEqual({
    ok: false,
    error: "payment-not-allowed",
  });
  const result = await placeTestOrder(db, { cartId, input: giverInput({ deliveryMethod: "collection", paymentMethod: "in_shop" }), now });
  if (!result.ok) throw new Error(result.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({ deliveryMethod: "collection", paymentMethod: "in_shop", street: null, shippingCents: 0 });
});

test("units bought by someone else meanwhile, or a closed list: refused before any stock is taken", async () => {
  const db = await openDb();
  const { cartId, list, item, variantId } = await giftListCart(db, { quantity: 2 });
  await db.update(giftListItems).set({ quantityBought: 1 }).where(eq(giftListItems.id, item.id));
  expect((await getCheckoutSummary(db, { cartId, locale: "it", now })).blocker).toBe("gift-list-shortfall");
  expect(await placeTestOrder(db, { cartId, input: giverInput(), now })).toEqual({
    ok: false,
    error: "gift-list-shortfall",
    lines: [{ variantId, name: "Culla Sogno", available: 1 }],
  });

  await db.update(giftListItems).set({ quantityBought: 0 }).where(eq(giftListItems.id, item.id));
  await db.update(giftLists).set({ status: "closed" }).where(eq(giftLists.id, list.id));
  expect((await getCheckoutSummary(db, { cartId, locale: "it", now })).blocker).toBe("gift-list-closed");
  expect(await placeTestOrder(db, { cartId, input: giverInput(), now })).toEqual({ ok: false, error: "gift-list-closed" });
  const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId));
  expect(variant!.stock).toBe(5);
  expect(await db.select().from(orders)).toHaveLength(0);
});

test("paying raises the list's bought quantity once, even when the payment is reported twice, and mails the owner once", async () => {
  const db = await openDb();
  const { cartId, item } = await giftListCart(db);
  const placed = await placeTestOrder(db, { cartId, input: giverInput(), now });
  if (!placed.ok) throw new Error(placed.error);
  const pay = () => markOrderPaid(db, { orderId: placed.orderId, provider: "bank_transfer", providerRef: null, amountCents: 13590, now, links });
  expect(await pay()).toEqual({ changed: true, status: "paid" });
  expect(await pay()).toEqual({ changed: false, status: "paid" });
  const [stored] = await db.select({ quantityBought: giftListItems.quantityBought }).from(giftListItems).where(eq(giftListItems.id, item.id));
  expect(stored!.quantityBought).toBe(1);
  const mails = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "gift-list-purchase"));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe("Zia Carla ha fatto un regalo dalla lista «La lista di Sofia»");
  expect(mails[0]!.textBody).toContain("Benvenuta Sofia!");
  expect(mails[0]!.textBody).toContain(`${testPublicUrl}/crea-lista-nascita`);
});

test("two guests paid for the last unit: the second order stays paid with a note for the staff", async () => {
  const db = await openDb();
  const first = await giftListCart(db);
  // A second guest holds the same item in their own cart (both fit while nothing is paid yet).
  const second = await addGiftListItemToCart(db, { cartId: null, code: first.list.code, input: { itemId: first.item.id, quantity: 1 } });
  if (!second.ok) throw new Error(second.error);
  await db.update(giftListItems).set({ quantityWished: 1 }).where(eq(giftListItems.id, first.item.id));
  const a = await placeTestOrder(db, { cartId: first.cartId, input: giverInput(), now });
  const b = await placeTestOrder(db, { cartId: second.cartId, input: giverInput(), now });
  if (!a.ok || !b.ok) throw new Error("refused");
  for (const order of [a, b])
    await markOrderPaid(db, { orderId: order.orderId, provider: "bank_transfer", providerRef: null, amountCents: 13590, now, links });
  const [stored] = await db.select({ quantityBought: giftListItems.quantityBought }).from(giftListItems).where(eq(giftListItems.id, first.item.id));
  expect(stored!.quantityBought).toBe(1);
  const history = await db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, b.orderId)).orderBy(asc(orderStatusHistory.id));
  expect(history.at(-1)).toMatchObject({ fromStatus: "paid", toStatus: "paid" });
  expect(history.at(-1)!.note).toMatch(/^gift-list-overflow:1 /);
  const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, b.orderId));
  expect(order!.status).toBe("paid");
});
