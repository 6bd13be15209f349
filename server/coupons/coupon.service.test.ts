import { asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { addToCart } from "#server/cart/cart.service.ts";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import type { Db } from "#server/db/client.ts";
import { auditLog, categories, discountCodes, discountCodeUses, orderLines, orders, outboxEmails, products } from "#server/db/schema.ts";
import { authoriseReturn, openFaultyReturn, receiveReturn } from "#server/after-sales/returns.service.ts";
import { proposeRefund, refundReturn } from "#server/after-sales/refunds.service.ts";
import { issueInvoice } from "#server/invoices/invoice.service.ts";
import { cancelOrder, expireOrder, markOrderPaid } from "#server/orders/order.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createTestPaymentProvider } from "#server/payments/test-payment.ts";
import { afterSalesLinks, deliveredOrder } from "#tests/fixtures/after-sales.fixtures.ts";
import { createGiftList, createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder, testPublicUrl } from "#tests/fixtures/checkout.fixtures.ts";
import { createCoupon, setCouponActive, updateCoupon } from "./coupon-admin.service";
import { parseCouponForm } from "./coupon.inputs";
import { couponInput, newCoupon } from "#tests/fixtures/coupons.fixtures.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = new Date("2026-11-20T10:00:00Z");

async function usesOf(db: Db, id: number) {
  const [row] = await db.select({ usedCount: discountCodes.usedCount }).from(discountCodes).where(eq(discountCodes.id, id));
  const rows = await db.select().from(discountCodeUses).where(eq(discountCodeUses.discountCodeId, id));
  return { usedCount: row!.usedCount, rows: rows.length };
}

test("the staff's form: amounts in euros, whole Italian days, and a clear message per wrong field", () => {
  const input = couponInput({ kind: "fixed", percent: "", amount: "5,00", minOrder: "40", maxUses: "100", maxUsesPerCustomer: "1" });
  expect(input).toMatchObject({
    code: "BENVENUTO10",
    kind: "fixed",
    percent: null,
    amountCents: 500,
    minOrderCents: 4000,
    maxUses: 100,
    maxUsesPerCustomer: 1,
    combinesWithFreeDelivery: true,
    appliesToGiftLists: false,
  });
  // From midnight in Italy on the first day to midnight after the last.
  expect(input.validFrom.toISOString()).toBe("2026-10-31T23:00:00.000Z");
  expect(input.validUntil.toISOString()).toBe("2026-11-30T23:00:00.000Z");
  const form = new FormData();
  for (const [name, value] of Object.entries({
    code: "x!",
    kind: "percent",
    percent: "120",
    validFrom: "2026-11-30",
    validUntil: "2026-11-01",
    maxUses: "-3",
  }))
    form.append(name, value);
  const refused = parseCouponForm(form);
  expect(refused.ok).toBe(false);
  if (!refused.ok) {
    expect(refused.errors).toMatchObject({
      code: "admin.discountCodes.errors.code",
      maxUses: "admin.discountCodes.errors.count",
    });
    expect(refused.values.code).toBe("x!");
  }
});

test("a percent code at checkout: the saving shared over the lines to the cent, stored per line, the use taken, the mail says so", async () => {
  const db = await openDb();
  const { id } = await newCoupon(db, { percent: "15" });
  const bib = await createProduct(db, { priceCents: 333, variants: [{ stock: 5 }] });
  const blanket = await createProduct(db, { priceCents: 2999, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [
    { variantId: bib.variantId, quantity: 3 },
    { variantId: blanket.variantId, quantity: 1 },
  ]);
  const summary = await getCheckoutSummary(db, {
    cartId,
    locale: "it",
    now,
    postcode: "20121",
    delivery: "standard",
    discountCode: " Benvenuto-10 ",
  });
  // 15% of 9.99 + 29.99 = 39.98 -> 6.00 (5.997 rounded once).
  expect(summary.discountCode).toMatchObject({ code: "BENVENUTO10", kind: "percent", percent: 15, discountCents: 600 });
  expect(summary.discountCodeError).toBeNull();
  expect(summary.totalCents).toBe(3998 - 600 + summary.shippingCents);

  const placed = await placeTestOrder(db, { cartId, now, input: checkoutInput({ paymentMethod: "bank_transfer", discountCode: "BENVENUTO10" }) });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  expect(order).toMatchObject({ discountCodeId: id, subtotalCents: 3398, totalCents: summary.totalCents });
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId)).orderBy(asc(orderLines.lineTotalCents));
  // 600 in proportion to 999 : 2999 -> 149.92 / 450.07: 150 / 450 by the largest remainder.
  expect(lines.map((line) => [line.lineTotalCents, line.codeDiscountCents])).toEqual([
    [999, 150],
    [2999, 450],
  ]);
  expect(await usesOf(db, id)).toEqual({ usedCount: 1, rows: 1 });
  const [mail] = await db.select().from(outboxEmails);
  expect(mail!.textBody.replace(/[\u00a0\u202f]/g, " ")).toContain("Codice sconto BENVENUTO10 (−15%): −6,00 €");
});

test("the refusals say why, and refuse the order too: minimum, gift lists, categories, free delivery, the customer's own uses, deactivated", async () => {
  const db = await openDb();
  const cheap = await createProduct(db, { priceCents: 1500, variants: [{ stock: 20 }] });
  const cartId = await cartWith(db, [{ variantId: cheap.variantId, quantity: 1 }]);
  const summaryWith = (code: string, extra: Partial<Parameters<typeof getCheckoutSummary>[1]> = {}) =>
    getCheckoutSummary(db, { cartId, locale: "it", now, postcode: "20121", delivery: "standard", discountCode: code, ...extra });

  await newCoupon(db, { code: "MINIMO40", minOrder: "40,00" });
  expect(await summaryWith("MINIMO40")).toMatchObject({ discountCode: null, discountCodeError: "below-minimum", discountCodeMinOrderCents: 4000 });
  const refused = await placeTestOrder(db, { cartId, now, input: checkoutInput({ discountCode: "MINIMO40" }) });
  expect(refused).toEqual({ ok: false, error: "discount-code", discountError: "below-minimum", minOrderCents: 4000 });

  const [other] = await db.insert(categories).values({ slug: "altra", nameIt: "Altra", nameEn: "Other" }).returning();
  await newCoupon(db, { code: "SOLOALTRA", categoryIds: [String(other!.id)] });
  expect((await summaryWith("SOLOALTRA")).discountCodeError).toBe("not-for-these-items");

  await newCoupon(db, { code: "NOFREE", combinesWithFreeDelivery: "" });
  expect((await summaryWith("NOFREE")).discountCodeError).toBeNull();
  await db.update(products).set({ isFreeShipping: true }).where(eq(products.id, cheap.productId));
  expect((await summaryWith("NOFREE")).discountCodeError).toBe("free-delivery");
  // Collected in the shop, nothing ships: the code applies.
  expect((await summaryWith("NOFREE", { delivery: "collection" })).discountCode?.code).toBe("NOFREE");
  expect((await summaryWith("NOFREE", { delivery: "collection" })).discountCodeError).toBeNull();

  const { id: onceId, actorUserId } = await newCoupon(db, { code: "UNAVOLTA", maxUsesPerCustomer: "1" });
  const first = await placeTestOrder(db, { cartId, now, input: checkoutInput({ discountCode: "UNAVOLTA", email: "Anna@Example.it" }) });
  expect(first.ok).toBe(true);
  const again = await cartWith(db, [{ variantId: cheap.variantId, quantity: 1 }]);
  // The same customer by e-mail, whatever its case, as a guest.
  expect(await placeTestOrder(db, { cartId: again, now, input: checkoutInput({ discountCode: "UNAVOLTA", email: "anna@example.it" }) })).toEqual({
    ok: false,
    error: "discount-code",
    discountError: "used-by-you",
  });
  expect(
    (await getCheckoutSummary(db, { cartId: again, locale: "it", now, discountCode: "UNAVOLTA", email: "anna@example.it" })).discountCodeError,
  ).toBe("used-by-you");
  expect((await placeTestOrder(db, { cartId: again, now, input: checkoutInput({ discountCode: "UNAVOLTA", email: "bea@example.it" }) })).ok).toBe(
    true,
  );
  expect(await usesOf(db, onceId)).toEqual({ usedCount: 2, rows: 2 });

  expect(await setCouponActive(db, { id: onceId, isActive: false, actorUserId })).toBe(true);
  const third = await cartWith(db, [{ variantId: cheap.variantId, quantity: 1 }]);
  expect((await getCheckoutSummary(db, { cartId: third, locale: "it", now, discountCode: "UNAVOLTA" })).discountCodeError).toBe("unknown");
  const audit = await db.select({ action: auditLog.action }).from(auditLog).orderBy(asc(auditLog.id));
  expect(audit.map((row) => row.action)).toContain("discount-code.deactivate");

  const list = await createGiftList(db, [cheap.variantId]);
  const gift = await addToCart(db, { cartId: null, variantId: cheap.variantId, quantity: 1, personalisation: {}, giftListItemId: list.itemIds[0]! });
  if (!gift.ok) throw new Error(gift.error);
  await newCoupon(db, { code: "ANCHELISTE", appliesToGiftLists: "on" });
  await newCoupon(db, { code: "SOLONEGOZIO" });
  expect((await getCheckoutSummary(db, { cartId: gift.cartId, locale: "it", now, discountCode: "SOLONEGOZIO" })).discountCodeError).toBe("gift-list");
  expect((await getCheckoutSummary(db, { cartId: gift.cartId, locale: "it", now, discountCode: "ANCHELISTE" })).discountCode?.code).toBe(
    "ANCHELISTE",
  );
});

test("an order that expires or is cancelled gives its use back once; a late payment takes it again", async () => {
  const db = await openDb();
  const { id } = await newCoupon(db, { code: "ULTIMO", maxUses: "1" });
  const product = await createProduct(db, { priceCents: 5000, variants: [{ stock: 10 }] });
  const place = async () =>
    placeTestOrder(db, {
      cartId: await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]),
      now,
      input: checkoutInput({ paymentMethod: "bank_transfer", discountCode: "ULTIMO" }),
    });
  const first = await place();
  if (!first.ok) throw new Error(first.error);
  expect(await place()).toMatchObject({ ok: false, discountError: "used" });

  await expireOrder(db, { orderId: first.orderId, now, reason: "test" });
  await expireOrder(db, { orderId: first.orderId, now, reason: "test" });
  expect(await usesOf(db, id)).toEqual({ usedCount: 0, rows: 0 });

  const second = await place();
  if (!second.ok) throw new Error(second.error);
  await cancelOrder(db, { orderId: second.orderId, now, actorUserId: null, note: "test" });
  expect(await usesOf(db, id)).toEqual({ usedCount: 0, rows: 0 });

  // The expired order's money arrives after all: it takes the use back while one is left.
  await markOrderPaid(db, { orderId: first.orderId, now, provider: "bank_transfer", providerRef: "late-1", amountCents: 4500 });
  expect(await usesOf(db, id)).toEqual({ usedCount: 1, rows: 1 });
});

test("the invoice bills each line at what was paid for it after the code, and the totals agree", async () => {
  const db = await openDb();
  await newCoupon(db, { code: "FATTURA5", kind: "fixed", percent: "", amount: "5,00" });
  const stroller = await createProduct(db, { priceCents: 10_000, variants: [{ stock: 5 }] });
  const formula = await createProduct(db, { priceCents: 1_000, vatRatePercent: 4, variants: [{ stock: 5 }] });
  const cartId = await cartWith(db, [
    { variantId: stroller.variantId, quantity: 1 },
    { variantId: formula.variantId, quantity: 3 },
  ]);
  const placed = await placeTestOrder(db, {
    cartId,
    now,
    input: checkoutInput({ paymentMethod: "bank_transfer", discountCode: "FATTURA5", invoiceKind: "private", fiscalCode: "RSSMRA85T10A562S" }),
  });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, now, provider: "bank_transfer", providerRef: "paid-1", amountCents: order!.totalCents });
  const issued = await issueInvoice(db, { orderId: placed.orderId, actorUserId: null, now });
  if (!issued.ok) throw new Error(issued.error);
  // 5.00 shared 10,000 : 3,000 -> 385 / 115.
  expect(issued.invoice.document.lines.map((line) => [line.grossCents, line.vatRatePercent])).toEqual(
    expect.arrayContaining([
      [9_615, 22],
      [2_885, 4],
    ]),
  );
  expect(issued.invoice.document.lines.some((line) => line.description === "Sconto")).toBe(false);
  expect(issued.invoice.totalCents).toBe(order!.totalCents);
});

test("the staff edit a code: the text stays unique, the total uses not below those taken, every change audited", async () => {
  const db = await openDb();
  const { id, actorUserId } = await newCoupon(db, { code: "PRIMO", maxUses: "5" });
  await newCoupon(db, { code: "SECONDO" });
  expect(await createCoupon(db, { input: couponInput({ code: "primo" }), actorUserId })).toEqual({ ok: false, error: "code-taken" });
  expect(await updateCoupon(db, { id, input: couponInput({ code: "SECONDO" }), actorUserId })).toEqual({ ok: false, error: "code-taken" });
  const product = await createProduct(db, { priceCents: 2000, variants: [{ stock: 5 }] });
  for (const email of ["a@example.it", "b@example.it"]) {
    const cartId = await cartWith(db, [{ variantId: product.variantId, quantity: 1 }]);
    expect((await placeTestOrder(db, { cartId, now, input: checkoutInput({ discountCode: "PRIMO", email }) })).ok).toBe(true);
  }
  expect(await updateCoupon(db, { id, input: couponInput({ code: "PRIMO", maxUses: "1" }), actorUserId })).toEqual({
    ok: false,
    error: "below-uses",
  });
  expect(await updateCoupon(db, { id, input: couponInput({ code: "PRIMO", maxUses: "2", percent: "20" }), actorUserId })).toEqual({ ok: true, id });
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id));
  expect(row).toMatchObject({ percent: 20, maxUses: 2, usedCount: 2 });
  const audit = await db.select({ action: auditLog.action }).from(auditLog).orderBy(asc(auditLog.id));
  expect(audit.map((entry) => entry.action)).toEqual(["discount-code.create", "discount-code.create", "discount-code.update"]);
});

test("a partial refund gives back at most what was paid for the line: its total less its share of the code", async () => {
  const db = await openDb();
  await newCoupon(db, { code: "RESO5", kind: "fixed", percent: "", amount: "5", validFrom: "2020-01-01", validUntil: "2099-12-31" });
  // Bibs 2 x 10.00, blanket 25.00, towel 12.00 (+3.00 name, never discounted): 5.00 shared 2,000 : 2,500 : 1,200.
  const order = await deliveredOrder(db, { paymentMethod: "cash_on_delivery", discountCode: "RESO5" });
  expect([order.bib.codeDiscountCents, order.blanket.codeDiscountCents, order.towel.codeDiscountCents]).toEqual([176, 219, 105]);
  const now = new Date();
  const opened = await openFaultyReturn(db, {
    orderId: order.orderId,
    lines: [{ orderLineId: order.blanket.id, quantity: 1 }],
    refundIban: "IT60X0542811101000000123456",
    now,
  });
  if (!opened.ok) throw new Error(opened.error);
  await authoriseReturn(db, { returnId: opened.returnId, now, links: null });
  const received = await receiveReturn(db, {
    returnId: opened.returnId,
    lines: [{ orderLineId: order.blanket.id, restocked: 1, damaged: 0, damageReason: null }],
    actorUserId: null,
    now,
  });
  if (!received.ok) throw new Error(received.error);
  const proposal = await proposeRefund(db, opened.returnId);
  expect(proposal?.lines).toEqual([{ orderLineId: order.blanket.id, units: 1, maxCents: 2_281, suggestedCents: 2_281 }]);
  const provider = createTestPaymentProvider(db, testPublicUrl);
  const services = { db, provider: () => provider, links: afterSalesLinks };
  const tooMuch = await refundReturn(services, {
    returnId: opened.returnId,
    lines: [{ orderLineId: order.blanket.id, amountCents: 2_500 }],
    includeDelivery: false,
    actorUserId: null,
    now,
  });
  expect(tooMuch).toEqual({ ok: false, error: "over-paid" });
  const refunded = await refundReturn(services, {
    returnId: opened.returnId,
    lines: [{ orderLineId: order.blanket.id, amountCents: 2_281 }],
    includeDelivery: false,
    actorUserId: null,
    now,
  });
  expect(refunded).toMatchObject({ ok: true, amountCents: 2_281 });
});
