/**
 * The back office's gift lists: search every list (private ones and closed ones too), view one with its
 * items, owner, delivery and the orders that bought from it, and close it. Built on the gift-list
 * module's own services (items, address, closing): the staff see what the owner sees, with the owner
 * named, and a close is the owner's own close with an audit row in the same transaction.
 */
import { and, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { getAddress, type Address } from "#server/accounts/address.service.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { giftLists, users } from "#server/db/schema.ts";
import { escapeLikePattern, normaliseGiftListCode, type GiftListType, type GiftListVisibility } from "#server/gift-lists/gift-list.ts";
import { GiftListId } from "#server/gift-lists/gift-list.inputs.ts";
import { giftListNameMatches } from "#server/gift-lists/gift-list-public.service.ts";
import { closeGiftList, describeGiftListItems, type GiftListItemView } from "#server/gift-lists/gift-list.service.ts";
import { recordAudit } from "./audit.service";
import { listAdminOrders, type AdminOrderRow } from "./orders-admin.service";

export const adminGiftListsPageSize = 25;

export const AdminGiftListFilters = z.object({
  q: z.string().trim().max(200).catch(""),
  status: z.enum(["open", "closed"]).or(z.literal("")).catch(""),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});
export type AdminGiftListFilters = z.infer<typeof AdminGiftListFilters>;

export function parseAdminGiftListFilters(params: URLSearchParams): AdminGiftListFilters {
  return AdminGiftListFilters.parse({ q: params.get("q") ?? "", status: params.get("status") ?? "", page: params.get("page") ?? 1 });
}

export type AdminGiftListRow = {
  id: string;
  code: string;
  title: string;
  type: GiftListType;
  eventDate: string;
  status: "open" | "closed";
  visibility: GiftListVisibility;
  ownerId: string;
  ownerName: string;
  ownerEmail: string;
  wished: number;
  bought: number;
};

const rowColumns = {
  id: giftLists.id,
  code: giftLists.code,
  title: giftLists.title,
  type: giftLists.type,
  eventDate: giftLists.eventDate,
  status: giftLists.status,
  visibility: giftLists.visibility,
  ownerId: users.id,
  ownerName: users.name,
  ownerEmail: users.email,
  // Written out with their tables: drizzle leaves a selected column unqualified, and "id" would name the inner table's.
  wished: sql<number>`(select coalesce(sum(items.quantity_wished), 0) from gift_list_items items where items.gift_list_id = gift_lists.id)`.mapWith(
    Number,
  ),
  bought: sql<number>`(select coalesce(sum(items.quantity_bought), 0) from gift_list_items items where items.gift_list_id = gift_lists.id)`.mapWith(
    Number,
  ),
};

/** What the search box matches: a list's code (as a guest would type it), words of its title or names, or part of the owner's e-mail. */
function searchCondition(q: string): SQL | null {
  if (!q) return null;
  const code = normaliseGiftListCode(q);
  const matches = [
    code ? eq(giftLists.code, code) : null,
    giftListNameMatches(q),
    ilike(users.email, `%${escapeLikePattern(q.toLowerCase())}%`),
  ].filter((condition): condition is SQL => condition !== null);
  return or(...matches)!;
}

/** The latest event first (the lists staff are asked about); `ownerUserId` narrows to one customer's lists. */
export async function listAdminGiftLists(
  db: Db,
  filters: AdminGiftListFilters,
  scope: { ownerUserId?: string } = {},
): Promise<{ rows: AdminGiftListRow[]; total: number; page: number; pageCount: number }> {
  const conditions = [
    searchCondition(filters.q),
    filters.status ? eq(giftLists.status, filters.status) : null,
    scope.ownerUserId ? eq(giftLists.ownerUserId, scope.ownerUserId) : null,
  ].filter((condition): condition is SQL => condition !== null);
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ value: total } = { value: 0 }] = await db
    .select({ value: count() })
    .from(giftLists)
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(where);
  const { page, pageCount, offset } = pageOf(filters.page, total, adminGiftListsPageSize);
  const rows = await db
    .select(rowColumns)
    .from(giftLists)
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(where)
    .orderBy(desc(giftLists.eventDate), desc(giftLists.createdAt), desc(giftLists.id))
    .limit(adminGiftListsPageSize)
    .offset(offset);
  return { rows, total, page, pageCount };
}

export type AdminGiftListDetail = Omit<AdminGiftListRow, "wished" | "bought"> & {
  celebratedNames: string;
  messageToGuests: string;
  createdAt: string;
  /** Shipped to the owner's address, or collected in the shop (also when the owner deleted the address). */
  delivery:
    | {
        kind: "address";
        address: Pick<Address, "firstName" | "lastName" | "street" | "houseNumber" | "postcode" | "city" | "province" | "country" | "phone">;
      }
    | { kind: "collection" };
  items: GiftListItemView[];
  /** The orders placed from the list (newest first, the latest 25), and how many there are. */
  orders: AdminOrderRow[];
  orderCount: number;
};

export async function getAdminGiftList(db: Db, args: { giftListId: string; locale: Locale; now: Date }): Promise<AdminGiftListDetail | null> {
  const id = GiftListId.safeParse(args.giftListId);
  if (!id.success) return null;
  // The items' totals are on the items themselves here: the list's row needs no sums.
  const { wished: _wished, bought: _bought, ...listColumns } = rowColumns;
  const [list] = await db
    .select({
      ...listColumns,
      celebratedNames: giftLists.celebratedNames,
      messageToGuests: giftLists.messageToGuests,
      createdAt: giftLists.createdAt,
      shippingAddressId: giftLists.shippingAddressId,
    })
    .from(giftLists)
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(eq(giftLists.id, id.data));
  if (!list) return null;
  const { shippingAddressId, ...shown } = list;
  const [items, address, orders] = await Promise.all([
    describeGiftListItems(db, [{ id: list.id, eventDate: list.eventDate }], args.locale, args.now),
    // The owner's address only (a deleted one leaves the list collected in the shop).
    shippingAddressId === null ? null : getAddress(db, list.ownerId, shippingAddressId),
    listAdminOrders(db, { q: "", status: "", payment: "", delivery: "", page: 1 }, { giftListId: list.id }),
  ]);
  return {
    ...shown,
    createdAt: list.createdAt.toISOString(),
    delivery: address
      ? {
          kind: "address",
          address: {
            firstName: address.firstName,
            lastName: address.lastName,
            street: address.street,
            houseNumber: address.houseNumber,
            postcode: address.postcode,
            city: address.city,
            province: address.province,
            country: address.country,
            phone: address.phone,
          },
        }
      : { kind: "collection" },
    items: items.get(list.id) ?? [],
    orders: orders.rows,
    orderCount: orders.total,
  };
}

/**
 * Closes a list for its owner (a family asks the shop, or a list is misused): nothing more can be bought
 * from it; the owner can reopen it. The owner's own close, with the audit row in the same transaction.
 */
export async function closeGiftListAsAdmin(
  db: Db,
  args: { giftListId: string; actorUserId: string },
): Promise<{ ok: true } | { ok: false; error: "not-found" | "already-closed" }> {
  const id = GiftListId.safeParse(args.giftListId);
  if (!id.success) return { ok: false, error: "not-found" };
  return db.transaction(async (tx) => {
    const [list] = await tx
      .select({ id: giftLists.id, code: giftLists.code, title: giftLists.title, status: giftLists.status, ownerUserId: giftLists.ownerUserId })
      .from(giftLists)
      .where(eq(giftLists.id, id.data))
      .for("update");
    if (!list) return { ok: false as const, error: "not-found" as const };
    if (list.status === "closed") return { ok: false as const, error: "already-closed" as const };
    // The list is locked and its owner's: the owner's own close cannot miss it.
    await closeGiftList(tx, { userId: list.ownerUserId, giftListId: list.id });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "giftList.close",
      entity: "giftList",
      entityId: list.id,
      details: { code: list.code, title: list.title },
    });
    return { ok: true as const };
  });
}
