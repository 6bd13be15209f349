/**
 * The back office's customers: find an account by name or e-mail and see what the shop holds for it
 * (profile, addresses, orders, gift lists). Read only: staff change nothing here, and no password is ever
 * read, shown or set (the credentials table is not queried at all; a customer resets their own).
 */
import { count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { listAddresses, type Address } from "#server/accounts/address.service.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { profiles, users } from "#server/db/schema.ts";
import { escapeLikePattern } from "#server/gift-lists/gift-list.ts";
import { everyWordIn } from "#server/gift-lists/gift-list-public.service.ts";
import { listAdminGiftLists, type AdminGiftListRow } from "./gift-lists-admin.service";
import { listAdminOrders, type AdminOrderRow } from "./orders-admin.service";

export const adminCustomersPageSize = 25;

export const AdminCustomerFilters = z.object({
  q: z.string().trim().max(200).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AdminCustomerFilters = z.infer<typeof AdminCustomerFilters>;

export function parseAdminCustomerFilters(params: URLSearchParams): AdminCustomerFilters {
  return AdminCustomerFilters.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
}

/** An account id as better-auth makes them; anything else is not an account (the page answers 404). */
export const CustomerId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export type AdminCustomerRow = {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  createdAt: string;
  orderCount: number;
  giftListCount: number;
};

/** The columns staff may see of an account: never anything of its credentials. */
const customerColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
  // Written out with their tables: drizzle leaves a selected column unqualified, and "id" would name the inner table's.
  orderCount: sql<number>`(select count(*) from orders where orders.user_id = users.id)`.mapWith(Number),
  giftListCount: sql<number>`(select count(*) from gift_lists where gift_lists.owner_user_id = users.id)`.mapWith(Number),
};

/** Every word in the name (case and accents ignored), or part of the e-mail address. */
function searchCondition(q: string): SQL | null {
  if (!q) return null;
  const byEmail = ilike(users.email, `%${escapeLikePattern(q.toLowerCase())}%`);
  const byName = everyWordIn(sql`${users.name}`, q);
  return byName ? or(byEmail, byName)! : byEmail;
}

/** Newest accounts first. */
export async function listAdminCustomers(
  db: Db,
  filters: AdminCustomerFilters,
): Promise<{ rows: AdminCustomerRow[]; total: number; page: number; pageCount: number }> {
  const where = searchCondition(filters.q) ?? undefined;
  const [{ value: total } = { value: 0 }] = await db.select({ value: count() }).from(users).where(where);
  const { page, pageCount, offset } = pageOf(filters.page, total, adminCustomersPageSize);
  const rows = await db
    .select(customerColumns)
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(adminCustomersPageSize)
    .offset(offset);
  return {
    rows: rows.map(({ role, createdAt, ...row }) => ({ ...row, isAdmin: role === "admin", createdAt: createdAt.toISOString() })),
    total,
    page,
    pageCount,
  };
}

export type AdminCustomerDetail = Omit<AdminCustomerRow, "orderCount" | "giftListCount"> & {
  emailVerified: boolean;
  phone: string | null;
  fiscalCode: string | null;
  preferredLocale: string;
  addresses: Pick<
    Address,
    "id" | "label" | "firstName" | "lastName" | "street" | "houseNumber" | "postcode" | "city" | "province" | "country" | "phone" | "isDefault"
  >[];
  /** The latest 25 of each, newest first, and how many there are. */
  orders: AdminOrderRow[];
  orderCount: number;
  giftLists: AdminGiftListRow[];
  giftListCount: number;
};

export async function getAdminCustomer(db: Db, rawUserId: string): Promise<AdminCustomerDetail | null> {
  const id = CustomerId.safeParse(rawUserId);
  if (!id.success) return null;
  const [user] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      phone: profiles.phone,
      fiscalCode: profiles.fiscalCode,
      preferredLocale: profiles.preferredLocale,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, id.data));
  if (!user) return null;
  const [addresses, orderList, lists] = await Promise.all([
    listAddresses(db, user.id),
    listAdminOrders(db, { q: "", status: "", payment: "", delivery: "", page: 1 }, { userId: user.id }),
    listAdminGiftLists(db, { q: "", status: "", page: 1 }, { ownerUserId: user.id }),
  ]);
  const { role, createdAt, ...rest } = user;
  return {
    ...rest,
    isAdmin: role === "admin",
    createdAt: createdAt.toISOString(),
    preferredLocale: user.preferredLocale ?? "it",
    addresses: addresses.map(({ id, label, firstName, lastName, street, houseNumber, postcode, city, province, country, phone, isDefault }) => ({
      id,
      label,
      firstName,
      lastName,
      street,
      houseNumber,
      postcode,
      city,
      province,
      country,
      phone,
      isDefault,
    })),
    orders: orderList.rows,
    orderCount: orderList.total,
    giftLists: lists.rows,
    giftListCount: lists.total,
  };
}
