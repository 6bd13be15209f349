/**
 * Group gifting below the pages: the owner opens an item, guests contribute through the card payment
 * (the labelled test-payment provider, the same path as a Stripe webhook), the round funds one order.
 */
import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test, vi } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { checkoutForm, placeTestOrder, stockOf, testPublicUrl as publicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { parseCheckoutForm } from "#server/checkout/checkout.inputs.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, giftListItems, giftLists, orderLines, orders, orderStatusHistory, outboxEmails } from "#server/db/schema.ts";
import { readEnv } from "#server/env.ts";
import { expireOrder, markOrderPaid } from "#server/orders/order.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { abandonCardPayment, startCardPayment, submitTestPayment } from "#server/payments/payment.service.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { addGiftListItemToCart, getPublicGiftList } from "./gift-list-public.service";
import { contributeToGroupGift, contributionListCodeOf, switchGroupGift } from "./gift-list-group.service";
import { listGiftThanks } from "./gift-list-thanks.service";

// Each test loads a database and pays several orders: slow on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const now = new Date("2026-11-10T10:00:00Z");
const env = readEnv({ NODE_ENV: "test", AUTH_SECRET: crypto.randomBytes(32).toString("hex") });

async function setUp(options: { poolSize?: number; stock?: number } = {}) {
  const handle = await createTestDb({ poolSize: options.poolSize });
  onTestFinished(() => handle.close());
  const { db } = handle;
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
      code: "GRPTQ234",
      ownerUserId: owner,
      title: "La lista di Sofia",
      eventDate: "2026-12-01",
      celebratedNames: "Sofia",
      shippingAddressId: address!.id,
    })
    .returning();
  const pram = await createProduct(db, { nameIt: "Trio Sogno", priceCents: 30_000, variants: [{ stock: options.stock ?? 2 }] });
  const [item] = await db.insert(giftListItems).values({ giftListId: list!.id, variantId: pram.variantId, quantityWished: 1 }).returning();
  return { db, owner, list: list!, item: item!, variantId: pram.variantId, services: { db, env, publicUrl } };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

async function openGroupGift({ db, owner, item }: Setup) {
  const opened = await switchGroupGift(db, { userId: owner, input: { itemId: item.id, groupGift: "on" }, now });
  expect(opened).toEqual({ ok: true, isGroupGift: true });
}

function contributionForm(itemId: string, fields: Record<string, string> = {}) {
  return {
    idempotencyKey: crypto.randomUUID(),
    itemId,
    amount: "100",
    giverName: "Zia Carla",
    email: "carla@example.it",
    giftMessage: "Per Sofia!",
    acceptTerms: "on",
    ...fields,
  };
}

async function contribute(setup: Setup, fields: Record<string, string>) {
  const result = await contributeToGroupGift(setup.db, {
    code: setup.list.code,
    input: contributionForm(setup.item.id, fields),
    locale: "it",
    now,
    userId: null,
    cardPayments: true,
  });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.orderId;
}

/** The guest pays on the labelled test page: the same service path as a Stripe webhook. */
async function payByCard(setup: Setup, orderId: string) {
  const started = await startCardPayment(setup.services, { orderId, locale: "it", now });
  if (!started.ok) throw new Error(started.error);
  const ref = new URL(started.redirectUrl).pathname.split("/").at(-1)!;
  await submitTestPayment(setup.services, { ref, intent: "pay", locale: "it", now });
  return ref;
}

async function itemRow(db: Db, id: string) {
  const [row] = await db.select().from(giftListItems).where(eq(giftListItems.id, id));
  return row!;
}

test("the owner opens an item as a group gift at today's price; guests see what is collected and cannot buy it whole", async () => {
  const setup = await setUp();
  const { db, item, list } = setup;
  const stranger = await createUser(db);
  expect(await switchGroupGift(db, { userId: stranger, input: { itemId: item.id, groupGift: "on" }, now })).toEqual({
    ok: false,
    error: "not-found",
  });
  await openGroupGift(setup);
  expect(await itemRow(db, item.id)).toMatchObject({ isGroupGift: true, groupTargetCents: 30_000, groupPledgedCents: 0, groupFundedCents: 0 });

  const found = await getPublicGiftList(db, { code: list.code, clientIp: "10.0.0.1", locale: "it", now });
  if (!found.ok) throw new Error(found.error);
  expect(found.list.items[0]).toMatchObject({
    maxAddable: 0,
    group: { targetCents: 30_000, fundedCents: 0, pendingCents: 0, leftCents: 30_000, fundedPercent: 0, minCents: 500 },
  });
  expect(await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 1 } })).toEqual({
    ok: false,
    error: "group-gift-only",
  });
});

test("while the shop takes no cards a contribution is refused and nothing is pledged", async () => {
  const setup = await setUp();
  const { db, item, list } = setup;
  await openGroupGift(setup);
  const form = contributionForm(item.id);
  expect(await contributeToGroupGift(db, { code: list.code, input: form, locale: "it", now, userId: null, cardPayments: false })).toEqual({
    ok: false,
    error: "group-gift-no-cards",
  });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 0 });
  expect(await db.$count(orders)).toBe(0);
});

test("a contribution above what is left is refused with the amount left; a bad form names every problem; the same form twice is one order", async () => {
  const setup = await setUp();
  const { db, item, list } = setup;
  await openGroupGift(setup);
  const form = contributionForm(item.id, { amount: "200" });
  const first = await contributeToGroupGift(db, { code: list.code, input: form, locale: "it", now, userId: null, cardPayments: true });
  const again = await contributeToGroupGift(db, { code: list.code, input: form, locale: "it", now, userId: null, cardPayments: true });
  expect(first).toMatchObject({ ok: true, alreadyPlaced: false });
  expect(again).toEqual({ ok: true, orderId: (first as { orderId: string }).orderId, alreadyPlaced: true });

  const refuse = (fields: Record<string, string>) =>
    contributeToGroupGift(db, { code: list.code, input: contributionForm(item.id, fields), locale: "it", now, userId: null, cardPayments: true });
  const left = { leftCents: 10_000, minCents: 500 };
  expect(await refuse({ amount: "150" })).toEqual({ ok: false, errors: { amount: "giftLists.errors.group-gift-amount-above-left" }, ...left });
  expect(await refuse({ amount: "4,99" })).toEqual({ ok: false, errors: { amount: "giftLists.errors.group-gift-amount-below-minimum" }, ...left });
  // A bad e-mail and too much money: both are named at once, each on its field.
  expect(await refuse({ amount: "150", email: "carla@" })).toEqual({
    ok: false,
    errors: { amount: "giftLists.errors.group-gift-amount-above-left", email: "giftLists.errors.emailInvalid" },
    ...left,
  });
  expect(await refuse({ amount: "cento", giverName: " ", email: "carla@", acceptTerms: "" })).toEqual({
    ok: false,
    errors: {
      amount: "giftLists.errors.amountInvalid",
      giverName: "giftLists.errors.giverNameRequired",
      email: "giftLists.errors.emailInvalid",
      acceptTerms: "giftLists.errors.acceptTermsRequired",
    },
    ...left,
  });
  expect(await refuse({ amount: "<b>50</b>" })).toMatchObject({ ok: false, errors: { amount: "giftLists.errors.amountInvalid" } });
  // Only the first contribution was placed: one order, 200 € pledged, nothing paid yet.
  expect(await db.select({ id: orders.id }).from(orders)).toHaveLength(1);
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 20_000, groupFundedCents: 0 });
  const [line] = await db.select().from(orderLines);
  expect(line).toMatchObject({
    name: "Contributo al regalo di gruppo: Trio Sogno",
    variantId: null,
    giftListItemId: null,
    quantity: 1,
    lineTotalCents: 20_000,
  });
});

test("two guests fund the pram: each payment counts once, even reported twice; the last one makes one paid order for the list", async () => {
  const setup = await setUp();
  const { db, item, owner, variantId } = setup;
  await openGroupGift(setup);
  const carla = await contribute(setup, { amount: "100", giverName: "Zia Carla" });
  const peppe = await contribute(setup, { amount: "200", giverName: "Nonno Peppe", email: "peppe@example.it", giftMessage: "" });

  const ref = await payByCard(setup, carla);
  // The same payment reported again: the test page again, and the order service directly.
  await submitTestPayment(setup.services, { ref, intent: "pay", locale: "it", now });
  expect(await markOrderPaid(db, { orderId: carla, provider: "test", providerRef: ref, amountCents: 10_000, now })).toEqual({
    changed: false,
    status: "paid",
  });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 30_000, groupFundedCents: 10_000, quantityBought: 0 });
  const contributionView = await getOrderView(db, { orderId: carla, locale: "it" });
  expect(contributionView!.delivery.groupGiftContribution).toBe(true);

  await payByCard(setup, peppe);
  await markOrderPaid(db, { orderId: peppe, provider: "test", providerRef: null, amountCents: 20_000, now });

  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 0, groupFundedCents: 0, quantityBought: 1 });
  expect(await stockOf(db, variantId)).toBe(1);
  const listOrders = await db
    .select()
    .from(orders)
    .where(and(eq(orders.giftListId, setup.list.id), eq(orders.userId, owner)));
  expect(listOrders).toHaveLength(1);
  const funded = listOrders[0]!;
  expect(funded).toMatchObject({
    status: "paid",
    paymentMethod: "card",
    deliveryMethod: "standard",
    street: "Via Segreta",
    firstName: "Anna",
    totalCents: 30_000,
    shippingCents: 0,
    giverName: "Zia Carla, Nonno Peppe",
  });
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, funded.id));
  expect(line).toMatchObject({ variantId, giftListItemId: item.id, quantity: 1, lineTotalCents: 30_000, isPreorder: false });
  const contributions = await db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.giftListId, setup.list.id))
    .orderBy(asc(orders.number));
  expect(contributions.map((row) => row.status)).toEqual(["completed", "completed", "paid"]);
  expect(await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "gift-list-group-funded"))).toHaveLength(1);
  const thanks = (await listGiftThanks(db, { userId: owner, locale: "it", now })).get(setup.list.id)!;
  expect(thanks.map((row) => [row.kind, row.giverName, row.amountCents]).sort()).toEqual([
    ["contribution", "Nonno Peppe", 20_000],
    ["contribution", "Zia Carla", 10_000],
  ]);
  // The list shows the gift given; no contribution is taken any more.
  expect(
    await contributeToGroupGift(db, { code: setup.list.code, input: contributionForm(item.id), locale: "it", now, userId: null, cardPayments: true }),
  ).toEqual({
    ok: false,
    error: "group-gift-nothing-needed",
  });
});

test("an unpaid contribution expires and frees its amount; paid late, it is refunded when someone else took that share", async () => {
  const setup = await setUp();
  const { db, item } = setup;
  await openGroupGift(setup);
  const early = await contribute(setup, { amount: "300" });
  expect(
    await contributeToGroupGift(db, {
      code: setup.list.code,
      input: contributionForm(item.id, { amount: "50" }),
      locale: "it",
      now,
      userId: null,
      cardPayments: true,
    }),
  ).toEqual({
    ok: false,
    error: "group-gift-full",
    leftCents: 0,
    minCents: 0,
  });
  await expireOrder(db, { orderId: early, now, reason: "card-payment-expired" });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 0 });

  const later = await contribute(setup, { amount: "300", giverName: "Nonno Peppe" });
  const late = await markOrderPaid(db, { orderId: early, provider: "test", providerRef: null, amountCents: 30_000, now });
  expect(late).toEqual({ changed: true, status: "expired", needsRefund: true });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 30_000, groupFundedCents: 0 });

  await markOrderPaid(db, { orderId: later, provider: "test", providerRef: null, amountCents: 30_000, now });
  expect(await itemRow(db, item.id)).toMatchObject({ quantityBought: 1, groupPledgedCents: 0 });
});

test("an expired contribution paid late while its share is still free counts again", async () => {
  const setup = await setUp();
  const { db, item } = setup;
  await openGroupGift(setup);
  const orderId = await contribute(setup, { amount: "120" });
  await expireOrder(db, { orderId, now, reason: "card-payment-expired" });
  expect(await markOrderPaid(db, { orderId, provider: "test", providerRef: null, amountCents: 12_000, now })).toEqual({
    changed: true,
    status: "paid",
  });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 12_000, groupFundedCents: 12_000 });
});

test("a guest who leaves the card page frees the share and goes back to the list", async () => {
  const setup = await setUp();
  const { db, item } = setup;
  await openGroupGift(setup);
  const orderId = await contribute(setup, { amount: "80" });
  await startCardPayment(setup.services, { orderId, locale: "it", now });
  expect(await contributionListCodeOf(db, orderId)).toBe(setup.list.code);
  expect(await abandonCardPayment(setup.services, { orderId, cartId: null, now })).toMatchObject({ ok: true });
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 0, groupFundedCents: 0 });
  const [order] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  expect(order!.status).toBe("cancelled");
});

test("funded while the pram is out of stock: the order still stands, marked for the staff to order it in", async () => {
  const setup = await setUp({ stock: 0 });
  const { db, item } = setup;
  await openGroupGift(setup);
  await payByCard(setup, await contribute(setup, { amount: "300" }));
  const [funded] = await db.select().from(orders).where(eq(orders.userId, setup.owner));
  expect(funded).toMatchObject({ status: "paid", totalCents: 30_000 });
  const [line] = await db.select().from(orderLines).where(eq(orderLines.orderId, funded!.id));
  expect(line!.isPreorder).toBe(true);
  const notes = await db.select({ note: orderStatusHistory.note }).from(orderStatusHistory).where(eq(orderStatusHistory.orderId, funded!.id));
  expect(notes.map((row) => row.note)).toContain("group-gift-out-of-stock");
  expect(await stockOf(db, setup.variantId)).toBe(0);
  expect(await itemRow(db, item.id)).toMatchObject({ quantityBought: 1 });
});

test("an ordinary order awaiting payment keeps the item from becoming a group gift; an item opened meanwhile is not sold whole; a running round cannot close", async () => {
  const setup = await setUp();
  const { db, owner, item, list } = setup;
  const guest = await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 1 } });
  if (!guest.ok) throw new Error(guest.error);
  const giver = parseCheckoutForm(
    checkoutForm({ paymentMethod: "bank_transfer", street: "", houseNumber: "", postcode: "", city: "", province: "" }),
    "it",
    { giftList: true },
  );
  if (!giver.ok) throw new Error("form");
  const placed = await placeTestOrder(db, { cartId: guest.cartId, input: giver.input, now });
  if (!placed.ok) throw new Error(placed.error);
  expect(await switchGroupGift(db, { userId: owner, input: { itemId: item.id, groupGift: "on" }, now })).toEqual({
    ok: false,
    error: "group-gift-busy",
  });
  await expireOrder(db, { orderId: placed.orderId, now, reason: "bank-transfer-not-received" });

  // Another guest has it in the cart; the owner opens it meanwhile: that checkout is refused.
  const other = await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: item.id, quantity: 1 } });
  if (!other.ok) throw new Error(other.error);
  await openGroupGift(setup);
  expect(await placeTestOrder(db, { cartId: other.cartId, input: { ...giver.input, idempotencyKey: crypto.randomUUID() }, now })).toMatchObject({
    ok: false,
    error: "gift-list-shortfall",
  });

  await contribute(setup, { amount: "50" });
  expect(await switchGroupGift(db, { userId: owner, input: { itemId: item.id, groupGift: "off" }, now })).toEqual({
    ok: false,
    error: "group-gift-busy",
  });
  expect(await itemRow(db, item.id)).toMatchObject({ isGroupGift: true, groupPledgedCents: 5000 });
});

testOnPostgres("two guests race for the last 50 €: one contribution is placed, the other is told nothing is left", async () => {
  const setup = await setUp({ poolSize: 4 });
  const { db, item, list } = setup;
  await openGroupGift(setup);
  await contribute(setup, { amount: "250" });
  const outcomes = await Promise.all(
    ["Zia Carla", "Nonno Peppe"].map((giverName) =>
      contributeToGroupGift(db, {
        code: list.code,
        input: contributionForm(item.id, { amount: "50", giverName }),
        locale: "it",
        now,
        userId: null,
        cardPayments: true,
      }),
    ),
  );
  expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
  expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([{ ok: false, error: "group-gift-full", leftCents: 0, minCents: 0 }]);
  expect(await itemRow(db, item.id)).toMatchObject({ groupPledgedCents: 30_000 });
  expect(await db.select({ id: orders.id }).from(orders)).toHaveLength(2);
});

testOnPostgres("the two last contributions paid at the same moment fund one order", async () => {
  const setup = await setUp({ poolSize: 4 });
  const { db, item } = setup;
  await openGroupGift(setup);
  const halves = [await contribute(setup, { amount: "150" }), await contribute(setup, { amount: "150", giverName: "Nonno Peppe" })];
  await Promise.all(halves.map((orderId) => markOrderPaid(db, { orderId, provider: "test", providerRef: null, amountCents: 15_000, now })));
  expect(await itemRow(db, item.id)).toMatchObject({ quantityBought: 1, groupPledgedCents: 0, groupFundedCents: 0 });
  expect(await db.select().from(orders).where(eq(orders.userId, setup.owner))).toHaveLength(1);
  expect(await stockOf(db, setup.variantId)).toBe(1);
});
