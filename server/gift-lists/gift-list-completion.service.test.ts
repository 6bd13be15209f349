import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { discountCodes, giftListItems, giftLists, orders, productVariants, shopSettings } from "#server/db/schema.ts";
import { cancelOrder, expireOrder, markOrderPaid } from "#server/orders/order.service.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { getCompletionCodes } from "./gift-list-completion.service.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** The fixture's lists are for 1 December 2026; the default window is 60 days at 10%. */
const beforeEvent = new Date("2026-11-30T10:00:00Z");
const afterEvent = new Date("2026-12-05T10:00:00Z");
const afterWindow = new Date("2027-02-01T10:00:00Z");

/** A list wishing 3 of a 20 € bodysuit (1 already bought) and 3 of a 100 € pram, and its owner. */
async function listAndOwner(db: Db) {
  const bodysuit = await createProduct(db, { priceCents: 2000, variants: [{ stock: 20 }] });
  const pram = await createProduct(db, { priceCents: 10_000, variants: [{ stock: 20 }] });
  const list = await createGiftList(db, [bodysuit.variantIds[0]!, pram.variantIds[0]!]);
  await db.update(giftListItems).set({ quantityBought: 1 }).where(eq(giftListItems.id, list.itemIds[0]!));
  const [row] = await db.select({ ownerUserId: giftLists.ownerUserId }).from(giftLists).where(eq(giftLists.id, list.id));
  return { list, ownerId: row!.ownerUserId, bodysuitId: bodysuit.variantIds[0]!, pramId: pram.variantIds[0]! };
}

test("the owner's code appears once, from the event date until the window closes, with the back office's percent", async () => {
  const db = await openDb();
  const { list, ownerId } = await listAndOwner(db);
  expect((await getCompletionCodes(db, { userId: ownerId, now: beforeEvent })).size).toBe(0);

  await db.insert(shopSettings).values({ key: "giftListCompletion", value: { percent: 15, windowDays: 30 } });
  const first = (await getCompletionCodes(db, { userId: ownerId, now: afterEvent })).get(list.id);
  expect(first).toMatchObject({ code: `GRAZIE${list.code}`, percent: 15, isUsed: false });
  expect(first!.validFrom.toISOString()).toBe("2026-11-30T23:00:00.000Z");
  expect(first!.validUntil.toISOString()).toBe("2026-12-30T23:00:00.000Z");
  // Idempotent: loading the page again (or at once twice) creates no second code.
  await Promise.all([getCompletionCodes(db, { userId: ownerId, now: afterEvent }), getCompletionCodes(db, { userId: ownerId, now: afterEvent })]);
  expect(await db.select().from(discountCodes)).toHaveLength(1);
  // Another customer gets nothing of it.
  expect((await getCompletionCodes(db, { userId: await createUser(db), now: afterEvent })).size).toBe(0);
});

test("a list with everything bought gets no code", async () => {
  const db = await openDb();
  const { list, ownerId } = await listAndOwner(db);
  await db.update(giftListItems).set({ quantityBought: 3 }).where(eq(giftListItems.giftListId, list.id));
  expect((await getCompletionCodes(db, { userId: ownerId, now: afterEvent })).size).toBe(0);
});

test("the summary and the order take 10% off only the list's still-needed units; the code is then used", async () => {
  const db = await openDb();
  const { list, ownerId, bodysuitId, pramId } = await listAndOwner(db);
  const other = await createProduct(db, { priceCents: 5000, variants: [{ stock: 5 }] });
  await getCompletionCodes(db, { userId: ownerId, now: afterEvent });
  // 3 bodysuits (2 still needed), 1 pram, 1 item not on the list.
  const cartId = await cartWith(db, [
    { variantId: bodysuitId, quantity: 3 },
    { variantId: pramId, quantity: 1 },
    { variantId: other.variantIds[0]!, quantity: 1 },
  ]);
  const code = `grazie-${list.code.toLowerCase()}`;
  const summary = await getCheckoutSummary(db, {
    cartId,
    locale: "it",
    now: afterEvent,
    postcode: "20121",
    delivery: "standard",
    discountCode: code,
    userId: ownerId,
  });
  // 10% of 2 × 20 € + 10% of 100 € = 4 € + 10 € = 14 €.
  expect(summary.discountCode).toMatchObject({ code: `GRAZIE${list.code}`, percent: 10, discountCents: 1400 });
  expect(summary.discountCodeError).toBeNull();
  expect(summary.subtotalCents).toBe(6000 + 10_000 + 5000 - 1400);
  expect(summary.totalCents).toBe(summary.subtotalCents + summary.shippingCents);

  const placed = await placeTestOrder(db, { cartId, userId: ownerId, now: afterEvent, input: checkoutInput({ discountCode: code }) });
  expect(placed).toMatchObject({ ok: true });
  const [order] = await db.select().from(orders);
  const [stored] = await db.select().from(discountCodes);
  expect(order).toMatchObject({ discountCodeId: stored!.id, discountCents: 1400, subtotalCents: 19_600, totalCents: summary.totalCents });
  expect(stored!.usedCount).toBe(1);

  // Used: a second order with it is refused, and nothing changes.
  const again = await cartWith(db, [{ variantId: pramId, quantity: 1 }]);
  expect(await placeTestOrder(db, { cartId: again, userId: ownerId, now: afterEvent, input: checkoutInput({ discountCode: code }) })).toEqual({
    ok: false,
    error: "discount-code",
    discountError: "used",
  });
  expect(await db.select().from(orders)).toHaveLength(1);
});

test("unknown, not yet valid, expired, someone else's, a guest's, nothing from the list: a clear refusal and nothing changes", async () => {
  const db = await openDb();
  const { list, ownerId, pramId } = await listAndOwner(db);
  await getCompletionCodes(db, { userId: ownerId, now: afterEvent });
  const code = `GRAZIE${list.code}`;
  const stranger = await createUser(db);
  const cartId = await cartWith(db, [{ variantId: pramId, quantity: 1 }]);
  const refusal = async (typed: string, userId: string | null, now: Date) => {
    const summary = await getCheckoutSummary(db, { cartId, locale: "it", now, discountCode: typed, userId });
    expect(summary.discountCode).toBeNull();
    const placed = await placeTestOrder(db, { cartId, userId, now, input: checkoutInput({ discountCode: typed }) });
    expect(placed).toMatchObject({ ok: false, error: "discount-code", discountError: summary.discountCodeError });
    return summary.discountCodeError;
  };
  expect(await refusal("NOPE1234", ownerId, afterEvent)).toBe("unknown");
  expect(await refusal("' or 1=1 --", ownerId, afterEvent)).toBe("unknown");
  expect(await refusal(code, ownerId, beforeEvent)).toBe("not-yet-valid");
  expect(await refusal(code, ownerId, afterWindow)).toBe("expired");
  expect(await refusal(code, stranger, afterEvent)).toBe("not-yours");
  expect(await refusal(code, null, afterEvent)).toBe("not-yours");
  const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, pramId));
  expect(variant!.stock).toBe(20);
  expect(await db.select().from(orders)).toHaveLength(0);
  const [stored] = await db.select().from(discountCodes);
  expect(stored!.usedCount).toBe(0);

  // A cart with nothing from the list: no eligible lines.
  const other = await createProduct(db, { priceCents: 5000 });
  const unrelated = await cartWith(db, [{ variantId: other.variantIds[0]!, quantity: 1 }]);
  const summary = await getCheckoutSummary(db, { cartId: unrelated, locale: "it", now: afterEvent, discountCode: code, userId: ownerId });
  expect(summary.discountCodeError).toBe("no-eligible-lines");
});

test("an order with the code that expires unpaid or is cancelled gives the use back; paid late, it takes it again only if still free", async () => {
  const db = await openDb();
  const { list, ownerId, pramId } = await listAndOwner(db);
  await getCompletionCodes(db, { userId: ownerId, now: afterEvent });
  const code = `GRAZIE${list.code}`;
  const order = async () => {
    const cartId = await cartWith(db, [{ variantId: pramId, quantity: 1 }]);
    const placed = await placeTestOrder(db, {
      cartId,
      userId: ownerId,
      now: afterEvent,
      input: checkoutInput({ discountCode: code, paymentMethod: "bank_transfer" }),
    });
    if (!placed.ok) throw new Error(placed.error);
    return placed.orderId;
  };
  const uses = async () => (await db.select({ usedCount: discountCodes.usedCount }).from(discountCodes))[0]!.usedCount;

  const expiring = await order();
  expect(await uses()).toBe(1);
  await expireOrder(db, { orderId: expiring, now: afterEvent, reason: "bank-transfer-not-received" });
  expect(await uses()).toBe(0);
  // Expiring it again changes nothing.
  await expireOrder(db, { orderId: expiring, now: afterEvent, reason: "bank-transfer-not-received" });
  expect(await uses()).toBe(0);

  const cancelled = await order();
  await cancelOrder(db, { orderId: cancelled, now: afterEvent, actorUserId: null, note: "cancelled-by-shop" });
  expect(await uses()).toBe(0);

  // The code went into a new order; the expired one is then paid late: its discount is gone, so it is refunded.
  const kept = await order();
  const stockBefore = (await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, pramId)))[0]!.stock;
  expect(await markOrderPaid(db, { orderId: expiring, provider: "bank_transfer", providerRef: null, amountCents: 1, now: afterEvent })).toEqual({
    changed: true,
    status: "expired",
    needsRefund: true,
  });
  expect(await uses()).toBe(1);
  expect((await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, pramId)))[0]!.stock).toBe(stockBefore);
  // With the code free again, the cancelled order paid late takes it back.
  await cancelOrder(db, { orderId: kept, now: afterEvent, actorUserId: null, note: "cancelled-by-shop" });
  expect(await markOrderPaid(db, { orderId: cancelled, provider: "bank_transfer", providerRef: null, amountCents: 1, now: afterEvent })).toEqual({
    changed: true,
    status: "paid",
  });
  expect(await uses()).toBe(1);
});

testOnPostgres("two checkouts with the one-use code at the same moment: one order gets the discount, the five others are refused", async () => {
  const handle = await createTestDb({ poolSize: 6 });
  onTestFinished(() => handle.close());
  const { db } = handle;
  const { list, ownerId, pramId } = await listAndOwner(db);
  await getCompletionCodes(db, { userId: ownerId, now: afterEvent });
  const carts = await Promise.all(Array.from({ length: 6 }, () => cartWith(db, [{ variantId: pramId, quantity: 1 }])));
  const outcomes = await Promise.all(
    carts.map((cartId) =>
      placeTestOrder(db, { cartId, userId: ownerId, now: afterEvent, input: checkoutInput({ discountCode: `GRAZIE${list.code}` }) }),
    ),
  );
  expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
  expect(outcomes.filter((outcome) => !outcome.ok && outcome.error === "discount-code" && outcome.discountError === "used")).toHaveLength(5);
  const [stored] = await db.select().from(discountCodes);
  expect(stored!.usedCount).toBe(1);
  expect(await db.select().from(orders)).toHaveLength(1);
  const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, pramId));
  expect(variant!.stock).toBe(19);
});
