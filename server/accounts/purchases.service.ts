/** "I miei acquisti": the signed-in customer's own orders, newest first, with their lines. */
import { desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders } from "#server/db/schema.ts";
import { trackingUrlOf } from "#common/carrier-tracking.ts";
import { getSettings } from "#server/settings/settings.service.ts";

/** Enough for any family's history on one page; older orders stay in the data download. */
export const purchasesShown = 100;

export type Purchase = Awaited<ReturnType<typeof listPurchases>>[number];

export async function listPurchases(db: Db, userId: string) {
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      createdAt: orders.createdAt,
      deliveryMethod: orders.deliveryMethod,
      paymentMethod: orders.paymentMethod,
      totalCents: orders.totalCents,
      shippingCents: orders.shippingCents,
      carrier: orders.carrier,
      trackingNumber: orders.trackingNumber,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(purchasesShown);
  if (rows.length === 0) return [];
  const lines = await db
    .select({
      id: orderLines.id,
      orderId: orderLines.orderId,
      productId: orderLines.productId,
      name: orderLines.name,
      colour: orderLines.colour,
      size: orderLines.size,
      quantity: orderLines.quantity,
      unitPriceCents: orderLines.unitPriceCents,
      lineTotalCents: orderLines.lineTotalCents,
      personalisation: orderLines.personalisation,
    })
    .from(orderLines)
    .where(
      inArray(
        orderLines.orderId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(orderLines.name, orderLines.id);
  const { tracking } = await getSettings(db, ["tracking"]);
  return rows.map((row) => ({
    ...row,
    trackingUrl: trackingUrlOf(tracking, row.carrier, row.trackingNumber),
    lines: lines.filter((line) => line.orderId === row.id),
  }));
}
