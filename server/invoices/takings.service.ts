/**
 * The month's register of daily takings for the accountant (server/invoices/takings.ts): the orders paid
 * in that month, in Italy's days, whose customer asked for no invoice. Orders paid in the shop at
 * collection are left out: the shop's cash register (registratore telematico) records and transmits those.
 */
import { and, asc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import { italianDayOf, italianMidnight } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders } from "#server/db/schema.ts";
import { orderFactsOf } from "./invoice.service";
import { takingsRegister, type TakingsRow } from "./takings";

export async function listTakingsOfMonth(db: Db, month: string): Promise<TakingsRow[]> {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const next = monthNumber === 12 ? `${year + 1}-01` : `${year}-${String(monthNumber + 1).padStart(2, "0")}`;
  const paid = await db
    .select()
    .from(orders)
    .where(
      and(
        gte(orders.paidAt, italianMidnight(`${month}-01`)),
        lt(orders.paidAt, italianMidnight(`${next}-01`)),
        eq(orders.invoiceKind, "none"),
        ne(orders.paymentMethod, "in_shop"),
        sql`${orders.status} not in ('cancelled', 'expired')`,
      ),
    )
    .orderBy(asc(orders.paidAt));
  if (paid.length === 0) return [];
  const lines = await db
    .select()
    .from(orderLines)
    .where(
      inArray(
        orderLines.orderId,
        paid.map((order) => order.id),
      ),
    )
    .orderBy(asc(orderLines.sku), asc(orderLines.id));
  return takingsRegister(
    paid.map((order) => ({
      day: italianDayOf(order.paidAt!),
      facts: orderFactsOf(
        order,
        lines.filter((line) => line.orderId === order.id),
      ),
    })),
  );
}
