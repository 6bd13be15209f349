/**
 * The cart's use-cases: load the cart (locked), ask the pure rules of cart.ts what it becomes,
 * save the difference in the same transaction. Prices are never taken from outside: reading a
 * cart (cart-view.service.ts) recomputes them from the database.
 */
import crypto from "node:crypto";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { effectivePriceCents } from "#server/money.ts";
import { effectivePriceColumns, isOnRequestSql, isRecalledSql, variantStockSql } from "#server/catalog/product-card.ts";
import { cartLines, carts, cartVouchers, giftListItems, products, productVariants, type PersonalisationField } from "#server/db/schema.ts";
import {
  addAsMuchAsAllowed,
  addToCartRule,
  checkPersonalisation,
  clearCartRule,
  decreaseLineRule,
  increaseLineRule,
  removeLineRule,
  type Cart,
  type CartErrorCode,
  type ChangeOutcome,
  type GiftListRef,
  type SellableVariant,
} from "./cart";

type Tx = Db;

export type CartRefused = { ok: false; error: CartErrorCode; maxAddable?: number };

export type AddToCartResult =
  { ok: true; cartId: string; lineId: string; lineQuantity: number; warning: "preorder" | null; count: number } | CartRefused;

export type ChangeCartResult = { ok: true; cartId: string; change: "decreased" | "removed" | "cleared"; count: number } | CartRefused;

export type VariantFacts = SellableVariant & {
  productId: number;
  personalisationFields: PersonalisationField[] | null;
  /** Today's unit price (discount applied), the one the customer sees while adding. */
  unitCents: number;
};

/** What the rules need about each variant, by id (missing ids are absent from the map). */
export async function loadVariantFacts(db: Tx, variantIds: readonly number[], now = new Date()): Promise<Map<number, VariantFacts>> {
  const facts = new Map<number, VariantFacts>();
  if (variantIds.length === 0) return facts;
  const rows = await db
    .select({
      variantId: productVariants.id,
      productId: productVariants.productId,
      stock: variantStockSql(),
      isPreorder: productVariants.isPreorder,
      isPublished: products.isPublished,
      isOnRequest: isOnRequestSql(),
      isRecalled: isRecalledSql(),
      personalisationFields: products.personalisationFields,
      ...effectivePriceColumns,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.id, [...new Set(variantIds)]));
  for (const { priceCents, discountPercent, offerEndsAt, ...row } of rows) {
    facts.set(row.variantId, { ...row, unitCents: effectivePriceCents({ priceCents, discountPercent, offerEndsAt }, now) });
  }
  return facts;
}

type LoadedCart = Cart & { id: string; lineRows: Map<string, { personalisation: Record<string, string>; seenUnitCents: number | null }> };

/** The cart and its lines, its row locked until the transaction ends (adds to one cart queue up). */
async function loadCartForUpdate(tx: Tx, cartId: string): Promise<LoadedCart | null> {
  const [cart] = await tx.select({ id: carts.id, giftListId: carts.giftListId }).from(carts).where(eq(carts.id, cartId)).for("update");
  if (!cart) return null;
  const rows = await getStoredCartLines(tx, cartId);
  const [vouchers] = await tx.select({ count: count() }).from(cartVouchers).where(eq(cartVouchers.cartId, cartId));
  return {
    id: cart.id,
    giftListId: cart.giftListId,
    voucherCount: vouchers?.count ?? 0,
    lines: rows.map(({ personalisation: _, seenUnitCents: __, ...line }) => line),
    lineRows: new Map(rows.map((row) => [row.id, { personalisation: row.personalisation, seenUnitCents: row.seenUnitCents }])),
  };
}

function personalisationOfKey(key: string): Record<string, string> {
  return key === "" ? {} : Object.fromEntries(JSON.parse(key) as [string, string][]);
}

/**
 * Writes what changed between `before` and `after` (lines removed, quantities changed, lines added).
 * `seen`: the unit price the customer saw, by line id, for the lines they just added units to.
 */
async function saveCart(tx: Tx, cartId: string, before: Cart, after: Cart, seen: ReadonlyMap<string, number> = new Map()) {
  const afterById = new Map(after.lines.map((line) => [line.id, line]));
  const beforeById = new Map(before.lines.map((line) => [line.id, line]));
  const removed = before.lines.filter((line) => !afterById.has(line.id)).map((line) => line.id);
  if (removed.length > 0) await tx.delete(cartLines).where(and(eq(cartLines.cartId, cartId), inArray(cartLines.id, removed)));
  for (const line of after.lines) {
    const old = beforeById.get(line.id);
    if (old && old.quantity !== line.quantity) {
      const raised = line.quantity > old.quantity && seen.has(line.id);
      await tx
        .update(cartLines)
        .set(raised ? { quantity: line.quantity, seenUnitCents: seen.get(line.id) } : { quantity: line.quantity })
        .where(and(eq(cartLines.id, line.id), eq(cartLines.cartId, cartId)));
    } else if (!old) {
      await tx.insert(cartLines).values({
        id: line.id,
        cartId,
        variantId: line.variantId,
        quantity: line.quantity,
        personalisation: personalisationOfKey(line.personalisationKey),
        personalisationKey: line.personalisationKey,
        giftListItemId: line.giftListItemId,
        seenUnitCents: seen.get(line.id) ?? null,
      });
    }
  }
  await tx.update(carts).set({ giftListId: after.giftListId, updatedAt: new Date() }).where(eq(carts.id, cartId));
}

/** The header's count: units over every line, one per voucher line. */
const countOf = (cart: Cart) => cart.lines.reduce((sum, line) => sum + line.quantity, 0) + (cart.voucherCount ?? 0);

async function createCart(tx: Tx, userId: string | null = null): Promise<LoadedCart> {
  const [row] = await tx.insert(carts).values({ userId }).returning({ id: carts.id });
  return { id: row!.id, giftListId: null, lines: [], lineRows: new Map() };
}

/**
 * The cart a voucher line goes into (server/vouchers/), locked, made when `cartId` is null or gone: its gift list and
 * lines, for the mixing rule. `giftListId` is written when a fund contribution makes it that list's cart.
 */
export async function openCartForVoucher(tx: Tx, cartId: string | null): Promise<{ id: string; cart: Cart }> {
  const existing = cartId ? await loadCartForUpdate(tx, cartId) : null;
  const cart = existing ?? (await createCart(tx));
  return { id: cart.id, cart: { giftListId: cart.giftListId, lines: cart.lines, voucherCount: cart.voucherCount ?? 0 } };
}

/** A fund contribution makes the cart its list's (docs/rules.md#gift-list-mixing); the last voucher gone, an empty cart is nobody's. */
export async function setCartGiftList(tx: Tx, cartId: string, giftListId: string | null): Promise<void> {
  await tx.update(carts).set({ giftListId, updatedAt: new Date() }).where(eq(carts.id, cartId));
}

export type AddToCartArgs = {
  /** From the verified cookie; null or an id whose cart is gone: a new cart is made if the add succeeds. */
  cartId: string | null;
  variantId: number;
  quantity: number;
  /** Texts by field index ("0", "1", ...). */
  personalisation: Record<string, string>;
  /** Buying for a gift list (the gift-list issue passes it; the form does not). */
  giftListItemId?: string | null;
};

async function giftListRefOf(tx: Tx, giftListItemId: string, variantId: number): Promise<GiftListRef | null> {
  const [item] = await tx
    .select({ giftListId: giftListItems.giftListId, variantId: giftListItems.variantId })
    .from(giftListItems)
    .where(eq(giftListItems.id, giftListItemId));
  if (!item || item.variantId !== variantId) return null;
  return { giftListId: item.giftListId, giftListItemId };
}

/** docs/rules.md#cart: add a variant with every rule; refusals change nothing. */
export async function addToCart(db: Db, args: AddToCartArgs): Promise<AddToCartResult> {
  return db.transaction(async (tx) => {
    const variant = (await loadVariantFacts(tx, [args.variantId])).get(args.variantId);
    if (!variant) return { ok: false, error: "variant-not-found" };
    const checked = checkPersonalisation(variant.personalisationFields, args.personalisation);
    if (!checked.ok) return { ok: false, error: checked.error };
    let giftList: GiftListRef | null = null;
    if (args.giftListItemId) {
      giftList = await giftListRefOf(tx, args.giftListItemId, args.variantId);
      if (!giftList) return { ok: false, error: "gift-list-item-not-found" };
    }
    const existing = args.cartId ? await loadCartForUpdate(tx, args.cartId) : null;
    const before: Cart = existing ?? { giftListId: null, lines: [] };
    const outcome = addToCartRule(before, {
      variant,
      quantity: args.quantity,
      personalisationKey: checked.key,
      giftList,
      newLineId: crypto.randomUUID(),
    });
    if (!outcome.ok) return outcome;
    const cart = existing ?? (await createCart(tx));
    await saveCart(tx, cart.id, before, outcome.cart, new Map([[outcome.lineId, variant.unitCents]]));
    return {
      ok: true,
      cartId: cart.id,
      lineId: outcome.lineId,
      lineQuantity: outcome.lineQuantity,
      warning: outcome.warning,
      count: countOf(outcome.cart),
    };
  });
}

/** The "+" of a line's stepper: one more, with every add rule. */
export async function increaseCartLine(db: Db, args: { cartId: string | null; lineId: string }): Promise<AddToCartResult> {
  if (!args.cartId) return { ok: false, error: "line-not-found" };
  const cartId = args.cartId;
  return db.transaction(async (tx) => {
    const cart = await loadCartForUpdate(tx, cartId);
    const line = cart?.lines.find((candidate) => candidate.id === args.lineId);
    if (!cart || !line) return { ok: false, error: "line-not-found" };
    const variant = (await loadVariantFacts(tx, [line.variantId])).get(line.variantId);
    if (!variant) return { ok: false, error: "variant-not-found" };
    const outcome = increaseLineRule(cart, line.id, variant);
    if (!outcome.ok) return outcome;
    // The "+" is pressed on the cart page, beside today's price: that is the price seen now.
    await saveCart(tx, cart.id, cart, outcome.cart, new Map([[line.id, variant.unitCents]]));
    return { ok: true, cartId: cart.id, lineId: line.id, lineQuantity: outcome.lineQuantity, warning: outcome.warning, count: countOf(outcome.cart) };
  });
}

async function changeCart(db: Db, cartId: string | null, rule: (cart: Cart) => ChangeOutcome): Promise<ChangeCartResult> {
  if (!cartId) return rule({ giftListId: null, lines: [] }) as CartRefused;
  return db.transaction(async (tx) => {
    const cart = (await loadCartForUpdate(tx, cartId)) ?? { id: cartId, giftListId: null, lines: [] };
    const outcome = rule(cart);
    if (!outcome.ok) return outcome;
    await saveCart(tx, cartId, cart, outcome.cart);
    return { ok: true, cartId, change: outcome.change, count: countOf(outcome.cart) };
  });
}

/** docs/rules.md#cart-lines: at quantity 1 the line goes, else one less. */
export function decreaseCartLine(db: Db, args: { cartId: string | null; lineId: string }): Promise<ChangeCartResult> {
  return changeCart(db, args.cartId, (cart) => decreaseLineRule(cart, args.lineId));
}

export function removeCartLine(db: Db, args: { cartId: string | null; lineId: string }): Promise<ChangeCartResult> {
  return changeCart(db, args.cartId, (cart) => removeLineRule(cart, args.lineId));
}

export function clearCart(db: Db, args: { cartId: string | null }): Promise<ChangeCartResult> {
  return changeCart(db, args.cartId, clearCartRule);
}

// ---------------------------------------------------------------- merging lines from elsewhere

/** A line coming from another cart or a saved basket. */
export type IncomingLine = {
  variantId: number;
  quantity: number;
  personalisation: Record<string, string>;
  giftList: GiftListRef | null;
  /** The price its customer saw when adding it (a cart merged at login); today's price when absent. */
  seenUnitCents?: number | null;
};

/** How each incoming line fared: `added` units (0 when refused), the reason when not all were added. */
export type MergedLine = { variantId: number; wanted: number; added: number; error: CartErrorCode | null };

/**
 * Adds lines one by one with every rule (stock caps, personalisation, mixing): what fits is added,
 * the rest is reported. Runs in the caller's transaction on a locked cart.
 */
async function addIncomingLines(tx: Tx, cart: LoadedCart, incoming: readonly IncomingLine[]) {
  const facts = await loadVariantFacts(
    tx,
    incoming.map((line) => line.variantId),
  );
  let current: Cart = cart;
  const report: MergedLine[] = [];
  const seen = new Map<string, number>();
  for (const line of incoming) {
    const variant = facts.get(line.variantId);
    if (!variant) {
      report.push({ variantId: line.variantId, wanted: line.quantity, added: 0, error: "variant-not-found" });
      continue;
    }
    const checked = checkPersonalisation(variant.personalisationFields, line.personalisation);
    if (!checked.ok) {
      report.push({ variantId: line.variantId, wanted: line.quantity, added: 0, error: checked.error });
      continue;
    }
    const { outcome, added, reduced } = addAsMuchAsAllowed(current, {
      variant,
      quantity: line.quantity,
      personalisationKey: checked.key,
      giftList: line.giftList,
      newLineId: crypto.randomUUID(),
    });
    if (outcome.ok) {
      current = outcome.cart;
      seen.set(outcome.lineId, line.seenUnitCents ?? variant.unitCents);
    }
    const error = outcome.ok ? (reduced ? "stock-exceeded" : null) : outcome.error;
    report.push({ variantId: line.variantId, wanted: line.quantity, added, error });
  }
  await saveCart(tx, cart.id, cart, current, seen);
  return { report, count: countOf(current) };
}

export type CopyLinesResult = { cartId: string; lines: MergedLine[]; count: number };

/** Copies lines (e.g. of a saved basket) into the visitor's cart, made if there is none. */
export async function addLinesToCart(db: Db, args: { cartId: string | null; lines: readonly IncomingLine[] }): Promise<CopyLinesResult> {
  return db.transaction(async (tx) => {
    const cart = (args.cartId ? await loadCartForUpdate(tx, args.cartId) : null) ?? (await createCart(tx));
    const { report, count } = await addIncomingLines(tx, cart, args.lines);
    return { cartId: cart.id, lines: report, count };
  });
}

/** The cart of a signed-in customer, if they have one. */
export async function findCartIdOfUser(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
  return row?.id ?? null;
}

export type MergeCartsResult = {
  /** The account's cart: the id the cart cookie must carry from now on. */
  cartId: string | null;
  lines: MergedLine[];
};

/**
 * On login (the accounts issue calls this): the anonymous cart `fromCartId` merges into the account's
 * cart with every rule applied. Without an account cart the anonymous one simply becomes it. On a
 * mixing conflict the account's lines are kept and the refused ones reported. The anonymous cart is
 * deleted afterwards.
 */
export async function mergeCarts(db: Db, args: { fromCartId: string | null; toUserId: string }): Promise<MergeCartsResult> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, args.toUserId)).for("update");
    const from = args.fromCartId ? await loadCartForUpdate(tx, args.fromCartId) : null;
    if (!from || from.id === target?.id) return { cartId: target?.id ?? null, lines: [] };
    const [owner] = await tx.select({ userId: carts.userId }).from(carts).where(eq(carts.id, from.id));
    // Someone else's cart is never taken over, even with a valid cookie.
    if (owner?.userId && owner.userId !== args.toUserId) return { cartId: target?.id ?? null, lines: [] };
    if (!target) {
      await tx.update(carts).set({ userId: args.toUserId, updatedAt: new Date() }).where(eq(carts.id, from.id));
      const lines = from.lines.map((line) => ({ variantId: line.variantId, wanted: line.quantity, added: line.quantity, error: null }));
      return { cartId: from.id, lines };
    }
    const cart = (await loadCartForUpdate(tx, target.id))!;
    const incoming: IncomingLine[] = from.lines.map((line) => ({
      variantId: line.variantId,
      quantity: line.quantity,
      personalisation: from.lineRows.get(line.id)?.personalisation ?? {},
      seenUnitCents: from.lineRows.get(line.id)?.seenUnitCents,
      giftList: line.giftListItemId && from.giftListId ? { giftListId: from.giftListId, giftListItemId: line.giftListItemId } : null,
    }));
    const { report } = await addIncomingLines(tx, cart, incoming);
    await tx.delete(carts).where(eq(carts.id, from.id));
    return { cartId: cart.id, lines: report };
  });
}

/** The cart's lines as stored, in the order they were added. */
export async function getStoredCartLines(db: Db, cartId: string) {
  return db
    .select({
      id: cartLines.id,
      variantId: cartLines.variantId,
      quantity: cartLines.quantity,
      personalisationKey: cartLines.personalisationKey,
      personalisation: cartLines.personalisation,
      giftListItemId: cartLines.giftListItemId,
      seenUnitCents: cartLines.seenUnitCents,
    })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id));
}
