/**
 * What checkout and payment need from gift lists (wired into placeOrder / markOrderPaid by the lead):
 * the delivery of a gift-list order (the list's address copied into the order, never shown to the
 * guest, or collection in the shop), and recording what was bought once the order is paid.
 */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, cartLines, carts, giftListItems, giftListPurchases, giftLists, orderLines, orders, profiles, users } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { stillNeeded } from "./gift-list";

export type GiftListDelivery =
  | {
      kind: "address";
      firstName: string;
      lastName: string;
      street: string;
      houseNumber: string;
      postcode: string;
      city: string;
      province: string;
      country: string;
      phone: string | null;
    }
  | { kind: "collection" };

/**
 * Where a gift-list order goes: the list's shipping address (to copy into the order's address
 * columns; the checkout page must not show it) or collection in the shop. Null when the list is gone
 * or closed: then the order is refused. A funded group gift goes even to a list closed meanwhile
 * (`includeClosed`): its money is already paid.
 */
export async function giftListDeliveryFor(db: Db, giftListId: string, options: { includeClosed?: boolean } = {}): Promise<GiftListDelivery | null> {
  const [list] = await db
    .select({ status: giftLists.status, ownerUserId: giftLists.ownerUserId, shippingAddressId: giftLists.shippingAddressId })
    .from(giftLists)
    .where(eq(giftLists.id, giftListId));
  if (!list || (list.status !== "open" && !options.includeClosed)) return null;
  if (list.shippingAddressId === null) return { kind: "collection" };
  const [address] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, list.shippingAddressId), eq(addresses.userId, list.ownerUserId)));
  // The owner deleted the address after choosing it: collection in the shop, as for a list without one.
  if (!address) return { kind: "collection" };
  const { firstName, lastName, street, houseNumber, postcode, city, province, country, phone } = address;
  return { kind: "address", firstName, lastName, street, houseNumber, postcode, city, province, country, phone };
}

/** The giver's name and message kept on the cart (the list page's form), for placeOrder to copy. */
export async function giftNoteOfCart(db: Db, cartId: string): Promise<{ giverName: string | null; giftMessage: string | null }> {
  const [row] = await db.select({ giverName: carts.giftGiverName, giftMessage: carts.giftMessage }).from(carts).where(eq(carts.id, cartId));
  return { giverName: row?.giverName ?? null, giftMessage: row?.giftMessage ?? null };
}

/**
 * Lines of a gift-list cart asking for more than is still needed (someone bought meanwhile): for
 * placeOrder to refuse before taking stock. Empty when all is well. A group gift is bought only
 * through contributions: none of it can be bought whole (docs/decisions/0021-group-gifting.md).
 */
export async function giftListShortfalls(
  db: Db,
  cartId: string,
): Promise<{ giftListItemId: string; variantId: number; wanted: number; stillNeeded: number }[]> {
  const rows = await db
    .select({
      giftListItemId: giftListItems.id,
      variantId: giftListItems.variantId,
      wanted: sql<number>`sum(${cartLines.quantity})`.mapWith(Number),
      quantityWished: giftListItems.quantityWished,
      quantityBought: giftListItems.quantityBought,
      isGroupGift: giftListItems.isGroupGift,
    })
    .from(cartLines)
    .innerJoin(giftListItems, eq(giftListItems.id, cartLines.giftListItemId))
    .where(and(eq(cartLines.cartId, cartId), isNotNull(cartLines.giftListItemId)))
    .groupBy(giftListItems.id);
  return rows
    .map((row) => ({
      giftListItemId: row.giftListItemId,
      variantId: row.variantId,
      wanted: row.wanted,
      stillNeeded: row.isGroupGift ? 0 : stillNeeded(row),
    }))
    .filter((row) => row.wanted > row.stillNeeded);
}

/**
 * placeOrder's share lock on the list items its cart buys, taken after the stock (the lock order of a
 * late payment, variants then items): the owner cannot open one of them to group gifting until this
 * order is committed, and then sees it (gift-list-group.service.ts).
 */
export async function lockGiftListItemsOfCart(tx: Db, cartId: string): Promise<void> {
  const held = tx
    .select({ id: cartLines.giftListItemId })
    .from(cartLines)
    .where(and(eq(cartLines.cartId, cartId), isNotNull(cartLines.giftListItemId)));
  await tx.select({ id: giftListItems.id }).from(giftListItems).where(inArray(giftListItems.id, held)).orderBy(asc(giftListItems.id)).for("share");
}

/** The paid order, as markOrderPaid locked it. */
export type PaidOrder = Pick<
  typeof orders.$inferSelect,
  "id" | "number" | "giftListId" | "giverName" | "giftMessage" | "email" | "firstName" | "lastName"
>;

export type RecordedPurchases = {
  /** Items whose bought quantity went up, and by how much. */
  recorded: { giftListItemId: string; quantity: number }[];
  /** Units paid for beyond what was still needed (two guests raced for the last one): for the shop to sort out. */
  overflow: { giftListItemId: string; quantity: number }[];
};

/**
 * On payment (markOrderPaid, in its transaction): raises each item's bought quantity with a
 * conditional UPDATE (never above wished; rows locked in id order, so two guests cannot both take
 * the last unit), records one gift_list_purchases row per order item (unique: a repeated webhook
 * changes nothing) and queues the owner's mail with the giver's name and message, once.
 */
export async function recordGiftListPurchases(tx: Db, args: { order: PaidOrder; now: Date; publicUrl: string | null }): Promise<RecordedPurchases> {
  const none: RecordedPurchases = { recorded: [], overflow: [] };
  const { order } = args;
  if (!order.giftListId) return none;
  const lines = await tx
    .select({
      giftListItemId: orderLines.giftListItemId,
      quantity: orderLines.quantity,
      name: orderLines.name,
      lineTotalCents: orderLines.lineTotalCents,
    })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), isNotNull(orderLines.giftListItemId)));
  const perItem = new Map<string, { quantity: number; amountCents: number; names: string[] }>();
  for (const { giftListItemId, ...line } of lines) {
    // The SQL filter does not narrow the column's type.
    if (giftListItemId === null) continue;
    const entry = perItem.get(giftListItemId) ?? { quantity: 0, amountCents: 0, names: [] };
    entry.quantity += line.quantity;
    entry.amountCents += line.lineTotalCents;
    entry.names.push(line.name);
    perItem.set(giftListItemId, entry);
  }
  if (perItem.size === 0) return none;

  const itemIds = [...perItem.keys()].sort();
  const items = await tx
    .select({ id: giftListItems.id, quantityWished: giftListItems.quantityWished, quantityBought: giftListItems.quantityBought })
    .from(giftListItems)
    .where(and(inArray(giftListItems.id, itemIds), eq(giftListItems.giftListId, order.giftListId)))
    .orderBy(asc(giftListItems.id))
    .for("update");
  const giverName = order.giverName?.trim() || `${order.firstName} ${order.lastName}`.trim();
  const result: RecordedPurchases = { recorded: [], overflow: [] };
  for (const item of items) {
    const { quantity, amountCents } = perItem.get(item.id)!;
    const [inserted] = await tx
      .insert(giftListPurchases)
      .values({
        giftListId: order.giftListId,
        giftListItemId: item.id,
        orderId: order.id,
        kind: "item",
        quantity,
        amountCents,
        giverName,
        giverEmail: order.email,
        message: order.giftMessage,
        createdAt: args.now,
      })
      .onConflictDoNothing({ target: [giftListPurchases.orderId, giftListPurchases.giftListItemId] })
      .returning({ id: giftListPurchases.id });
    if (!inserted) continue;
    const take = Math.min(quantity, stillNeeded(item));
    if (take > 0) {
      const [raised] = await tx
        .update(giftListItems)
        .set({ quantityBought: sql`${giftListItems.quantityBought} + ${take}` })
        .where(and(eq(giftListItems.id, item.id), sql`${giftListItems.quantityBought} + ${take} <= ${giftListItems.quantityWished}`))
        .returning({ id: giftListItems.id });
      if (raised) result.recorded.push({ giftListItemId: item.id, quantity: take });
    }
    if (take < quantity) result.overflow.push({ giftListItemId: item.id, quantity: quantity - take });
  }
  if (result.recorded.length + result.overflow.length > 0) await queueOwnerNotification(tx, { order, giverName, lines, publicUrl: args.publicUrl });
  return result;
}

/** Who is told of a list's gifts, in their language, with the list's title; null when the list is gone. */
export async function giftListOwnerOf(tx: Db, giftListId: string) {
  const [owner] = await tx
    .select({ userId: users.id, email: users.email, name: users.name, title: giftLists.title, preferredLocale: profiles.preferredLocale })
    .from(giftLists)
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(giftLists.id, giftListId));
  if (!owner) return null;
  const { preferredLocale, ...rest } = owner;
  const locale: Locale = preferredLocale === "en" ? "en" : "it";
  return { ...rest, locale };
}

async function queueOwnerNotification(
  tx: Db,
  args: {
    order: { id: string; number: number; giftListId: string | null; giftMessage: string | null };
    giverName: string;
    lines: { name: string; quantity: number }[];
    /** Without it the mail goes without its button (never dropped for want of a link). */
    publicUrl: string | null;
  },
) {
  const owner = args.order.giftListId === null ? null : await giftListOwnerOf(tx, args.order.giftListId);
  if (!owner) return;
  const { locale } = owner;
  const t = getTranslator(locale);
  const { shop } = await getSettings(tx, ["shop"]);
  await queueEmail(tx, {
    to: owner.email,
    kind: "gift-list-purchase",
    locale,
    dedupeKey: `gift-list-purchase:${args.order.id}`,
    ...renderEmail({
      locale,
      shop,
      siteUrl: args.publicUrl ?? undefined,
      subject: t("giftLists.mail.purchase.subject", { giver: args.giverName, title: owner.title }),
      heading: t("giftLists.mail.purchase.heading", { giver: args.giverName }),
      paragraphs: [
        t("giftLists.mail.purchase.intro", { giver: args.giverName, title: owner.title }),
        ...(args.order.giftMessage ? [t("giftLists.mail.purchase.message", { message: args.order.giftMessage })] : []),
      ],
      detailsTitle: t("giftLists.mail.purchase.detailsTitle"),
      details: args.lines.map((line) => [line.name, `× ${line.quantity}`]),
      ...(args.publicUrl
        ? { action: { label: t("giftLists.mail.purchase.action"), url: `${args.publicUrl}${localizedHref("/crea-lista-nascita", locale)}` } }
        : {}),
    }),
  });
}

/**
 * A giver withdrew from units bought from a list and sent them back: the item counts them as no longer
 * bought (so the family may receive them from someone else), and the purchase says how many came back,
 * for the family to see.
 */
export async function recordGiftListReturn(
  tx: Db,
  args: { orderId: string; items: readonly { giftListItemId: string; quantity: number }[] },
): Promise<void> {
  for (const item of [...args.items].sort((a, b) => a.giftListItemId.localeCompare(b.giftListItemId))) {
    const [purchase] = await tx
      .update(giftListPurchases)
      .set({ returnedQuantity: sql`least(${giftListPurchases.returnedQuantity} + ${item.quantity}, ${giftListPurchases.quantity})` })
      .where(
        and(
          eq(giftListPurchases.orderId, args.orderId),
          eq(giftListPurchases.giftListItemId, item.giftListItemId),
          eq(giftListPurchases.kind, "item"),
        ),
      )
      .returning({ id: giftListPurchases.id });
    // Units never counted (paid beyond what the list needed) have nothing to take back.
    if (!purchase) continue;
    await tx
      .update(giftListItems)
      .set({ quantityBought: sql`greatest(${giftListItems.quantityBought} - ${item.quantity}, 0)` })
      .where(eq(giftListItems.id, item.giftListItemId));
  }
}
