import { asc, count, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { createProduct, createUser } from "#tests/fixtures/cart.fixtures.ts";
import { addToCart } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, cartLines, orderLines, orders, orderStatusHistory, outboxEmails, payments, products, stockMovements } from "#server/db/schema.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { createTestDb } from "#tests/db.ts";
import { cartWith, checkoutInput, placeTestOrder, stockOf, testPublicUrl, testSecret } from "#tests/fixtures/checkout.fixtures.ts";
import { parseCheckoutForm } from "./checkout.inputs";
import { getCheckoutSummary } from "./checkout.service";
import { orderAccessToken } from "#server/orders/order-access.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

async function orderCount(db: Db) {
  const [row] = await db.select({ n: count() }).from(orders);
  return row!.n;
}

/** Queued mail, with Intl's narrow and non-breaking spaces ("10,00 €") read as plain spaces. */
async function mails(db: Db) {
  const rows = await db.select().from(outboxEmails).orderBy(asc(outboxEmails.id));
  return rows.map((row) => ({ ...row, textBody: row.textBody.replace(/[\u00a0\u202f]/g, " ") }));
}

async function placedOk(db: Db, args: Parameters<typeof placeTestOrder>[1]) {
  const result = await placeTestOrder(db, args);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result;
}

test("a card order: prices from the database, stock taken, lines snapshotted, cart emptied, mail only once paid", async () => {
  const db = await openDb();
  const now = new Date("2026-03-02T10:00:00Z");
  const body = await createProduct(db, {
    nameIt: "Body neonato",
    nameEn: "Baby bodysuit",
    priceCents: 1999,
    discountPercent: 10,
    variants: [{ colour: "white", size: "M", stock: 5 }],
  });
  const cot = await createProduct(db, { priceCents: 12900, variants: [{ stock: 2 }] });
  const cartId = await cartWith(db, [
    { variantId: body.variantId, quantity: 2 },
    { variantId: cot.variantId, quantity: 1 },
  ]);
  const result = await placedOk(db, { cartId, now });
  expect(result).toMatchObject({ paymentMethod: "card", status: "awaiting_payment", alreadyPlaced: false });
  expect(result.orderNumber).toBeGreaterThanOrEqual(1001);

  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({
    subtotalCents: 1799 * 2 + 12900,
    discountCents: 400,
    shippingCents: 690,
    paymentFeeCents: 0,
    totalCents: 1799 * 2 + 12900 + 690,
    postcode: "20121",
    province: "MI",
    paymentDueAt: new Date("2026-03-02T11:00:00Z"),
    deliveryMethod: "standard",
    email: "maria.rossi@example.it",
  });
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, result.orderId)).orderBy(asc(orderLines.unitPriceCents));
  expect(lines).toMatchObject([
    {
      name: "Body neonato",
      colour: "white",
      size: "M",
      quantity: 2,
      listPriceCents: 1999,
      discountPercent: 10,
      unitPriceCents: 1799,
      lineTotalCents: 3598,
    },
    { quantity: 1, unitPriceCents: 12900, lineTotalCents: 12900, size: null },
  ]);
  expect(await stockOf(db, body.variantId)).toBe(3);
  expect(await stockOf(db, cot.variantId)).toBe(1);
  const movements = await db
    .select({ delta: stockMovements.delta, reason: stockMovements.reason })
    .from(stockMovements)
    .orderBy(asc(stockMovements.variantId));
  expect(movements).toEqual([
    { delta: -2, reason: "order-placed" },
    { delta: -1, reason: "order-placed" },
  ]);
  expect(await db.select().from(cartLines).where(eq(cartLines.cartId, cartId))).toEqual([]);
  expect(await db.select({ to: orderStatusHistory.toStatus }).from(orderStatusHistory)).toEqual([{ to: "awaiting_payment" }]);
  // The card session's payment row belongs to the payments module; the mail waits for the payment.
  expect(await db.select().from(payments)).toEqual([]);
  expect(await mails(db)).toEqual([]);
});

test("bank transfer: the order waits the configured days; the mail has IBAN, reason, due date and the order link", async () => {
  const db = await openDb();
  const now = new Date("2026-03-02T10:00:00Z");
  const { variantId } = await createProduct(db, { priceCents: 2500 });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const result = await placedOk(db, { cartId, now, input: checkoutInput({ paymentMethod: "bank_transfer" }) });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order!.paymentDueAt).toEqual(new Date("2026-03-07T10:00:00Z"));
  expect(await db.select({ provider: payments.provider, status: payments.status, amountCents: payments.amountCents }).from(payments)).toEqual([
    { provider: "bank_transfer", status: "pending", amountCents: 2500 + 690 },
  ]);
  const [mail] = await mails(db);
  expect(mail).toMatchObject({ toAddress: "maria.rossi@example.it", kind: "order-confirmation", locale: "it" });
  expect(mail!.subject).toBe(`Ordine ${result.orderNumber} ricevuto - Bimbi Felici`);
  expect(mail!.textBody).toContain("IBAN: IT60X0542811101000000123456");
  expect(mail!.textBody).toContain(`Causale: Ordine ${result.orderNumber}`);
  expect(mail!.textBody).toContain("7 marzo 2026");
  expect(mail!.textBody).toContain("31,90 €");
  expect(mail!.textBody).toContain(`${testPublicUrl}/ordine/${result.orderId}?t=${orderAccessToken(testSecret, result.orderId)}`);
});

test("cash on delivery in the shop's town: free local delivery plus the COD fee; confirmed at once, no deadline", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { priceCents: 1000 });
  const cartId = await cartWith(db, [{ variantId, quantity: 3 }]);
  const input = checkoutInput({
    deliveryMethod: "local_delivery",
    paymentMethod: "cash_on_delivery",
    postcode: "80013",
    city: "Casalnuovo di Napoli",
    province: "NA",
  });
  const result = await placedOk(db, { cartId, input, locale: "en" });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({
    status: "awaiting_payment",
    shippingCents: 0,
    paymentFeeCents: 300,
    totalCents: 3300,
    paymentDueAt: null,
    locale: "en",
  });
  const [mail] = await mails(db);
  expect(mail!.subject).toBe(`Order ${result.orderNumber} received - Bimbi Felici`);
  expect(mail!.textBody).toContain("You will pay €33.00 in cash to the courier on delivery.");
  expect(mail!.textBody).toContain(`${testPublicUrl}/en/ordine/${result.orderId}?t=`);
});

test("pay in shop with collection: no address kept, nothing to ship", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { priceCents: 1000 });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const result = await placedOk(db, { cartId, input: checkoutInput({ deliveryMethod: "collection", paymentMethod: "in_shop" }) });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({ street: null, postcode: null, shippingCents: 0, paymentFeeCents: 0, totalCents: 1000, paymentDueAt: null });
  expect((await mails(db))[0]!.textBody).toContain("Pagherai 10,00 € in negozio al momento del ritiro.");
});

test("prices, totals and fees sent with the form are ignored: the server's prices win", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { priceCents: 4990 });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const form = { ...Object.fromEntries(Object.entries(checkoutInput()).map(([k, v]) => [k, String(v ?? "")])) };
  const tampered = parseCheckoutForm(
    { ...form, acceptTerms: "on", totalCents: "1", subtotalCents: "1", shippingCents: "0", paymentFeeCents: "0", unitPriceCents: "1", price: "0.01" },
    "it",
  );
  if (!tampered.ok) throw new Error(JSON.stringify(tampered.errors));
  const result = await placedOk(db, { cartId, input: tampered.input });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({ subtotalCents: 4990, shippingCents: 690, totalCents: 5680 });
});

test("standard delivery is free when every product ships free", async () => {
  const db = await openDb();
  const { productId, variantId } = await createProduct(db, { priceCents: 1000 });
  await db.update(products).set({ isFreeShipping: true }).where(eq(products.id, productId));
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const result = await placedOk(db, { cartId });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({ shippingCents: 0, totalCents: 1000 });
});

test("an empty or unknown cart places nothing", async () => {
  const db = await openDb();
  expect(await placeTestOrder(db, { cartId: null })).toEqual({ ok: false, error: "empty-cart" });
  expect(await placeTestOrder(db, { cartId: "6f1c1f1e-2b5a-4c8e-9a43-0d2f6c1b7e55" })).toEqual({ ok: false, error: "empty-cart" });
  expect(await orderCount(db)).toBe(0);
});

test("out of stock: nothing is taken, no order, the cart stays, the answer names what is left", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { nameIt: "Culla", variants: [{ stock: 3 }] });
  const other = await createProduct(db, { variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [
    { variantId: other.variantId, quantity: 2 },
    { variantId, quantity: 3 },
  ]);
  await setStockTo(db, { variantId, stock: 1 }, { reason: "Venduto in negozio" });
  expect(await placeTestOrder(db, { cartId })).toEqual({ ok: false, error: "out-of-stock", lines: [{ variantId, name: "Culla", available: 1 }] });
  expect(await orderCount(db)).toBe(0);
  expect(await stockOf(db, other.variantId)).toBe(5);
  expect(await db.select().from(cartLines).where(eq(cartLines.cartId, cartId))).toHaveLength(2);
});

test("two lines of one variant (different personalisation) cannot pass the stock check separately", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, {
    personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 20 }],
    personalisationCostCents: 300,
    variants: [{ stock: 3 }],
  });
  const cartId = await cartWith(db, [{ variantId, quantity: 2, personalisation: { "0": "Luca" } }]);
  // The cart itself caps the sum; stock drops afterwards (another customer bought), each line alone still fits.
  await addToCart(db, { cartId, variantId, quantity: 1, personalisation: { "0": "Sara" } });
  await setStockTo(db, { variantId, stock: 2 }, { reason: "Venduto in negozio" });
  expect(await placeTestOrder(db, { cartId })).toMatchObject({ ok: false, error: "out-of-stock", lines: [{ variantId, available: 2 }] });
  expect(await stockOf(db, variantId)).toBe(2);
  await setStockTo(db, { variantId, stock: 3 }, { reason: "Rifornimento" });
  const result = await placedOk(db, { cartId });
  expect(await stockOf(db, variantId)).toBe(0);
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, result.orderId)).orderBy(asc(orderLines.quantity));
  expect(lines.map((line) => [line.quantity, line.personalisation, line.personalisationUnitCents, line.lineTotalCents])).toEqual([
    [1, { Nome: "Sara" }, 300, 1300],
    [2, { Nome: "Luca" }, 300, 2600],
  ]);
});

test("the same checkout submitted twice (or at once) gives one order", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [{ variantId, quantity: 2 }]);
  const input = checkoutInput({ paymentMethod: "bank_transfer" });
  const [first, second] = await Promise.all([placeTestOrder(db, { cartId, input }), placeTestOrder(db, { cartId, input })]);
  const third = await placeTestOrder(db, { cartId, input });
  // Either of the two at once may be the one that places the order; the other finds it.
  expect(first).toMatchObject({ ok: true });
  const orderId = first.ok ? first.orderId : "";
  expect(second).toMatchObject({ ok: true, orderId });
  expect([first, second].map((result) => result.ok && result.alreadyPlaced).sort()).toEqual([false, true]);
  expect(third).toMatchObject({ ok: true, orderId, alreadyPlaced: true });
  expect(await orderCount(db)).toBe(1);
  expect(await stockOf(db, variantId)).toBe(3);
  expect(await mails(db)).toHaveLength(1);
});

test("a product no longer for sale, a delivery that does not fit the postcode: refused", async () => {
  const db = await openDb();
  const { productId, variantId } = await createProduct(db, { nameIt: "Seggiolino" });
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  expect(await placeTestOrder(db, { cartId, input: checkoutInput({ deliveryMethod: "local_delivery" }) })).toEqual({
    ok: false,
    error: "delivery-not-available",
  });
  expect(await placeTestOrder(db, { cartId, input: checkoutInput({ postcode: "80013" }) })).toEqual({ ok: false, error: "delivery-not-available" });
  await db.update(products).set({ isPublished: false }).where(eq(products.id, productId));
  expect(await placeTestOrder(db, { cartId })).toEqual({
    ok: false,
    error: "unavailable-product",
    lines: [{ variantId, name: "Seggiolino", available: 0 }],
  });
  expect(await orderCount(db)).toBe(0);
});

test("a saved address is copied for its owner only; the order belongs to the customer", async () => {
  const db = await openDb();
  const owner = await createUser(db);
  const stranger = await createUser(db);
  const [address] = await db
    .insert(addresses)
    .values({
      userId: owner,
      firstName: "Anna",
      lastName: "Esposito",
      street: "Via Toledo",
      houseNumber: "5",
      postcode: "80013",
      city: "Casalnuovo di Napoli",
      province: "NA",
    })
    .returning({ id: addresses.id });
  const { variantId } = await createProduct(db);
  const cartId = await cartWith(db, [{ variantId, quantity: 1 }]);
  const input = checkoutInput({
    deliveryMethod: "local_delivery",
    savedAddressId: String(address!.id),
    street: "",
    postcode: "",
    city: "",
    province: "",
    houseNumber: "",
  });
  expect(await placeTestOrder(db, { cartId, input, userId: stranger })).toEqual({ ok: false, error: "address-not-found" });
  expect(await placeTestOrder(db, { cartId, input, userId: null })).toEqual({ ok: false, error: "address-not-found" });
  const result = await placedOk(db, { cartId, input, userId: owner });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect(order).toMatchObject({ userId: owner, street: "Via Toledo", postcode: "80013", shippingCents: 0 });
});

test("the checkout summary: deliveries for the postcode, allowed payments, totals with fee", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { priceCents: 2000 });
  const cartId = await cartWith(db, [{ variantId, quantity: 2 }]);
  const now = new Date();
  const local = await getCheckoutSummary(db, {
    cartId,
    locale: "it",
    now,
    postcode: "80013",
    delivery: "local_delivery",
    payment: "cash_on_delivery",
  });
  expect(local).toMatchObject({
    delivery: "local_delivery",
    payment: "cash_on_delivery",
    subtotalCents: 4000,
    shippingCents: 0,
    paymentFeeCents: 300,
    totalCents: 4300,
    blocker: null,
  });
  expect(local.allowedPayments).toEqual(["card", "cash_on_delivery", "bank_transfer"]);
  const collection = await getCheckoutSummary(db, { cartId, locale: "it", now, delivery: "collection", payment: "cash_on_delivery" });
  expect(collection).toMatchObject({ payment: null, allowedPayments: ["card", "bank_transfer", "in_shop"], totalCents: 4000 });
  const far = await getCheckoutSummary(db, { cartId, locale: "it", now, postcode: "20121", delivery: "local_delivery" });
  expect(far).toMatchObject({ delivery: null, shippingCents: 0 });
  expect((await getCheckoutSummary(db, { cartId: null, locale: "it", now })).blocker).toBe("empty-cart");
});

test("one idempotency key from two carts at once: one order, the other cart refused and untouched", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 5 }] });
  const firstCart = await cartWith(db, [{ variantId, quantity: 1 }]);
  const secondCart = await cartWith(db, [{ variantId, quantity: 1 }]);
  const input = checkoutInput();
  const results = await Promise.all([placeTestOrder(db, { cartId: firstCart, input }), placeTestOrder(db, { cartId: secondCart, input })]);
  expect(results.filter((result) => result.ok && !result.alreadyPlaced)).toHaveLength(1);
  expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, error: "idempotency-key-conflict" }]);
  expect(await orderCount(db)).toBe(1);
  expect(await stockOf(db, variantId)).toBe(4);
  const left = await db.select().from(cartLines).where(eq(cartLines.variantId, variantId));
  expect(left).toHaveLength(1);
});

test("the delivery promise: each delivery at checkout has its dates; the order keeps the chosen one and its mail names the days", async () => {
  const db = await openDb();
  // The eve of the Immacolata, before the cut-off; a pre-order size of 10 days in the cart.
  const now = new Date("2027-12-07T10:00:00+01:00");
  const inStock = await createProduct(db, { priceCents: 1500 });
  const preorder = await createProduct(db, { priceCents: 2500, variants: [{ stock: 5, isPreorder: true, preorderDays: 10 }] });
  const cartId = await cartWith(db, [{ variantId: inStock.variantId, quantity: 1 }]);
  const summary = await getCheckoutSummary(db, { cartId, locale: "it", now, postcode: "20121" });
  expect(summary.deliveryToday).toBe("2027-12-07");
  expect(
    Object.fromEntries(summary.deliveries.map((quote) => [quote.method, quote.estimate && `${quote.estimate.from} ${quote.estimate.to}`])),
  ).toEqual({
    local_delivery: "2027-12-09 2027-12-10",
    collection: "2027-12-09 2027-12-09",
    standard: "2027-12-09 2027-12-10",
  });

  await addToCart(db, { cartId, variantId: preorder.variantId, quantity: 1, personalisation: {} });
  const withPreorder = await getCheckoutSummary(db, { cartId, locale: "it", now, postcode: "20121" });
  expect(withPreorder.deliveries.find((quote) => quote.method === "standard")!.estimate).toEqual({
    method: "standard",
    from: "2027-12-20",
    to: "2027-12-21",
  });

  const result = await placedOk(db, { cartId, now, input: checkoutInput({ paymentMethod: "cash_on_delivery" }) });
  const [order] = await db.select().from(orders).where(eq(orders.id, result.orderId));
  expect([order!.estimatedDeliveryFrom, order!.estimatedDeliveryTo]).toEqual(["2027-12-20", "2027-12-21"]);
  const [mail] = await mails(db);
  expect(mail!.textBody).toContain("Consegna stimata: lun 20 dic – mar 21 dic");
});

test("another checkout's key is refused for every other customer and cart, and names nothing of that order", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 5 }] });
  const alice = await createUser(db);
  const bruno = await createUser(db);
  const aliceCart = await cartWith(db, [{ variantId, quantity: 1 }]);
  const input = checkoutInput({ paymentMethod: "bank_transfer" });
  const placed = await placedOk(db, { cartId: aliceCart, input, userId: alice });

  const brunoCart = await cartWith(db, [{ variantId, quantity: 1 }]);
  expect(await placeTestOrder(db, { cartId: brunoCart, input, userId: bruno })).toEqual({ ok: false, error: "idempotency-key-conflict" });
  // Alice's own cart cookie in Bruno's session is not enough: the order is Alice's account's.
  expect(await placeTestOrder(db, { cartId: aliceCart, input, userId: bruno })).toEqual({ ok: false, error: "idempotency-key-conflict" });
  expect(await placeTestOrder(db, { cartId: brunoCart, input, userId: null })).toEqual({ ok: false, error: "idempotency-key-conflict" });
  expect(await placeTestOrder(db, { cartId: null, input, userId: null })).toEqual({ ok: false, error: "idempotency-key-conflict" });
  // Alice sending her form again (a double click, another tab) still finds her order.
  expect(await placeTestOrder(db, { cartId: brunoCart, input, userId: alice })).toMatchObject({
    ok: true,
    orderId: placed.orderId,
    alreadyPlaced: true,
  });
  expect(await orderCount(db)).toBe(1);
  expect(await stockOf(db, variantId)).toBe(4);
  expect(await db.select().from(cartLines).where(eq(cartLines.cartId, brunoCart))).toHaveLength(1);
});

test("a guest's checkout key belongs to the guest's cart: the same cart finds the order, any other cart or account is refused", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 5 }] });
  const guestCart = await cartWith(db, [{ variantId, quantity: 1 }]);
  const input = checkoutInput();
  const placed = await placedOk(db, { cartId: guestCart, input });
  expect(await placeTestOrder(db, { cartId: guestCart, input })).toMatchObject({ ok: true, orderId: placed.orderId, alreadyPlaced: true });
  const otherCart = await cartWith(db, [{ variantId, quantity: 2 }]);
  expect(await placeTestOrder(db, { cartId: otherCart, input })).toEqual({ ok: false, error: "idempotency-key-conflict" });
  expect(await placeTestOrder(db, { cartId: otherCart, input, userId: await createUser(db) })).toEqual({
    ok: false,
    error: "idempotency-key-conflict",
  });
  expect(await orderCount(db)).toBe(1);
  expect(await stockOf(db, variantId)).toBe(4);
});
