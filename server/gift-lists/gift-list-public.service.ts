/**
 * The guests' side: find a list by code (throttled per client address against guessing) or by name
 * (public lists only), read it, and buy from it through the cart. Never the address.
 */
import { and, asc, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import { countAttempt, isThrottled } from "#server/accounts/login-throttle.service.ts";
import type { ThrottleRule } from "#server/accounts/login-throttle.ts";
import { addToCart, type AddToCartResult } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { cartLines, carts, giftListItems, giftLists, productVariants } from "#server/db/schema.ts";
import { escapeLikePattern, maxGuestQuantity, normaliseGiftListCode, searchWordsOf, stillNeeded, type GiftListErrorCode } from "./gift-list";
import { GiftNoteInput, GuestAddInput, parseGiftListForm, type GiftListFieldErrors } from "./gift-list.inputs";
import { describeGiftListItems, type GiftListItemView } from "./gift-list.service";

/** Unknown codes one client address may try: a person mistyping is far below, a script far above. */
export const codeLookupRule: ThrottleRule = { max: 20, windowMs: 10 * 60_000 };

export function codeLookupThrottleKey(clientIp: string): string {
  return `gift-list-code:ip:${clientIp}`;
}

/** What anyone may see of a list in search results: never the address or the owner. */
export type GiftListSummary = {
  code: string;
  title: string;
  type: "nascita" | "compleanno" | "battesimo";
  eventDate: string;
  celebratedNames: string;
};

const summaryColumns = {
  code: giftLists.code,
  title: giftLists.title,
  type: giftLists.type,
  eventDate: giftLists.eventDate,
  celebratedNames: giftLists.celebratedNames,
};

type CodeLookup<T> = { ok: true; list: T } | { ok: false; error: Extract<GiftListErrorCode, "not-found" | "invalid-code" | "throttled"> };

/**
 * A list by its exact code (any case, spaces or dashes ignored). Every miss counts against the
 * client address; over the limit every lookup is refused until the window passes.
 */
async function lookUpCode<T>(
  db: Db,
  args: { code: string; clientIp: string; now: Date },
  find: (code: string) => Promise<T | null>,
): Promise<CodeLookup<T>> {
  const key = codeLookupThrottleKey(args.clientIp);
  if (await isThrottled(db, key, codeLookupRule, args.now)) return { ok: false, error: "throttled" };
  const code = normaliseGiftListCode(args.code);
  const list = code ? await find(code) : null;
  if (list) return { ok: true, list };
  const verdict = await countAttempt(db, key, codeLookupRule, args.now);
  if (!verdict.allowed) return { ok: false, error: "throttled" };
  return { ok: false, error: code ? "not-found" : "invalid-code" };
}

/** `search-id` (docs/rules.md#http-api): public and code-only lists alike (the code is the key). */
export function findGiftListByCode(db: Db, args: { code: string; clientIp: string; now: Date }): Promise<CodeLookup<GiftListSummary>> {
  return lookUpCode(db, args, async (code) => {
    const [row] = await db.select(summaryColumns).from(giftLists).where(eq(giftLists.code, code));
    return row ?? null;
  });
}

/**
 * Every word of `query` (docs/rules.md#gift-lists: all words must match) found in a list's title or names,
 * case and accents ignored; null when the query has no word to look for. The guests' search and the
 * back office's both use it.
 */
export function giftListNameMatches(query: string): SQL | null {
  return everyWordIn(sql`${giftLists.title} || ' ' || ${giftLists.celebratedNames}`, query);
}

/** Every word of `query` is somewhere in `text`, case and accents ignored; null when the query has no word (also the back office's customer search). */
export function everyWordIn(text: SQL, query: string): SQL | null {
  const words = searchWordsOf(query);
  if (words.length === 0) return null;
  const haystack = sql`unaccent(lower(${text}))`;
  return and(...words.map((word) => sql`${haystack} like ${`%${escapeLikePattern(word)}%`}`))!;
}

/**
 * `search-name` (docs/rules.md#http-api): every word must be found in the title or the names, case and
 * accents ignored; public, open lists only; soonest event first.
 */
export async function searchGiftListsByName(db: Db, args: { query: string; limit?: number }): Promise<GiftListSummary[]> {
  const nameMatches = giftListNameMatches(args.query);
  if (!nameMatches) return [];
  return db
    .select(summaryColumns)
    .from(giftLists)
    .where(and(eq(giftLists.visibility, "public"), eq(giftLists.status, "open"), nameMatches))
    .orderBy(asc(giftLists.eventDate), asc(giftLists.title))
    .limit(Math.min(args.limit ?? 20, 50));
}

export type PublicGiftList = GiftListSummary & {
  id: string;
  messageToGuests: string;
  isOpen: boolean;
  /** Collected in the shop rather than shipped (the address itself is never shown). */
  isCollection: boolean;
  items: (GiftListItemView & { maxAddable: number; inCart: number })[];
};

/** `search-products` (docs/rules.md#http-api): the list a guest sees, with what the visitor's cart already holds. */
export async function getPublicGiftList(
  db: Db,
  args: { code: string; clientIp: string; locale: Locale; now: Date; cartId?: string | null },
): Promise<CodeLookup<PublicGiftList>> {
  return lookUpCode(db, args, async (code) => {
    const [list] = await db.select().from(giftLists).where(eq(giftLists.code, code));
    if (!list) return null;
    const items = (await describeGiftListItems(db, [list], args.locale, args.now)).get(list.id) ?? [];
    const held = args.cartId
      ? await db
          .select({ giftListItemId: cartLines.giftListItemId, quantity: cartLines.quantity })
          .from(cartLines)
          .where(eq(cartLines.cartId, args.cartId))
      : [];
    const inCartOf = (itemId: string) => held.filter((line) => line.giftListItemId === itemId).reduce((sum, line) => sum + line.quantity, 0);
    return {
      id: list.id,
      code: list.code,
      title: list.title,
      type: list.type,
      eventDate: list.eventDate,
      celebratedNames: list.celebratedNames,
      messageToGuests: list.messageToGuests,
      isOpen: list.status === "open",
      isCollection: list.shippingAddressId === null,
      items: items.map((item) => {
        const inCart = inCartOf(item.id);
        // A group gift is given through contributions only, never bought whole.
        const open = list.status === "open" && item.isForSale && item.group === null;
        return { ...item, inCart, maxAddable: open ? maxGuestQuantity({ stillNeeded: item.stillNeeded, inCart, stock: item.stock }) : 0 };
      }),
    };
  });
}

export type GuestAddResult =
  | AddToCartResult
  | { ok: false; error: "gift-list-item-not-found" | "gift-list-closed" | "gift-list-quantity-exceeded" | "group-gift-only"; maxAddable?: number };

/**
 * A guest puts a list item in the cart: at most what is still needed (minus what the cart holds for
 * it), then every cart rule (stock, mixing with its texts, docs/rules.md#gift-list-mixing, personalisation from the item).
 */
export async function addGiftListItemToCart(db: Db, args: { cartId: string | null; code: string; input: unknown }): Promise<GuestAddResult> {
  const parsed = GuestAddInput.safeParse(args.input);
  if (!parsed.success) return { ok: false, error: "quantity-invalid" };
  const code = normaliseGiftListCode(args.code);
  if (!code) return { ok: false, error: "gift-list-item-not-found" };
  const [item] = await db
    .select({
      id: giftListItems.id,
      variantId: giftListItems.variantId,
      quantityWished: giftListItems.quantityWished,
      quantityBought: giftListItems.quantityBought,
      personalisation: giftListItems.personalisation,
      isGroupGift: giftListItems.isGroupGift,
      status: giftLists.status,
      stock: productVariants.stock,
    })
    .from(giftListItems)
    .innerJoin(giftLists, eq(giftLists.id, giftListItems.giftListId))
    .innerJoin(productVariants, eq(productVariants.id, giftListItems.variantId))
    .where(and(eq(giftListItems.id, parsed.data.itemId), eq(giftLists.code, code)));
  if (!item) return { ok: false, error: "gift-list-item-not-found" };
  if (item.status !== "open") return { ok: false, error: "gift-list-closed" };
  if (item.isGroupGift) return { ok: false, error: "group-gift-only" };
  const [{ held } = { held: 0 }] = args.cartId
    ? await db
        .select({ held: sql<number>`coalesce(sum(${cartLines.quantity}), 0)`.mapWith(Number) })
        .from(cartLines)
        .where(and(eq(cartLines.cartId, args.cartId), eq(cartLines.giftListItemId, item.id)))
    : [];
  const room = stillNeeded(item) - held;
  if (parsed.data.quantity > room) return { ok: false, error: "gift-list-quantity-exceeded", maxAddable: Math.max(0, room) };
  return addToCart(db, {
    cartId: args.cartId,
    variantId: item.variantId,
    quantity: parsed.data.quantity,
    personalisation: item.personalisation,
    giftListItemId: item.id,
  });
}

/** The giver's name and message, kept on a gift-list cart until checkout copies them into the order. */
export async function setCartGiftNote(
  db: Db,
  args: { cartId: string | null; input: unknown },
): Promise<{ ok: true } | { ok: false; errors: GiftListFieldErrors }> {
  const parsed = parseGiftListForm(GiftNoteInput, args.input);
  if (!parsed.ok) return parsed;
  if (!args.cartId) return { ok: false, errors: { form: "giftLists.errors.cartEmpty" } };
  const [updated] = await db
    .update(carts)
    .set({ giftGiverName: parsed.value.giverName, giftMessage: parsed.value.giftMessage || null })
    .where(and(eq(carts.id, args.cartId), sql`${carts.giftListId} is not null`))
    .returning({ id: carts.id });
  return updated ? { ok: true } : { ok: false, errors: { form: "giftLists.errors.cartEmpty" } };
}

/** The note kept on the cart, for the list page (and the checkout). */
export async function getCartGiftNote(
  db: Db,
  cartId: string | null,
): Promise<{ giftListId: string; giverName: string | null; giftMessage: string | null } | null> {
  if (!cartId) return null;
  const [row] = await db
    .select({ giftListId: carts.giftListId, giverName: carts.giftGiverName, giftMessage: carts.giftMessage })
    .from(carts)
    .where(and(eq(carts.id, cartId), isNotNull(carts.giftListId)));
  return row?.giftListId ? { giftListId: row.giftListId, giverName: row.giverName, giftMessage: row.giftMessage } : null;
}
