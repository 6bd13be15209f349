/**
 * The last units of a size under load, on real PostgreSQL (PGlite has one connection and cannot race):
 * exchanges asked in this process and checkouts in another race for them; the ledger's conditional
 * updates let exactly as many through as there are units, never below zero.
 */
import { eq, sql } from "drizzle-orm";
import { expect, onTestFinished } from "vitest";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, productVariants, returnExchanges, stockMovements } from "#server/db/schema.ts";
import { changeOrderStatus, markOrderPaid } from "#server/orders/order.service.ts";
import { startCheckoutWorker } from "#tests/checkout-workers.ts";
import { createTestDb, selectRows, testOnPostgres } from "#tests/db.ts";
import { withDatabase } from "#tests/db.global-setup.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { submitWithdrawal } from "./withdrawal.service";

/** An order of one unit of `variantId`, paid by card and delivered yesterday. */
async function deliveredOrderOf(db: Db, variantId: number) {
  const placedAt = new Date(Date.now() - 2 * 86_400_000);
  const placed = await placeTestOrder(db, { cartId: await cartWith(db, [{ variantId, quantity: 1 }]), input: checkoutInput(), now: placedAt });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select({ total: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, {
    orderId: placed.orderId,
    provider: "test",
    providerRef: `sess_${placed.orderId}`,
    amountCents: order!.total,
    now: placedAt,
  });
  for (const to of ["preparing", "shipped", "completed"] as const)
    await changeOrderStatus(db, { orderId: placed.orderId, to, actorUserId: null, now: new Date(Date.now() - 86_400_000) });
  const [line] = await db.select({ id: orderLines.id }).from(orderLines).where(eq(orderLines.orderId, placed.orderId));
  return { orderId: placed.orderId, lineId: line!.id };
}

testOnPostgres(
  "8 exchanges here and 8 checkouts in another process race for the last 5 units of a size: 5 go through, stock 0, never below",
  async () => {
    const handle = await createTestDb({ poolSize: 6 });
    onTestFinished(() => handle.close());
    const { db } = handle;
    const product = await createProduct(db, {
      priceCents: 1990,
      variants: [
        { size: "3M", stock: 20 },
        { size: "6M", stock: 5 },
      ],
    });
    const [small, large] = product.variantIds as [number, number];
    const bought: { orderId: string; lineId: string }[] = [];
    for (let i = 0; i < 8; i += 1) bought.push(await deliveredOrderOf(db, small));
    const cartIds: string[] = [];
    for (let i = 0; i < 8; i += 1) cartIds.push(await cartWith(db, [{ variantId: large, quantity: 1 }]));
    const [current] = await selectRows<{ name: string }>(db, sql`select current_database() as name`);
    const worker = startCheckoutWorker(withDatabase(process.env.TEST_DATABASE_URL!, current!.name), cartIds);
    await worker.ready;

    worker.go();
    const exchanges = Promise.all(
      bought.map((order) =>
        submitWithdrawal(db, {
          orderId: order.orderId,
          access: { hasOrderLink: true, userId: null },
          input: {
            submissionKey: crypto.randomUUID(),
            name: "Maria Rossi",
            iban: null,
            lines: [{ orderLineId: order.lineId, quantity: 1 }],
            exchanges: [{ orderLineId: order.lineId, variantId: large }],
          },
          locale: "it",
          now: new Date(),
          links: null,
        }),
      ),
    );
    const [checkouts, asked] = await Promise.all([worker.outcomes, exchanges]);

    const reserved = asked.filter((result) => result.ok).length;
    const sold = checkouts.filter((outcome) => outcome === "ok").length;
    expect(reserved + sold).toBe(5);
    expect(asked.filter((result) => !result.ok).every((result) => !result.ok && result.error === "exchange-unavailable")).toBe(true);
    expect(checkouts.filter((outcome) => outcome !== "ok").every((outcome) => outcome === "out-of-stock")).toBe(true);
    const [variant] = await db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, large));
    expect(variant!.stock).toBe(0);
    expect(await db.select().from(returnExchanges)).toHaveLength(reserved);
    const [taken] = await db
      .select({ total: sql<number>`sum(${stockMovements.delta})`.mapWith(Number) })
      .from(stockMovements)
      .where(eq(stockMovements.variantId, large));
    expect(taken!.total).toBe(-5);
  },
  180_000,
);
