import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { addToCart } from "#server/cart/cart.service.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { getProductPage } from "#server/catalog/product.service.ts";
import { orderLines, orders, products } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createTrio } from "#tests/fixtures/bundle.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, placeTestOrder, stockOf } from "#tests/fixtures/checkout.fixtures.ts";
import { matchOptions, saveBundle } from "./bundle-admin.service";
import { BundleInput } from "./bundle.inputs";
import { getBundleView } from "./bundle.service";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { submitWithdrawal } from "#server/after-sales/withdrawal.service.ts";
import { authoriseReturn, receiveReturn } from "#server/after-sales/returns.service.ts";
import { proposeRefund } from "#server/after-sales/refunds.service.ts";
import { billedLinesOfOrder } from "#server/invoices/invoice.ts";
import { orderFactsOf } from "#server/invoices/invoice.service.ts";
import { changeOrderStatus, markOrderPaid } from "#server/orders/order.service.ts";
import { returns } from "#server/db/schema.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-11-20T10:00:00Z");

test("a bundle's combination has what its scarcest part allows; its page shows the parts and the saving", async () => {
  const db = await openDb();
  const { trio, carrycot } = await createTrio(db, { stock: { stroller: 4, carrycot: 3, seat: 7 }, seatQuantity: 2 });
  const page = await getProductPage(db, trio.productId, "it", now);
  expect(page!.effectivePriceCents).toBe(79_900);
  expect(page!.variants.map((variant) => variant.stock)).toEqual([3, 3]);

  await setStockTo(db, { variantId: carrycot.variantId, stock: 10 }, { reason: "test" });
  const after = await getProductPage(db, trio.productId, "it", now);
  // Seven car seats, two per trio: three trios.
  expect(after!.variants.map((variant) => variant.stock)).toEqual([3, 3]);

  const view = await getBundleView(db, { productId: trio.productId, bundleCents: 79_900, locale: "it", now });
  expect(view!.parts.map((part) => [part.name, part.quantity])).toEqual([
    ["Passeggino Nova", 1],
    ["Navicella Nova", 1],
    ["Seggiolino Nova", 2],
  ]);
  expect(view).toMatchObject({ partsCents: 49_900 + 19_900 + 2 * 24_900, savedCents: 49_900 + 19_900 + 2 * 24_900 - 79_900 });
  expect(Object.values(view!.parts[0]!.options).map((option) => option.colour)).toEqual(["grey", "blue"]);
});

test("a bundle whose part is withdrawn from sale is not available", async () => {
  const db = await openDb();
  const { trio, seat } = await createTrio(db);
  await db.update(products).set({ isPublished: false }).where(eq(products.id, seat.productId));
  const page = await getProductPage(db, trio.productId, "it", now);
  expect(page!.variants.map((variant) => variant.stock)).toEqual([0, 0]);
  expect(page!.availability).not.toBe("in-stock");
});

test("percent off the parts' sum: the bundle's price follows its parts' prices", async () => {
  const db = await openDb();
  const { trio, carrycot } = await createTrio(db, { rule: { priceRule: "percent_off", fixedPriceCents: null, percentOff: 10 } });
  const price = async () => (await getProductPage(db, trio.productId, "en", now))!.effectivePriceCents;
  expect(await price()).toBe(Math.round((49_900 + 19_900 + 24_900) * 0.9));
  await db.update(products).set({ priceCents: 29_900 }).where(eq(products.id, carrycot.productId));
  expect(await price()).toBe(Math.round((49_900 + 29_900 + 24_900) * 0.9));
});

test("an order of a trio takes its parts' stock, keeps the parts with their shares and VAT, and adds up exactly", async () => {
  const db = await openDb();
  const { trio, stroller, carrycot, seat } = await createTrio(db);
  const cartId = await cartWith(db, [{ variantId: trio.variantIds[1]!, quantity: 2 }]);
  const cart = await getCartView(db, { cartId, locale: "it", now });
  expect(cart.lines[0]).toMatchObject({ name: "Trio Nova", unitCents: 79_900, stock: 5, status: "ok" });

  const placed = await placeTestOrder(db, { cartId, now });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  expect(order!.subtotalCents).toBe(2 * 79_900);
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId)).orderBy(asc(orderLines.listPriceCents));
  expect(
    lines.map((line) => [line.name, line.colour, line.quantity, line.unitPriceCents, line.vatRatePercent, line.bundleName, line.bundleQuantity]),
  ).toEqual([
    ["Navicella Nova", null, 2, 16_790, 22, "Trio Nova", 2],
    ["Seggiolino Nova", null, 2, 21_009, 10, "Trio Nova", 2],
    ["Passeggino Nova", "blue", 2, 42_101, 22, "Trio Nova", 2],
  ]);
  expect(lines.reduce((sum, line) => sum + line.lineTotalCents, 0)).toBe(2 * 79_900);
  expect(new Set(lines.map((line) => line.bundleLineId)).size).toBe(1);
  expect(await stockOf(db, stroller.variantIds[1]!)).toBe(3);
  expect(await stockOf(db, stroller.variantIds[0]!)).toBe(5);
  expect(await stockOf(db, carrycot.variantId)).toBe(3);
  expect(await stockOf(db, seat.variantId)).toBe(3);
  expect(await stockOf(db, trio.variantIds[1]!)).toBe(0);
});

test("a bundle and its part bought alone in one cart draw on the same units: never more than the shelf holds", async () => {
  const db = await openDb();
  const { trio, carrycot } = await createTrio(db, { stock: { carrycot: 2 } });
  const cartId = await cartWith(db, [
    { variantId: trio.variantIds[0]!, quantity: 2 },
    { variantId: carrycot.variantId, quantity: 1 },
  ]);
  const refused = await placeTestOrder(db, { cartId, now });
  expect(refused).toMatchObject({
    ok: false,
    error: "out-of-stock",
    lines: [{ variantId: carrycot.variantId, name: "Navicella Nova", available: 2 }],
  });
  expect(await stockOf(db, carrycot.variantId)).toBe(2);
  expect(await db.select().from(orders)).toEqual([]);
});

test("the cart refuses more bundles than the parts allow", async () => {
  const db = await openDb();
  const { trio } = await createTrio(db, { stock: { seat: 1 } });
  const added = await addToCart(db, { cartId: null, variantId: trio.variantIds[0]!, quantity: 2, personalisation: {} });
  expect(added.ok).toBe(false);
});

test("the back office's bundle is checked: parts of their products, one part with one unit, nothing saved when refused", async () => {
  const db = await openDb();
  const a = await createProduct(db, { variants: [{ stock: 3 }] });
  const b = await createProduct(db, { variants: [{ stock: 3 }] });
  const bundle = await createProduct(db, { variants: [{ stock: 0 }] });
  const parsed = BundleInput.safeParse({
    productId: bundle.productId,
    priceRule: "fixed",
    fixedPriceCents: 1500,
    parts: [
      { productId: a.productId, quantity: 2 },
      { productId: b.productId, quantity: 2 },
    ],
    options: [{ bundleVariantId: bundle.variantId, partVariantIds: [a.variantId, b.variantId] }],
  });
  expect(parsed.success).toBe(false);
  expect(parsed.error!.issues.map((issue) => issue.message)).toContain("bundles.errors.singlePart");

  const swapped = BundleInput.parse({
    productId: bundle.productId,
    priceRule: "fixed",
    fixedPriceCents: 1500,
    parts: [
      { productId: a.productId, quantity: 1 },
      { productId: b.productId, quantity: 1 },
    ],
    options: [{ bundleVariantId: bundle.variantId, partVariantIds: [b.variantId, a.variantId] }],
  });
  expect(await saveBundle(db, { input: swapped, actorUserId: null })).toEqual({ ok: false, error: "variant-not-of-part" });
  expect(await getBundleView(db, { productId: bundle.productId, bundleCents: 1500, locale: "it", now })).toBeNull();
});

test("the invoice lists the parts at their VAT rates; a part withdrawn alone is refunded at its share of the bundle's price", async () => {
  const db = await openDb();
  const { trio, seat } = await createTrio(db);
  const cartId = await cartWith(db, [{ variantId: trio.variantIds[0]!, quantity: 1 }]);
  const placedAt = new Date(Date.now() - 3 * 86_400_000);
  const placed = await placeTestOrder(db, { cartId, now: placedAt });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId)).orderBy(asc(orderLines.sku), asc(orderLines.id));
  const billed = billedLinesOfOrder(orderFactsOf(order!, lines)).filter((line) => line.description.includes("parte di"));
  expect(billed.map((line) => [line.description, line.grossCents, line.vatRatePercent])).toEqual(
    expect.arrayContaining([
      ["Passeggino Nova - grey (parte di Trio Nova)", 42_101, 22],
      ["Navicella Nova (parte di Trio Nova)", 16_790, 22],
      ["Seggiolino Nova (parte di Trio Nova)", 21_009, 10],
    ]),
  );

  const step = (minutes: number) => new Date(placedAt.getTime() + minutes * 60_000);
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: "sess_trio", amountCents: order!.totalCents, now: step(1) });
  for (const [to, minutes] of [
    ["preparing", 2],
    ["shipped", 3],
    ["completed", 60],
  ] as const) {
    const moved = await changeOrderStatus(db, {
      orderId: placed.orderId,
      to,
      actorUserId: null,
      now: step(minutes),
      carrier: "GLS",
      trackingNumber: "GLS1",
    });
    if (!moved.ok) throw new Error(moved.error);
  }
  const seatLine = lines.find((line) => line.variantId === seat.variantId)!;
  const now = new Date();
  const done = await submitWithdrawal(db, {
    orderId: placed.orderId,
    access: { hasOrderLink: true, userId: null },
    input: { submissionKey: crypto.randomUUID(), name: "Maria Rossi", iban: null, lines: [{ orderLineId: seatLine.id, quantity: 1 }] },
    locale: "it",
    now,
    links: null,
  });
  if (!done.ok) throw new Error(done.error);
  const [opened] = await db.select({ id: returns.id }).from(returns).where(eq(returns.withdrawalId, done.withdrawalId));
  await authoriseReturn(db, { returnId: opened!.id, now, links: null });
  const received = await receiveReturn(db, {
    returnId: opened!.id,
    lines: [{ orderLineId: seatLine.id, restocked: 1, damaged: 0, damageReason: null }],
    actorUserId: null,
    now,
  });
  expect(received.ok).toBe(true);
  const proposal = await proposeRefund(db, opened!.id);
  expect(proposal!.lines).toEqual([expect.objectContaining({ orderLineId: seatLine.id, units: 1, suggestedCents: 21_009 })]);
  expect(await stockOf(db, seat.variantId)).toBe(5);
});

test("the back office's form matches each combination to the parts' variants of its colour, or their only one", async () => {
  const db = await openDb();
  const { trio, stroller, carrycot, seat } = await createTrio(db);
  const options = await matchOptions(db, {
    productId: trio.productId,
    partProductIds: [stroller.productId, carrycot.productId, seat.productId],
    chosen: new Map([[`${trio.variantIds[1]}.1`, stroller.variantIds[0]!]]),
  });
  // A choice that is not the part's own is ignored: the carrycot's only variant is taken.
  expect(options).toEqual([
    { bundleVariantId: trio.variantIds[0], partVariantIds: [stroller.variantIds[0], carrycot.variantId, seat.variantId] },
    { bundleVariantId: trio.variantIds[1], partVariantIds: [stroller.variantIds[1], carrycot.variantId, seat.variantId] },
  ]);
});
