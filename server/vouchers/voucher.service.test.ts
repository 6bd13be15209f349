import { and, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { giftCardMovements, giftCards, giftListFunds, orders, outboxEmails } from "#server/db/schema.ts";
import { billedLinesOfOrder } from "#server/invoices/invoice.ts";
import { orderFactsOf } from "#server/invoices/invoice.service.ts";
import { findGiftCard } from "#server/gift-cards/gift-card.service.ts";
import { deliverDueEmails } from "#server/mail/delivery.service.ts";
import type { OutgoingMail } from "#server/mail/mailer.ts";
import { changeOrderStatus, markOrderPaid } from "#server/orders/order.service.ts";
import { orderEffects } from "#server/orders/order-effects.ts";
import { createTestDb } from "#tests/db.ts";
import { createGiftList, createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { mergeCarts } from "#server/cart/cart.service.ts";
import { cartWith, checkoutInput, placeTestOrder, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import { orderLines, orderVouchers } from "#server/db/schema.ts";
import { addGiftListFund, getOwnerFunds } from "./gift-list-fund.service";
import { addFundContributionToCart, addGiftCardToCart, getCartVouchers, moveCartVouchers, printableGiftCard } from "./voucher.service";
import { BuyGiftCardInput, parseVoucherForm } from "./voucher.inputs";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-03-02T10:00:00Z");
const links = { publicUrl: testPublicUrl, secret: testSecret };

function giftCardInput(fields: Record<string, string> = {}) {
  const parsed = parseVoucherForm(BuyGiftCardInput, {
    preset: "5000",
    senderName: "Zia Carla",
    recipientName: "Giulia",
    delivery: "email",
    recipientEmail: "giulia@example.it",
    deliverOn: "2026-03-10",
    message: "Auguri!",
    ...fields,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.input;
}

async function paidOrder(db: Db, cartId: string, form: Record<string, string> = {}) {
  const placed = await placeTestOrder(db, { cartId, now, input: checkoutInput(form) });
  if (!placed.ok) throw new Error(`refused: ${placed.error}`);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now, links });
  return placed.orderId;
}

test("a gift card in the cart: inside the total, outside the goods, VAT and invoice; no delivery needed on its own", async () => {
  const db = await openDb();
  const added = await addGiftCardToCart(db, { cartId: null, input: giftCardInput(), now });
  expect(added.ok).toBe(true);
  const cartId = added.ok ? added.cartId : "";
  const alone = await getCheckoutSummary(db, { cartId, locale: "it", now, payment: "card" });
  expect(alone).toMatchObject({ voucherOnly: true, voucherCents: 5000, totalCents: 5000, shippingCents: 0, blocker: null, deliveries: [] });

  const product = await createProduct(db, { priceCents: 2000, variants: [{ stock: 3 }] });
  const mixed = await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]);
  await addGiftCardToCart(db, { cartId: mixed, input: giftCardInput({ preset: "2500" }), now });
  const orderId = await paidOrder(db, mixed, { deliveryMethod: "collection", paymentMethod: "card" });
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  expect(order).toMatchObject({ subtotalCents: 2000, voucherCents: 2500, totalCents: 4500 });
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  // The invoice bills the goods only: no discount line made up from the voucher's amount.
  const billed = billedLinesOfOrder(orderFactsOf(order!, lines));
  expect(billed.reduce((sum, line) => sum + line.grossCents, 0)).toBe(2000);
  expect(billed.every((line) => line.grossCents > 0)).toBe(true);
  expect(await getCartVouchers(db, mixed)).toEqual([]);
});

test("bad amounts and days are refused, nothing added", async () => {
  const db = await openDb();
  expect((await addGiftCardToCart(db, { cartId: null, input: { ...giftCardInput(), amountCents: 400 }, now })).ok).toBe(false);
  expect(await addGiftCardToCart(db, { cartId: null, input: { ...giftCardInput(), amountCents: 50_001 }, now })).toEqual({
    ok: false,
    error: "amount-out-of-range",
  });
  expect(await addGiftCardToCart(db, { cartId: null, input: giftCardInput({ deliverOn: "2027-03-03" }), now })).toEqual({
    ok: false,
    error: "deliver-day-out-of-range",
  });
  expect(await addGiftCardToCart(db, { cartId: null, input: giftCardInput({ deliverOn: "2026-03-01" }), now })).toEqual({
    ok: false,
    error: "deliver-day-out-of-range",
  });
  expect(parseVoucherForm(BuyGiftCardInput, { preset: "", amount: "abc", senderName: "", recipientName: "G", delivery: "email" })).toMatchObject({
    ok: false,
    errors: { senderName: "vouchers.errors.senderNameRequired" },
  });
  expect(parseVoucherForm(BuyGiftCardInput, { preset: "", amount: "abc", senderName: "Ada", recipientName: "G", delivery: "email" })).toMatchObject({
    ok: false,
    errors: { amount: "vouchers.errors.amount", recipientEmail: "vouchers.errors.recipientEmail", deliverOn: "vouchers.errors.deliverOn" },
  });
  const [card] = await db.select().from(giftCards);
  expect(card).toBeUndefined();
});

test("paid: the card is issued once even when the paid effect runs twice; its mail waits for the day chosen", async () => {
  const db = await openDb();
  const added = await addGiftCardToCart(db, { cartId: null, input: giftCardInput(), now });
  const cartId = added.ok ? added.cartId : "";
  const orderId = await paidOrder(db, cartId, { paymentMethod: "card", deliveryMethod: "collection" });
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  await db.transaction((tx) => orderEffects().paid(tx, { order: order!, now, publicUrl: testPublicUrl, secret: testSecret }));
  const cards = await db.select().from(giftCards);
  expect(cards).toHaveLength(1);
  expect(cards[0]).toMatchObject({ origin: "online", initialCents: 5000, balanceCents: 5000, purchaseOrderId: orderId, deliverOn: "2026-03-10" });

  // The buyer's "payment received" mail says where the card goes.
  const [paidMail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "order-paid"));
  expect(paidMail!.textBody).toContain("Inviata a giulia@example.it");
  const [mail] = await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "gift-card-voucher"));
  expect(mail!.toAddress).toBe("giulia@example.it");
  expect(mail!.nextAttemptAt.toISOString()).toBe("2026-03-10T07:00:00.000Z");
  const code = /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/.exec(mail!.textBody)![0];
  expect(mail!.textBody).toContain("Zia Carla");
  expect(mail!.textBody).toContain("Auguri!");
  expect(await findGiftCard(db, { code, now })).toMatchObject({ ok: true });

  const sent: OutgoingMail[] = [];
  const mailer = { send: async (message: OutgoingMail) => void sent.push(message), close: () => {} };
  await deliverDueEmails(db, mailer, { now: new Date("2026-03-09T12:00:00Z") });
  expect(sent.filter((message) => message.to === "giulia@example.it")).toHaveLength(0);
  await deliverDueEmails(db, mailer, { now: new Date("2026-03-10T07:30:00Z") });
  expect(sent.filter((message) => message.to === "giulia@example.it")).toHaveLength(1);
});

test("'I'll print it': the print page makes the card's code again; refunded unspent, the card stops", async () => {
  const db = await openDb();
  const added = await addGiftCardToCart(db, { cartId: null, input: giftCardInput({ delivery: "print" }), now });
  const cartId = added.ok ? added.cartId : "";
  const vouchers = await getCartVouchers(db, cartId);
  expect(vouchers[0]).toMatchObject({ recipientEmail: null, deliverOn: null });
  const orderId = await paidOrder(db, cartId, { paymentMethod: "card", deliveryMethod: "collection" });
  const [line] = await db.select({ id: orderVouchers.id }).from(orderVouchers).where(eq(orderVouchers.orderId, orderId));
  const card = await printableGiftCard(db, { orderId, voucherId: line!.id, secret: testSecret });
  expect(card).toMatchObject({ amountCents: 5000, recipientName: "Giulia", senderName: "Zia Carla" });
  expect(await findGiftCard(db, { code: card!.code, now })).toMatchObject({ ok: true });
  expect(await printableGiftCard(db, { orderId, voucherId: line!.id, secret: "another-secret-of-some-other-shop" })).toBeNull();
  expect((await db.select().from(outboxEmails).where(eq(outboxEmails.kind, "gift-card-voucher"))).length).toBe(0);

  await changeOrderStatus(db, { orderId, to: "refunded", actorUserId: null, now, links });
  expect(await findGiftCard(db, { code: card!.code, now })).toMatchObject({ ok: false, error: "inactive" });
});

test("an unpaid order cancelled issues nothing", async () => {
  const db = await openDb();
  const product = await createProduct(db, { priceCents: 1000, variants: [{ stock: 3 }] });
  const cartId = await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]);
  await addGiftCardToCart(db, { cartId, input: giftCardInput(), now });
  const placed = await placeTestOrder(db, { cartId, now, input: checkoutInput({ deliveryMethod: "collection", paymentMethod: "bank_transfer" }) });
  expect(placed.ok).toBe(true);
  if (placed.ok) await changeOrderStatus(db, { orderId: placed.orderId, to: "cancelled", actorUserId: null, now, links });
  expect(await db.select().from(giftCards)).toEqual([]);
});

test("fund contributions: gift-list mixing rules, summed onto the owner's one card", async () => {
  const db = await openDb();
  const product = await createProduct(db, { priceCents: 1000, variants: [{ stock: 3 }] });
  const list = await createGiftList(db, [product.variantId]);
  expect(
    await addGiftListFund(db, {
      userId: list.ownerUserId,
      giftListId: list.id,
      input: { title: "Per la cameretta", description: "", targetCents: 30_000 },
      now,
    }),
  ).toEqual({
    ok: true,
  });
  const [fund] = await db.select().from(giftListFunds).where(eq(giftListFunds.giftListId, list.id));

  const ordinary = await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]);
  const contribution = { fundId: fund!.id, amountCents: 2000, senderName: "Nonna Pina", message: "Per Sofia" };
  expect(await addFundContributionToCart(db, { cartId: ordinary, input: contribution, now })).toEqual({
    ok: false,
    error: "gift-list-conflict-ordinary",
  });
  expect(await addFundContributionToCart(db, { cartId: null, input: { ...contribution, amountCents: 499 }, now })).toEqual({
    ok: false,
    error: "amount-out-of-range",
  });

  const first = await addFundContributionToCart(db, { cartId: null, input: contribution, now });
  const firstCart = first.ok ? first.cartId : "";
  expect(await addGiftCardToCart(db, { cartId: firstCart, input: giftCardInput(), now })).toEqual({
    ok: false,
    error: "gift-list-conflict-gift-list",
  });
  await paidOrder(db, firstCart, { paymentMethod: "card" });
  const second = await addFundContributionToCart(db, { cartId: null, input: { ...contribution, amountCents: 3500, senderName: "Zio Ugo" }, now });
  await paidOrder(db, second.ok ? second.cartId : "", { paymentMethod: "card" });

  const [owner] = await getOwnerFunds(db, { giftListId: list.id, secret: testSecret });
  expect(owner).toMatchObject({ collectedCents: 5500, progressPercent: 18 });
  expect(owner!.contributions.map((entry) => [entry.giverName, entry.amountCents])).toEqual(
    expect.arrayContaining([
      ["Nonna Pina", 2000],
      ["Zio Ugo", 3500],
    ]),
  );
  expect(owner!.card).toMatchObject({ balanceCents: 5500 });
  const found = await findGiftCard(db, { code: owner!.card!.code!, now });
  expect(found).toMatchObject({ ok: true, card: { origin: "fund", initialCents: 5500, balanceCents: 5500 } });
  const cards = await db
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.origin, "fund")));
  expect(cards).toHaveLength(1);
});

test("a paid contribution refunded or cancelled comes off the fund's card as far as it is unspent, and off the collected sum", async () => {
  const db = await openDb();
  const product = await createProduct(db, { priceCents: 1500, variants: [{ stock: 3 }] });
  const list = await createGiftList(db, [product.variantId]);
  await addGiftListFund(db, {
    userId: list.ownerUserId,
    giftListId: list.id,
    input: { title: "Per la cameretta", description: "", targetCents: null },
    now,
  });
  const [fund] = await db.select().from(giftListFunds).where(eq(giftListFunds.giftListId, list.id));
  const contribute = async (senderName: string, amountCents: number) => {
    const added = await addFundContributionToCart(db, { cartId: null, input: { fundId: fund!.id, amountCents, senderName, message: "" }, now });
    return paidOrder(db, added.ok ? added.cartId : "", { paymentMethod: "card" });
  };
  const nonna = await contribute("Nonna Pina", 2000);
  const zio = await contribute("Zio Ugo", 3500);
  const ownerFund = async () => (await getOwnerFunds(db, { giftListId: list.id, secret: testSecret }))[0]!;
  const code = (await ownerFund()).card!.code!;
  const movementsOf = async (orderId: string) =>
    (await db.select().from(giftCardMovements).where(eq(giftCardMovements.orderId, orderId))).map((row) => [row.kind, row.amountCents]);

  // Refunded while the card still holds it: all of it comes off; the giver no longer shows to the owner.
  await changeOrderStatus(db, { orderId: zio, to: "refunded", actorUserId: null, now, links });
  expect(await ownerFund()).toMatchObject({ collectedCents: 2000, card: { balanceCents: 2000 } });
  expect((await ownerFund()).contributions.map((entry) => entry.giverName)).toEqual(["Nonna Pina"]);
  expect(await movementsOf(zio)).toEqual([
    ["fund_contribution", 3500],
    ["fund_contribution", -3500],
  ]);

  // The owner spends 15 € of the card; the other contribution, cancelled after payment, comes off as far as it is unspent.
  const spendCart = await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]);
  const spent = await placeTestOrder(db, {
    cartId: spendCart,
    now,
    input: checkoutInput({ deliveryMethod: "collection", paymentMethod: "bank_transfer", giftCardCode: code }),
  });
  expect(spent.ok).toBe(true);
  expect((await ownerFund()).card).toMatchObject({ balanceCents: 500 });
  await changeOrderStatus(db, { orderId: nonna, to: "cancelled", actorUserId: null, now, links });
  expect(await ownerFund()).toMatchObject({ collectedCents: 0, contributions: [], card: { balanceCents: 0 } });
  expect(await movementsOf(nonna)).toEqual([["fund_contribution", -500]]);
  const [card] = await db.select().from(giftCards).where(eq(giftCards.origin, "fund"));
  // The balance is still the sum of the card's movements.
  const all = await db.select().from(giftCardMovements).where(eq(giftCardMovements.giftCardId, card!.id));
  expect(all.reduce((sum, row) => sum + row.amountCents, 0)).toBe(card!.balanceCents);
});

test("at sign-in a guest's gift card joins the account's cart; another customer's cart is never taken", async () => {
  const db = await openDb();
  const product = await createProduct(db);
  // The account's cart: a cart that became a customer's at an earlier sign-in.
  const account = (
    await mergeCarts(db, { fromCartId: await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]), toUserId: await createUser(db) })
  ).cartId!;
  const guest = await addGiftCardToCart(db, { cartId: null, input: giftCardInput(), now });
  if (!guest.ok) throw new Error("not added");

  expect(await moveCartVouchers(db, { fromCartId: guest.cartId, toCartId: account })).toEqual({ moved: 1, refused: 0 });
  expect((await getCartVouchers(db, account)).map((voucher) => voucher.amountCents)).toEqual([5000]);
  expect(await getCartVouchers(db, guest.cartId)).toEqual([]);

  // The account's cart is someone's: moving from it is refused, whatever the cookie says.
  const other = await addGiftCardToCart(db, { cartId: null, input: giftCardInput({ preset: "2500" }), now });
  if (!other.ok) throw new Error("not added");
  expect(await moveCartVouchers(db, { fromCartId: account, toCartId: other.cartId })).toEqual({ moved: 0, refused: 0 });
  expect((await getCartVouchers(db, account)).map((voucher) => voucher.amountCents)).toEqual([5000]);
});
