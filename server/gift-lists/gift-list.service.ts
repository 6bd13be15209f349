/**
 * The owner's side of gift lists: create, edit, delete or close, and the items. Every query names the
 * owner: someone else's list is "not found" and nothing changes (the page answers 404).
 */
import crypto from "node:crypto";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { preparedPerDatabase } from "#server/db/prepared.ts";
import { addresses, giftListInvitations, giftListItems, giftListPurchases, giftLists, productVariants, products } from "#server/db/schema.ts";
import { checkPersonalisation, isForSale } from "#server/cart/cart.ts";
import { describeVariants, describeVariantsForPage, type VariantDisplay } from "#server/cart/cart-view.service.ts";
import { isOnRequestSql, isRecalledSql } from "#server/catalog/product-card.ts";
import { arrivesAfterEvent, canDeleteGiftList, generateGiftListCode, maxWishedQuantity, stillNeeded, type GiftListErrorCode } from "./gift-list";
import { groupGiftProgress, type GroupGiftProgress } from "./gift-list-group";
import {
  AddToGiftListInput,
  errorKey,
  GiftListId,
  giftListInput,
  GiftListItemId,
  parseGiftListForm,
  UpdateGiftListItemInput,
  type GiftListFieldErrors,
} from "./gift-list.inputs";

export type GiftListRow = typeof giftLists.$inferSelect;

const notFound = { ok: false, error: "not-found" } as const;
export type NotFound = typeof notFound;
export type FormRefused = { ok: false; errors: GiftListFieldErrors };
export type Refused = { ok: false; error: GiftListErrorCode };

/** A customer keeps at most this many lists (an open door for scripts otherwise). */
export const maxListsPerOwner = 20;
/** And at most this many items per list. */
export const maxItemsPerList = 200;

/** The owner's list, or null (unknown id, malformed id, or someone else's). */
export async function getOwnGiftList(db: Db, userId: string, rawId: unknown): Promise<GiftListRow | null> {
  const id = GiftListId.safeParse(rawId);
  if (!id.success) return null;
  const [row] = await db
    .select()
    .from(giftLists)
    .where(and(eq(giftLists.id, id.data), eq(giftLists.ownerUserId, userId)));
  return row ?? null;
}

/** The address id must be one of MY addresses; null means collection in the shop. */
async function checkDelivery(db: Db, userId: string, addressId: number | null): Promise<boolean> {
  if (addressId === null) return true;
  const [row] = await db
    .select({ id: addresses.id })
    .from(addresses)
    .where(and(eq(addresses.id, addressId), eq(addresses.userId, userId)));
  return Boolean(row);
}

export async function createGiftList(
  db: Db,
  args: { userId: string; input: unknown; now: Date },
): Promise<{ ok: true; id: string; code: string } | FormRefused> {
  const parsed = parseGiftListForm(giftListInput({ now: args.now }), args.input);
  if (!parsed.ok) return parsed;
  const input = parsed.value;
  if (!(await checkDelivery(db, args.userId, input.shippingAddressId)))
    return { ok: false, errors: { shippingAddressId: errorKey("address-not-found") } };
  const [{ value: owned } = { value: 0 }] = await db.select({ value: count() }).from(giftLists).where(eq(giftLists.ownerUserId, args.userId));
  if (owned >= maxListsPerOwner) return { ok: false, errors: { form: errorKey("tooManyLists") } };
  // A fresh code; a clash with an existing one (about 1 in 10^12) just draws again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = generateGiftListCode((size) => crypto.randomInt(size));
    const [row] = await db
      .insert(giftLists)
      .values({ ...input, code, ownerUserId: args.userId })
      .onConflictDoNothing({ target: giftLists.code })
      .returning({ id: giftLists.id, code: giftLists.code });
    if (row) return { ok: true, ...row };
  }
  throw new Error("createGiftList: could not draw a free code");
}

export async function updateGiftList(
  db: Db,
  args: { userId: string; giftListId: unknown; input: unknown; now: Date },
): Promise<{ ok: true } | FormRefused | NotFound> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return notFound;
  // A list whose day has passed may keep its date; a changed date may not be in the past.
  const parsed = parseGiftListForm(giftListInput({ now: args.now, keepDate: list.eventDate }), args.input);
  if (!parsed.ok) return parsed;
  const input = parsed.value;
  if (!(await checkDelivery(db, args.userId, input.shippingAddressId)))
    return { ok: false, errors: { shippingAddressId: errorKey("address-not-found") } };
  await db
    .update(giftLists)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(giftLists.id, list.id), eq(giftLists.ownerUserId, args.userId)));
  return { ok: true };
}

async function purchaseCountOf(db: Db, giftListId: string): Promise<number> {
  const [{ value } = { value: 0 }] = await db.select({ value: count() }).from(giftListPurchases).where(eq(giftListPurchases.giftListId, giftListId));
  return value;
}

/** Refused once someone bought from the list ("has-purchases"): then it can only be closed. */
export async function deleteGiftList(db: Db, args: { userId: string; giftListId: unknown }): Promise<{ ok: true } | NotFound | Refused> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return notFound;
  return db.transaction(async (tx) => {
    const items = await tx
      .select({ quantityBought: giftListItems.quantityBought, groupPledgedCents: giftListItems.groupPledgedCents })
      .from(giftListItems)
      .where(eq(giftListItems.giftListId, list.id))
      .for("update");
    // A group-gift contribution awaiting payment holds a share of an item: its payment must find the item.
    const contributing = items.some((item) => item.groupPledgedCents > 0);
    if (contributing || !canDeleteGiftList(items, await purchaseCountOf(tx, list.id))) return { ok: false as const, error: "has-purchases" as const };
    await tx.delete(giftLists).where(and(eq(giftLists.id, list.id), eq(giftLists.ownerUserId, args.userId)));
    return { ok: true as const };
  });
}

/** A closed list is still shown by its code but nothing can be bought from it; reopening is allowed. */
export async function setGiftListStatus(
  db: Db,
  args: { userId: string; giftListId: unknown; status: "open" | "closed" },
): Promise<{ ok: true } | NotFound> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return notFound;
  await db
    .update(giftLists)
    .set({ status: args.status, updatedAt: new Date() })
    .where(and(eq(giftLists.id, list.id), eq(giftLists.ownerUserId, args.userId)));
  return { ok: true };
}

export function closeGiftList(db: Db, args: { userId: string; giftListId: unknown }) {
  return setGiftListStatus(db, { ...args, status: "closed" });
}

// ---------------------------------------------------------------- items

export type GiftListItemView = VariantDisplay & {
  id: string;
  quantityWished: number;
  quantityBought: number;
  stillNeeded: number;
  personalisation: { label: string; text: string }[];
  /** A pre-order that would arrive after the event date. */
  arrivesAfterEvent: boolean;
  /** The current round of a group gift (bought only through contributions), else null. */
  group: GroupGiftProgress | null;
};

/** The items of lists with today's product data, in the order they were added. */
export async function describeGiftListItems(
  db: Db,
  lists: readonly Pick<GiftListRow, "id" | "eventDate">[],
  locale: Locale,
  now: Date,
  /** A page's read outside any transaction may take the variants' kept facts, as the mini cart does. */
  { keptVariants = false }: { keptVariants?: boolean } = {},
): Promise<Map<string, GiftListItemView[]>> {
  const result = new Map<string, GiftListItemView[]>(lists.map((list) => [list.id, []]));
  if (lists.length === 0) return result;
  const rows = await db
    .select()
    .from(giftListItems)
    .where(
      inArray(
        giftListItems.giftListId,
        lists.map((list) => list.id),
      ),
    )
    .orderBy(asc(giftListItems.position), asc(giftListItems.createdAt), asc(giftListItems.id));
  const variants = await (keptVariants ? describeVariantsForPage : describeVariants)(
    db,
    rows.map((row) => row.variantId),
    locale,
    now,
  );
  const eventDateOf = new Map(lists.map((list) => [list.id, list.eventDate]));
  for (const row of rows) {
    const variant = variants.get(row.variantId);
    if (!variant) continue;
    result.get(row.giftListId)!.push({
      ...variant,
      id: row.id,
      quantityWished: row.quantityWished,
      quantityBought: row.quantityBought,
      stillNeeded: stillNeeded(row),
      personalisation: variant.personalisationLabels.flatMap((label, index) => {
        const text = row.personalisation[String(index)];
        return text ? [{ label, text }] : [];
      }),
      arrivesAfterEvent: arrivesAfterEvent(variant, eventDateOf.get(row.giftListId)!, now),
      group: groupGiftProgress(row),
    });
  }
  return result;
}

export type MyGiftList = GiftListRow & { items: GiftListItemView[]; purchaseCount: number; invitationCount: number; canDelete: boolean };

/** The owner's lists (or only `listId`, when it is theirs), newest first, with each item's wished and bought quantities. */
export async function listMyGiftLists(db: Db, args: { userId: string; locale: Locale; now: Date; listId?: string }): Promise<MyGiftList[]> {
  const lists = await db
    .select()
    .from(giftLists)
    .where(and(eq(giftLists.ownerUserId, args.userId), args.listId === undefined ? undefined : eq(giftLists.id, args.listId)))
    .orderBy(desc(giftLists.createdAt), desc(giftLists.id));
  if (lists.length === 0) return [];
  const ids = lists.map((list) => list.id);
  const [items, purchases, invitations] = await Promise.all([
    describeGiftListItems(db, lists, args.locale, args.now),
    db
      .select({ giftListId: giftListPurchases.giftListId, value: count() })
      .from(giftListPurchases)
      .where(inArray(giftListPurchases.giftListId, ids))
      .groupBy(giftListPurchases.giftListId),
    db
      .select({ giftListId: giftListInvitations.giftListId, value: count() })
      .from(giftListInvitations)
      .where(inArray(giftListInvitations.giftListId, ids))
      .groupBy(giftListInvitations.giftListId),
  ]);
  const purchaseCount = new Map(purchases.map((row) => [row.giftListId, row.value]));
  const invitationCount = new Map(invitations.map((row) => [row.giftListId, row.value]));
  return lists.map((list) => {
    const listItems = items.get(list.id) ?? [];
    const purchasesOfList = purchaseCount.get(list.id) ?? 0;
    return {
      ...list,
      items: listItems,
      purchaseCount: purchasesOfList,
      invitationCount: invitationCount.get(list.id) ?? 0,
      canDelete: canDeleteGiftList(listItems, purchasesOfList),
    };
  });
}

export type GiftListChoice = { id: string; title: string; code: string };

const openGiftListsOfOwner = preparedPerDatabase((db) =>
  db
    .select({ id: giftLists.id, title: giftLists.title, code: giftLists.code, eventDate: giftLists.eventDate })
    .from(giftLists)
    .where(and(eq(giftLists.ownerUserId, sql.placeholder("userId")), eq(giftLists.status, "open")))
    .orderBy(desc(giftLists.createdAt), desc(giftLists.id))
    .prepare("open_gift_lists_of_owner"),
);

/** The owner's open lists, newest first, with what a choice shows and the event date their items are weighed against. */
export function listMyOpenGiftLists(db: Db, userId: string) {
  return openGiftListsOfOwner(db).execute({ userId });
}

/**
 * The product page's selector (`ProdinListaRegalo`, docs/rules.md#adding-from-the-product-page): a variant with a quantity and
 * its personalisation onto one of MY open lists. The same variant again raises its wished quantity.
 */
export async function addProductToGiftList(
  db: Db,
  args: { userId: string; input: unknown },
): Promise<{ ok: true; itemId: string; quantityWished: number } | FormRefused | NotFound | Refused> {
  const parsed = parseGiftListForm(AddToGiftListInput, args.input);
  if (!parsed.ok) return parsed;
  const input = parsed.value;
  const list = await getOwnGiftList(db, args.userId, input.giftListId);
  if (!list) return notFound;
  if (list.status === "closed") return { ok: false, error: "closed" };
  const [variant] = await db
    .select({
      id: productVariants.id,
      isPublished: products.isPublished,
      isOnRequest: isOnRequestSql(),
      isRecalled: isRecalledSql(),
      fields: products.personalisationFields,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, input.variantId));
  if (!variant) return { ok: false, error: "variant-not-found" };
  if (!isForSale(variant)) return { ok: false, error: "not-for-sale" };
  const checked = checkPersonalisation(variant.fields, input.personalisation);
  if (!checked.ok) return { ok: false, error: checked.error };
  const [{ value: items } = { value: 0 }] = await db.select({ value: count() }).from(giftListItems).where(eq(giftListItems.giftListId, list.id));
  if (items >= maxItemsPerList) {
    const [existing] = await db
      .select({ id: giftListItems.id })
      .from(giftListItems)
      .where(and(eq(giftListItems.giftListId, list.id), eq(giftListItems.variantId, variant.id)));
    if (!existing) return { ok: false, errors: { form: errorKey("tooManyItems") } };
  }
  const [row] = await db
    .insert(giftListItems)
    .values({ giftListId: list.id, variantId: variant.id, quantityWished: input.quantity, personalisation: checked.personalisation, position: items })
    .onConflictDoUpdate({
      target: [giftListItems.giftListId, giftListItems.variantId],
      set: {
        quantityWished: sql`least(${giftListItems.quantityWished} + ${input.quantity}, ${maxWishedQuantity})`,
        personalisation: checked.personalisation,
      },
    })
    .returning({ id: giftListItems.id, quantityWished: giftListItems.quantityWished });
  return { ok: true, itemId: row!.id, quantityWished: row!.quantityWished };
}

/** Which list an item must be in, by its code (the API names lists so); any of the owner's when absent. */
type InList = { listCode?: string };

/** The owner's item (through its list), or null. */
async function getOwnItem(db: Db, userId: string, rawItemId: unknown, { listCode }: InList) {
  const id = GiftListItemId.safeParse(rawItemId);
  if (!id.success) return null;
  const [row] = await db
    .select({ id: giftListItems.id, giftListId: giftListItems.giftListId, quantityBought: giftListItems.quantityBought })
    .from(giftListItems)
    .innerJoin(giftLists, eq(giftLists.id, giftListItems.giftListId))
    .where(and(eq(giftListItems.id, id.data), eq(giftLists.ownerUserId, userId), listCode === undefined ? undefined : eq(giftLists.code, listCode)));
  return row ?? null;
}

/** A new wished quantity: never below what was already bought (plus the unit a group gift is collecting for). */
export async function updateGiftListItem(
  db: Db,
  args: { userId: string; input: unknown } & InList,
): Promise<{ ok: true; giftListId: string } | FormRefused | NotFound | Refused> {
  const parsed = parseGiftListForm(UpdateGiftListItemInput, args.input);
  if (!parsed.ok) return parsed;
  const item = await getOwnItem(db, args.userId, parsed.value.itemId, args);
  if (!item) return notFound;
  const [updated] = await db
    .update(giftListItems)
    .set({ quantityWished: parsed.value.quantity })
    .where(
      and(
        eq(giftListItems.id, item.id),
        sql`${giftListItems.quantityBought} + (case when ${giftListItems.groupPledgedCents} > 0 then 1 else 0 end) <= ${parsed.value.quantity}`,
      ),
    )
    .returning({ id: giftListItems.id });
  return updated ? { ok: true, giftListId: item.giftListId } : { ok: false, error: "below-bought" };
}

/** An item nobody bought yet (nor contributed to) can go; a bought one stays (the owner's record of who gave what). */
export async function removeGiftListItem(
  db: Db,
  args: { userId: string; itemId: unknown } & InList,
): Promise<{ ok: true; giftListId: string } | NotFound | Refused> {
  const item = await getOwnItem(db, args.userId, args.itemId, args);
  if (!item) return notFound;
  const [deleted] = await db
    .delete(giftListItems)
    .where(and(eq(giftListItems.id, item.id), eq(giftListItems.quantityBought, 0), eq(giftListItems.groupPledgedCents, 0)))
    .returning({ id: giftListItems.id });
  return deleted ? { ok: true, giftListId: item.giftListId } : { ok: false, error: "has-purchases" };
}
