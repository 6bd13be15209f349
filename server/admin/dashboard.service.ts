/**
 * The back office's first page: how today and this month went, the last 30 days' sales, and what needs
 * doing. Days are Italian calendar days (Europe/Rome). An order counts as a sale once it is confirmed:
 * paid, or paid on handover (cash on delivery, in shop) and not cancelled, expired or refunded. An
 * unpaid card or bank-transfer order is not a sale yet.
 */
import { and, asc, between, count, desc, eq, gte, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { giftLists, orders, productColours, products, productVariants, users } from "#server/db/schema.ts";
import { addDays, italianDayOf } from "#common/shop-calendar.ts";
import { lowStockThreshold } from "./product-admin.service";

const romeDay = sql<string>`to_char(${orders.createdAt} at time zone 'Europe/Rome', 'YYYY-MM-DD')`;

const isSale = and(
  sql`${orders.status} not in ('cancelled', 'expired', 'refunded')`,
  or(isNotNull(orders.paidAt), inArray(orders.paymentMethod, ["cash_on_delivery", "in_shop"])),
)!;

export type DashboardFigures = { orders: number; revenueCents: number };

export type Dashboard = {
  today: DashboardFigures;
  month: DashboardFigures;
  /** The last 30 Italian days, oldest first, every day present (0 when nothing sold). */
  days: { day: string; orders: number; revenueCents: number }[];
  toPrepare: { id: string; number: number; status: string; customer: string; deliveryMethod: string; createdAt: string }[];
  /** The ten emptiest sizes (the products page lists them all). */
  lowStock: { productId: number; name: string; sku: string; colour: string | null; size: string; stock: number }[];
  upcomingGiftLists: { id: string; code: string; title: string; eventDate: string; owner: string }[];
};

export async function getDashboard(db: Db, args: { now: Date; locale: Locale }): Promise<Dashboard> {
  const today = italianDayOf(args.now);
  const firstDay = addDays(today, -29);
  const monthStart = `${today.slice(0, 7)}-01`;
  const fromDay = monthStart < firstDay ? monthStart : firstDay;
  // A day either side of the window in UTC; the Rome day of each order decides.
  const from = new Date(`${addDays(fromDay, -1)}T00:00:00Z`);
  const perDay = await db
    .select({ day: romeDay, orders: count(), revenueCents: sql<number>`coalesce(sum(${orders.totalCents}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(isSale, gte(orders.createdAt, from)))
    .groupBy(romeDay);
  const byDay = new Map(perDay.map((row) => [row.day, row]));
  const days = Array.from({ length: 30 }, (_, index) => {
    const day = addDays(firstDay, index);
    return { day, orders: byDay.get(day)?.orders ?? 0, revenueCents: byDay.get(day)?.revenueCents ?? 0 };
  });
  const sum = (rows: typeof perDay) => ({
    orders: rows.reduce((total, row) => total + row.orders, 0),
    revenueCents: rows.reduce((total, row) => total + row.revenueCents, 0),
  });

  const toPrepare = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      firstName: orders.firstName,
      lastName: orders.lastName,
      deliveryMethod: orders.deliveryMethod,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(
      or(
        inArray(orders.status, ["paid", "preparing"]),
        and(eq(orders.status, "awaiting_payment"), inArray(orders.paymentMethod, ["cash_on_delivery", "in_shop"])),
      ),
    )
    .orderBy(asc(orders.number))
    .limit(50);

  const lowStock = await db
    .select({
      productId: products.id,
      name: args.locale === "en" ? products.nameEn : products.nameIt,
      sku: productVariants.sku,
      colour: productColours.colour,
      size: productVariants.size,
      stock: productVariants.stock,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(and(lte(productVariants.stock, lowStockThreshold), eq(productVariants.isPreorder, false), eq(products.isPublished, true)))
    .orderBy(asc(productVariants.stock), asc(productVariants.sku))
    .limit(10);

  const upcomingGiftLists = await db
    .select({ id: giftLists.id, code: giftLists.code, title: giftLists.title, eventDate: giftLists.eventDate, owner: users.name })
    .from(giftLists)
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(and(eq(giftLists.status, "open"), between(giftLists.eventDate, today, addDays(today, 30))))
    .orderBy(asc(giftLists.eventDate), desc(giftLists.createdAt))
    .limit(50);

  return {
    today: sum(perDay.filter((row) => row.day === today)),
    month: sum(perDay.filter((row) => row.day >= monthStart && row.day <= today)),
    days,
    toPrepare: toPrepare.map(({ firstName, lastName, createdAt, ...row }) => ({
      ...row,
      customer: `${firstName} ${lastName}`,
      createdAt: createdAt.toISOString(),
    })),
    lowStock,
    upcomingGiftLists,
  };
}
