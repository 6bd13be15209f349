import { and, asc, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getCheckoutSummary } from "#server/checkout/checkout.service.ts";
import { giftCardMovements, giftCards, loyaltyCards, orderLines, orders, payments, productVariants } from "#server/db/schema.ts";
import { issueGiftCard } from "#server/gift-cards/gift-card.service.ts";
import { orderFactsOf } from "#server/invoices/invoice.service.ts";
import { billedLinesOfOrder, priceLines } from "#server/invoices/invoice.ts";
import { getOrderView } from "#server/orders/order-view.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createTrio } from "#tests/fixtures/bundle.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { customerWithPoints } from "#tests/fixtures/loyalty.fixtures.ts";

const now = new Date("2026-11-20T10:00:00Z");

test(
  "one order with a bundle, loyalty points and a gift card: totals, VAT per part, the points' spread, the card's share, stock and summary",
  { timeout: 90_000 },
  async () => {
    const handle = await createTestDb();
    onTestFinished(() => handle.close());
    const db = handle.db;
    const { trio, stroller, carrycot, seat } = await createTrio(db);
    const bib = await createProduct(db, { nameIt: "Bavaglino", priceCents: 1000, variants: [{ stock: 10 }] });
    const { userId, cardId } = await customerWithPoints(db, 1800, new Date("2026-11-19T10:00:00Z"));
    const card = await issueGiftCard(db, { origin: "counter", amountCents: 5000, now });
    const cartId = await cartWith(db, [
      { variantId: trio.variantIds[0]!, quantity: 1 },
      { variantId: bib.variantId, quantity: 2 },
    ]);

    // The summary the customer sees before placing it: goods 799 + 20, 10 € of points off, the card's 50 € after the total.
    const summary = await getCheckoutSummary(db, {
      cartId,
      locale: "it",
      now,
      userId,
      loyaltyPoints: 1000,
      giftCardCode: card.code,
      postcode: "20121",
      delivery: "standard",
      payment: "bank_transfer",
    });
    expect(summary.loyalty).toMatchObject({ points: 1000, discountCents: 1000 });
    expect(summary.summary.lines).toContainEqual({ kind: "loyalty-points", cents: -1000, points: 1000 });
    expect(summary.summary.payments).toEqual({ giftCardCents: 5000, stillToPayCents: summary.totalCents - 5000 });

    const placed = await placeTestOrder(db, {
      cartId,
      userId,
      input: checkoutInput({ paymentMethod: "bank_transfer", loyaltyPoints: "1000", giftCardCode: card.code }),
      now,
    });
    if (!placed.ok) throw new Error(placed.error);
    const [order] = await db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(order).toMatchObject({ subtotalCents: 79_900 + 2000 - 1000, loyaltyDiscountCents: 1000, giftCardCents: 5000, status: "awaiting_payment" });
    expect(order!.totalCents).toBe(80_900 + order!.shippingCents + order!.paymentFeeCents);
    expect(order!.totalCents).toBe(summary.totalCents);

    // The trio is its parts at their shares of 799 €, each at its own VAT; the points spread over every line by what it costs.
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, placed.orderId)).orderBy(asc(orderLines.id));
    const lineOf = (productId: number) => lines.find((line) => line.productId === productId)!;
    const parts = [lineOf(stroller.productId), lineOf(carrycot.productId), lineOf(seat.productId)];
    expect(parts.map((line) => [line.bundleProductId, line.quantity, line.vatRatePercent])).toEqual([
      [trio.productId, 1, 22],
      [trio.productId, 1, 22],
      [trio.productId, 1, 10],
    ]);
    expect(parts.reduce((sum, line) => sum + line.lineTotalCents, 0)).toBe(79_900);
    expect(lineOf(bib.productId).lineTotalCents).toBe(2000);
    expect(lines.reduce((sum, line) => sum + line.loyaltyDiscountCents, 0)).toBe(1000);
    for (const line of lines) {
      // Each line's share of the points within a cent of its share of the goods.
      expect(Math.abs(line.loyaltyDiscountCents - (1000 * line.lineTotalCents) / 81_900)).toBeLessThan(1);
    }
    // The invoice bills what was paid per rate: the seat's share at 10 %, the rest at 22 %, adding up to the total.
    const priced = priceLines(billedLinesOfOrder(orderFactsOf(order!, lines)));
    expect(priced.totalCents).toBe(order!.totalCents);
    const seatPaid = parts[2]!.lineTotalCents - parts[2]!.loyaltyDiscountCents;
    expect(priced.vatSummary.find((row) => row.vatRatePercent === 10)!.grossCents).toBe(seatPaid);
    expect(priced.vatSummary.find((row) => row.vatRatePercent === 22)!.grossCents).toBe(order!.totalCents - seatPaid);

    // The card pays 50 € after the total; the transfer asks only for the rest; the points are spent.
    expect(
      await db.select({ provider: payments.provider, amountCents: payments.amountCents }).from(payments).where(eq(payments.orderId, order!.id)),
    ).toEqual([{ provider: "bank_transfer", amountCents: order!.totalCents - 5000 }]);
    const [cardRow] = await db.select({ balanceCents: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, card.id));
    expect(cardRow!.balanceCents).toBe(0);
    expect(await db.$count(giftCardMovements, and(eq(giftCardMovements.orderId, order!.id), eq(giftCardMovements.kind, "spend")))).toBe(1);
    const [loyalty] = await db.select({ balance: loyaltyCards.balance }).from(loyaltyCards).where(eq(loyaltyCards.id, cardId));
    expect(loyalty!.balance).toBe(800);

    // Stock: one of each part of the grey trio, two bibs; the blue stroller untouched.
    const stockOf = async (variantId: number) =>
      (await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
    expect(
      await Promise.all([stroller.variantIds[0]!, stroller.variantIds[1]!, carrycot.variantId, seat.variantId, bib.variantId].map(stockOf)),
    ).toEqual([4, 5, 4, 4, 8]);

    // The order's page: the same summary lines and payments as the checkout showed, the parts named with their trio.
    const view = await getOrderView(db, { orderId: order!.id, locale: "it" });
    expect(view!.summary.lines).toEqual(summary.summary.lines);
    expect(view!.summary.totalCents).toBe(order!.totalCents);
    expect(view!.summary.payments).toEqual({ giftCardCents: 5000, stillToPayCents: order!.totalCents - 5000 });
  },
);
