import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { orders } from "#server/db/schema.ts";
import { markOrderPaid } from "#server/orders/order.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { cartWith, checkoutInput, placeTestOrder } from "#tests/fixtures/checkout.fixtures.ts";
import { takingsCsv } from "./takings";
import { listTakingsOfMonth } from "./takings.service";

async function aPaidOrder(db: Db, lines: { variantId: number; quantity: number }[], paidAt: Date, fields: Record<string, string> = {}) {
  const placed = await placeTestOrder(db, { cartId: await cartWith(db, lines), input: checkoutInput(fields), now: paidAt });
  if (!placed.ok) throw new Error(placed.error);
  const [order] = await db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, placed.orderId));
  await markOrderPaid(db, { orderId: placed.orderId, provider: "test", providerRef: null, amountCents: order!.totalCents, now: paidAt });
  return order!.totalCents;
}

// Four orders placed and paid: seconds each on a busy machine.
test("the month's takings without an invoice add up per Italian day and VAT rate, and export as CSV", { timeout: 60_000 }, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { db } = handle;
  const stroller = await createProduct(db, { nameIt: "Passeggino", priceCents: 10_000, vatRatePercent: 22 });
  const nappies = await createProduct(db, { nameIt: "Pannolini taglia 3", priceCents: 1_490, vatRatePercent: 10 });
  const first = await aPaidOrder(
    db,
    [
      { variantId: stroller.variantId, quantity: 1 },
      { variantId: nappies.variantId, quantity: 2 },
    ],
    new Date("2026-11-27T09:00:00Z"),
  );
  const second = await aPaidOrder(db, [{ variantId: nappies.variantId, quantity: 1 }], new Date("2026-11-27T18:00:00Z"));
  // Invoiced orders are not takings; 23:30 UTC on 30 November is 1 December in Italy.
  await aPaidOrder(db, [{ variantId: stroller.variantId, quantity: 1 }], new Date("2026-11-27T10:00:00Z"), {
    invoiceKind: "private",
    fiscalCode: "RSSMRA85T10A562S",
  });
  const december = await aPaidOrder(db, [{ variantId: nappies.variantId, quantity: 1 }], new Date("2026-11-30T23:30:00Z"));

  const rows = await listTakingsOfMonth(db, "2026-11");
  expect(rows.map((row) => [row.day, row.vatRatePercent, row.orderCount])).toEqual([
    ["2026-11-27", 22, 2],
    ["2026-11-27", 10, 2],
  ]);
  expect(rows[1]).toMatchObject({ grossCents: 3 * 1_490, netCents: 4_064, vatCents: 406 });
  expect(rows[0]!.grossCents + rows[1]!.grossCents).toBe(first + second);
  expect(rows[0]!.netCents + rows[0]!.vatCents).toBe(rows[0]!.grossCents);
  const decemberRows = await listTakingsOfMonth(db, "2026-12");
  expect(decemberRows.map((row) => row.day)).toEqual(["2026-12-01", "2026-12-01"]);
  expect(decemberRows.reduce((sum, row) => sum + row.grossCents, 0)).toBe(december);

  expect(takingsCsv(rows).split("\r\n")).toEqual([
    "giorno;aliquota_iva;ordini;corrispettivi;imponibile;iva",
    expect.stringMatching(/^2026-11-27;22;2;\d+\.\d{2};\d+\.\d{2};\d+\.\d{2}$/),
    "2026-11-27;10;2;44.70;40.64;4.06",
    "",
  ]);
  expect(await listTakingsOfMonth(db, "2026-10")).toEqual([]);
});
