import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { giftListItems, orderLines, orders, outboxEmails, returns, stockMovements } from "#server/db/schema.ts";
import { addGiftListItemToCart, setCartGiftNote } from "#server/gift-lists/gift-list-public.service.ts";
import { listGiftThanks } from "#server/gift-lists/gift-list-thanks.service.ts";
import { changeOrderStatus, markOrderPaid } from "#server/orders/order.service.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { afterSalesLinks, deliveredOrder, type DeliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { checkoutInput, placeTestOrder, stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import { createTestDb } from "#tests/db.ts";
import { authoriseReturn, listReturnsOfOrder, openFaultyReturn, receiveReturn, refuseReturn } from "./returns.service";
import { submitWithdrawal } from "./withdrawal.service";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

/** The customer withdraws from both bibs and the blanket: the return it opens. */
async function withdrawn(db: Db, order: DeliveredOrder) {
  const done = await submitWithdrawal(db, {
    orderId: order.orderId,
    access: { hasOrderLink: true, userId: null },
    input: {
      submissionKey: crypto.randomUUID(),
      name: "Maria Rossi",
      iban: null,
      lines: [
        { orderLineId: order.bib.id, quantity: 2 },
        { orderLineId: order.blanket.id, quantity: 1 },
      ],
    },
    locale: "it",
    now: new Date(),
    links: afterSalesLinks,
  });
  if (!done.ok) throw new Error(done.error);
  const [row] = await db.select().from(returns).where(eq(returns.withdrawalId, done.withdrawalId));
  return row!;
}

test("authorising mails the shop's shipping instructions, once", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const opened = await withdrawn(db, order);
  const now = new Date();
  expect(await authoriseReturn(db, { returnId: opened.id, now, links: afterSalesLinks })).toEqual({ ok: true });
  expect(await authoriseReturn(db, { returnId: opened.id, now, links: afterSalesLinks })).toEqual({ ok: false, error: "not-allowed" });
  const mails = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "return-authorised"));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.subject).toBe(`Reso n. ${opened.number} autorizzato: ordine n. ${order.orderNumber}`);
  expect(mails[0]!.textBody).toContain("Imballa gli articoli nella loro confezione originale");
  const view = await getOrderView(db, { orderId: order.orderId, locale: null });
  expect(view!.history.map((entry) => entry.note).slice(-2)).toEqual([`withdrawal-received:${opened.number}`, `return-authorised:${opened.number}`]);
});

test("receiving puts restocked units back through the ledger; damaged ones stay out, with their reason", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const opened = await withdrawn(db, order);
  const now = new Date();
  const bibStock = await stockOf(db, order.bib.variantId);
  const blanketStock = await stockOf(db, order.blanket.variantId);
  // not before it is authorised
  const lines = [
    { orderLineId: order.bib.id, restocked: 1, damaged: 1, damageReason: "Macchiato" },
    { orderLineId: order.blanket.id, restocked: 1, damaged: 0, damageReason: null },
  ];
  expect(await receiveReturn(db, { returnId: opened.id, lines, actorUserId: null, now })).toEqual({ ok: false, error: "not-allowed" });
  await authoriseReturn(db, { returnId: opened.id, now, links: null });
  // bad counts: more than announced, a damaged unit without a reason, a line not in the return
  expect(await receiveReturn(db, { returnId: opened.id, lines: [{ ...lines[0]!, restocked: 2 }, lines[1]!], actorUserId: null, now })).toEqual({
    ok: false,
    error: "bad-quantities",
  });
  expect(await receiveReturn(db, { returnId: opened.id, lines: [{ ...lines[0]!, damageReason: " " }, lines[1]!], actorUserId: null, now })).toEqual({
    ok: false,
    error: "reason-required",
  });
  expect(
    await receiveReturn(db, {
      returnId: opened.id,
      lines: [...lines, { orderLineId: order.towel.id, restocked: 1, damaged: 0, damageReason: null }],
      actorUserId: null,
      now,
    }),
  ).toEqual({ ok: false, error: "bad-quantities" });
  expect(await stockOf(db, order.bib.variantId)).toBe(bibStock);

  expect(await receiveReturn(db, { returnId: opened.id, lines, actorUserId: null, now })).toEqual({ ok: true });
  expect(await receiveReturn(db, { returnId: opened.id, lines, actorUserId: null, now })).toEqual({ ok: false, error: "not-allowed" });
  expect(await stockOf(db, order.bib.variantId)).toBe(bibStock + 1);
  expect(await stockOf(db, order.blanket.variantId)).toBe(blanketStock + 1);
  const movements = await db
    .select({ variantId: stockMovements.variantId, delta: stockMovements.delta })
    .from(stockMovements)
    .where(eq(stockMovements.reason, "return-received"))
    .orderBy(asc(stockMovements.variantId));
  expect(movements).toEqual(
    [
      { variantId: order.bib.variantId, delta: 1 },
      { variantId: order.blanket.variantId, delta: 1 },
    ].sort((a, b) => a.variantId - b.variantId),
  );
  const [view] = await listReturnsOfOrder(db, order.orderId);
  expect(view!.status).toBe("received");
  expect(view!.lines.find((line) => line.orderLineId === order.bib.id)).toMatchObject({ restocked: 1, damaged: 1, damageReason: "Macchiato" });
});

test("a return is refused with a reason; the staff open one for a faulty item, even a personalised one", async () => {
  const db = await openDb();
  const order = await deliveredOrder(db);
  const opened = await withdrawn(db, order);
  const now = new Date();
  expect(await refuseReturn(db, { returnId: opened.id, reason: "  ", now })).toEqual({ ok: false, error: "reason-required" });
  expect(await refuseReturn(db, { returnId: opened.id, reason: "Articoli usati", now })).toEqual({ ok: true });
  expect(await authoriseReturn(db, { returnId: opened.id, now, links: null })).toEqual({ ok: false, error: "not-allowed" });

  expect(
    await openFaultyReturn(db, { orderId: order.orderId, lines: [{ orderLineId: order.towel.id, quantity: 2 }], refundIban: null, now }),
  ).toEqual({
    ok: false,
    error: "bad-quantities",
  });
  const faulty = await openFaultyReturn(db, { orderId: order.orderId, lines: [{ orderLineId: order.towel.id, quantity: 1 }], refundIban: null, now });
  expect(faulty.ok).toBe(true);
  const views = await listReturnsOfOrder(db, order.orderId);
  expect(views.map((view) => [view.reason, view.status, view.refusalReason])).toEqual([
    ["withdrawal", "refused", "Articoli usati"],
    ["faulty", "requested", null],
  ]);
});

test("a gift-list purchase sent back no longer counts as bought, and the list's owner sees it", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { nameIt: "Culla Sogno", priceCents: 9900, variants: [{ stock: 5 }] });
  const list = await createGiftList(db, [variantId]);
  const added = await addGiftListItemToCart(db, { cartId: null, code: list.code, input: { itemId: list.itemIds[0], quantity: 2 } });
  if (!added.ok) throw new Error(added.error);
  await setCartGiftNote(db, { cartId: added.cartId, input: { giverName: "Zia Carla", giftMessage: "Auguri" } });
  const buyer = await createUser(db);
  const placed = await placeTestOrder(db, { cartId: added.cartId, userId: buyer, input: checkoutInput() });
  if (!placed.ok) throw new Error(placed.error);
  const now = new Date();
  const [total] = await db.select({ cents: orders.totalCents, delivery: orders.deliveryMethod }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: "sess_gift", amountCents: total!.cents, now });
  // A list without an address is collected by the family in the shop.
  const handover = total!.delivery === "collection" ? "ready_for_collection" : "shipped";
  for (const to of ["preparing", handover, "completed"] as const) {
    expect(await changeOrderStatus(db, { orderId: placed.orderId, to, actorUserId: null, now, carrier: "GLS" })).toEqual({ ok: true });
  }
  const bought = async () =>
    (await db.select({ n: giftListItems.quantityBought }).from(giftListItems).where(eq(giftListItems.id, list.itemIds[0]!)))[0]!.n;
  expect(await bought()).toBe(2);

  // The buyer withdraws (the list's owner has no access to the order: the buyer does, as its customer).
  const [line] = await db.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, placed.orderId));
  const input = { submissionKey: crypto.randomUUID(), name: "Carla Bianchi", iban: null, lines: [{ orderLineId: line!.id, quantity: 1 }] };
  const asOwner = await submitWithdrawal(db, {
    orderId: placed.orderId,
    access: { hasOrderLink: false, userId: list.ownerUserId },
    input,
    locale: "it",
    now,
    links: null,
  });
  expect(asOwner).toEqual({ ok: false, error: "not-your-order" });
  const done = await submitWithdrawal(db, {
    orderId: placed.orderId,
    access: { hasOrderLink: false, userId: buyer },
    input,
    locale: "it",
    now,
    links: null,
  });
  if (!done.ok) throw new Error(done.error);
  const [opened] = await db.select().from(returns).where(eq(returns.withdrawalId, done.withdrawalId));
  // Withdrawing alone changes nothing for the list: the units count until they are back.
  expect(await bought()).toBe(2);
  await authoriseReturn(db, { returnId: opened!.id, now, links: null });
  expect(
    await receiveReturn(db, {
      returnId: opened!.id,
      lines: [{ orderLineId: line!.id, restocked: 1, damaged: 0, damageReason: null }],
      actorUserId: null,
      now,
    }),
  ).toEqual({ ok: true });
  expect(await bought()).toBe(1);
  const thanks = await listGiftThanks(db, { userId: list.ownerUserId, locale: "it", now });
  expect(thanks.get(list.id)?.map((gift) => [gift.giverName, gift.quantity, gift.returnedQuantity])).toEqual([["Zia Carla", 2, 1]]);
});
