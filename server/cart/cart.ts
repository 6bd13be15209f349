/**
 * The cart's rules (docs/rules.md#cart), pure: no db, env,
 * clock or randomness. The service loads rows, asks these functions what the cart becomes and saves it.
 */
import type { PersonalisationField } from "#server/db/schema.ts";
import { sumCents, timesQuantity, type Cents } from "#server/money.ts";

/** Every expected refusal; each code is also the message key `cart.errors.<code>`. */
export type CartErrorCode =
  | "invalid-request"
  | "variant-not-found"
  | "quantity-invalid"
  | "unavailable"
  | "on-request"
  | "recalled"
  | "out-of-stock"
  | "stock-in-cart"
  | "stock-exceeded"
  | "personalisation-missing"
  | "personalisation-unknown-field"
  | "personalisation-too-long"
  | "gift-list-conflict-ordinary"
  | "gift-list-conflict-other-list"
  | "gift-list-conflict-gift-list"
  | "gift-list-item-not-found"
  | "line-not-found"
  | "cart-empty";

/** Refusals that stay on screen until dismissed (docs/rules.md#gift-list-mixing). */
export const persistentCartErrors: ReadonlySet<CartErrorCode> = new Set([
  "gift-list-conflict-ordinary",
  "gift-list-conflict-other-list",
  "gift-list-conflict-gift-list",
]);

/** Refusals caused by the cart's state (HTTP 409) rather than by a malformed request (HTTP 400). */
export const conflictCartErrors: ReadonlySet<CartErrorCode> = new Set([
  "unavailable",
  "on-request",
  "recalled",
  "out-of-stock",
  "stock-in-cart",
  "stock-exceeded",
  "gift-list-conflict-ordinary",
  "gift-list-conflict-other-list",
  "gift-list-conflict-gift-list",
  "line-not-found",
  "cart-empty",
]);

export type CartLine = {
  id: string;
  variantId: number;
  quantity: number;
  /** Canonical personalisation (see personalisationKeyOf); "" when not personalised. */
  personalisationKey: string;
  giftListItemId: string | null;
};

/**
 * A cart holds ordinary lines, or lines of the one gift list `giftListId`: never a mix. `voucherCount`: its
 * voucher lines (server/vouchers/), which count for the mixing rule like lines (a fund contribution belongs to its list).
 */
export type Cart = { giftListId: string | null; lines: readonly CartLine[]; voucherCount?: number };

export const emptyCart: Cart = { giftListId: null, lines: [] };

/** What the rules need to know about the variant being added. */
export type SellableVariant = {
  variantId: number;
  stock: number;
  isPreorder: boolean;
  /** On-request products (docs/rules.md#product-page) can never be added. */
  isOnRequest: boolean;
  isPublished: boolean;
  /** Recalled for safety (GPSR article 36): never sold again (server/product-safety/recall.service.ts). */
  isRecalled: boolean;
};

export type GiftListRef = { giftListId: string; giftListItemId: string };

export type AddRequest = {
  variant: SellableVariant;
  quantity: number;
  personalisationKey: string;
  giftList: GiftListRef | null;
  /** The id the line gets if a new one is made (the service draws it). */
  newLineId: string;
};

export type CartRefusal = { ok: false; error: CartErrorCode; /** Units that could still be added. */ maxAddable?: number };

export type AddOutcome = { ok: true; cart: Cart; lineId: string; lineQuantity: number; created: boolean; warning: "preorder" | null } | CartRefusal;

export type ChangeOutcome = { ok: true; cart: Cart; change: "decreased" | "removed" | "cleared" } | CartRefusal;

// ---------------------------------------------------------------- quantities

/** The largest quantity one add may ask for; anything above is refused as stock exceeded or invalid. */
export const maxQuantityPerAdd = 2_147_483_647;

export function isValidQuantity(quantity: number): boolean {
  return Number.isSafeInteger(quantity) && quantity >= 1 && quantity <= maxQuantityPerAdd;
}

/** Units of `variantId` the cart holds over all its lines (other personalisations share the stock). */
export function quantityInCart(cart: Cart, variantId: number): number {
  return cart.lines.filter((line) => line.variantId === variantId).reduce((sum, line) => sum + line.quantity, 0);
}

/** docs/rules.md#cart-limits: stock minus what the cart already holds, never below 0. */
export function maxAddable(cart: Cart, variant: Pick<SellableVariant, "variantId" | "stock">): number {
  return Math.max(0, variant.stock - quantityInCart(cart, variant.variantId));
}

/** The sale rule, the one place it is written: published, not on request, not recalled. The cart, checkout and gift lists ask it. */
export function isForSale(variant: Pick<SellableVariant, "isPublished" | "isOnRequest" | "isRecalled">): boolean {
  return variant.isPublished && !variant.isOnRequest && !variant.isRecalled;
}

/** Adding is disabled when the cart holds the stock or more (or the product is not for sale). */
export function canAdd(cart: Cart, variant: SellableVariant): boolean {
  return isForSale(variant) && maxAddable(cart, variant) > 0;
}

// ---------------------------------------------------------------- personalisation

export type PersonalisationCheck =
  | { ok: true; personalisation: Record<string, string>; key: string }
  | { ok: false; error: "personalisation-missing" | "personalisation-unknown-field" | "personalisation-too-long" };

/** One canonical text per personalisation, so equal ones merge into one line. */
export function personalisationKeyOf(personalisation: Record<string, string>): string {
  const entries = Object.entries(personalisation).sort(([a], [b]) => Number(a) - Number(b));
  return entries.length === 0 ? "" : JSON.stringify(entries);
}

/**
 * Texts by field index ("0", "1", ...) against the product's fields. A product without fields takes
 * none; a personalisable one needs every field non-empty ('Personalizzazione non inserita! ') and
 * within its maxLength. Texts are trimmed.
 */
export function checkPersonalisation(fields: readonly PersonalisationField[] | null, texts: Readonly<Record<string, string>>): PersonalisationCheck {
  const count = fields?.length ?? 0;
  const indexOf = (key: string) => (/^(0|[1-9][0-9]{0,3})$/.test(key) ? Number(key) : -1);
  for (const key of Object.keys(texts)) {
    const index = indexOf(key);
    if (index < 0 || index >= count) return { ok: false, error: "personalisation-unknown-field" };
  }
  const personalisation: Record<string, string> = {};
  for (let index = 0; index < count; index++) {
    const text = (texts[String(index)] ?? "").trim();
    if (text.length > fields![index]!.maxLength) return { ok: false, error: "personalisation-too-long" };
    personalisation[String(index)] = text;
  }
  if (Object.values(personalisation).some((text) => text === "")) return { ok: false, error: "personalisation-missing" };
  return { ok: true, personalisation, key: personalisationKeyOf(personalisation) };
}

// ---------------------------------------------------------------- gift-list mixing

/**
 * docs/rules.md#gift-list-mixing: ordinary items or items of one single gift list, never a mix.
 * `giftListId` is the list of the item being added, null for an ordinary item.
 */
export function mixingConflict(
  cart: Cart,
  giftListId: string | null,
): "gift-list-conflict-ordinary" | "gift-list-conflict-other-list" | "gift-list-conflict-gift-list" | null {
  if (cart.lines.length === 0 && !cart.voucherCount) return null;
  if (giftListId === null) return cart.giftListId === null ? null : "gift-list-conflict-gift-list";
  if (cart.giftListId === null) return "gift-list-conflict-ordinary";
  return cart.giftListId === giftListId ? null : "gift-list-conflict-other-list";
}

// ---------------------------------------------------------------- operations

function sameMergeKey(line: CartLine, variantId: number, personalisationKey: string, giftListItemId: string | null) {
  return line.variantId === variantId && line.personalisationKey === personalisationKey && line.giftListItemId === giftListItemId;
}

function withLines(cart: Cart, lines: readonly CartLine[], giftListId = cart.giftListId): Cart {
  return { giftListId: lines.length === 0 && !cart.voucherCount ? null : giftListId, lines, voucherCount: cart.voucherCount };
}

/**
 * docs/rules.md#cart-lines: the same variant (product, colour, size) with the same personalisation (and gift-list
 * item) raises that line's quantity; anything else is a new line. Every rule is checked first.
 */
export function addToCartRule(cart: Cart, request: AddRequest): AddOutcome {
  const { variant, quantity, personalisationKey, giftList } = request;
  if (!isValidQuantity(quantity)) return { ok: false, error: "quantity-invalid" };
  if (!variant.isPublished) return { ok: false, error: "unavailable" };
  if (variant.isOnRequest) return { ok: false, error: "on-request" };
  if (variant.isRecalled) return { ok: false, error: "recalled" };
  const conflict = mixingConflict(cart, giftList?.giftListId ?? null);
  if (conflict) return { ok: false, error: conflict };
  if (variant.stock <= 0) return { ok: false, error: "out-of-stock", maxAddable: 0 };
  const room = maxAddable(cart, variant);
  if (room === 0) return { ok: false, error: "stock-in-cart", maxAddable: 0 };
  if (quantity > room) return { ok: false, error: "stock-exceeded", maxAddable: room };

  const giftListItemId = giftList?.giftListItemId ?? null;
  const warning = variant.isPreorder ? "preorder" : null;
  const existing = cart.lines.find((line) => sameMergeKey(line, variant.variantId, personalisationKey, giftListItemId));
  if (existing) {
    const lineQuantity = existing.quantity + quantity;
    const lines = cart.lines.map((line) => (line === existing ? { ...line, quantity: lineQuantity } : line));
    return { ok: true, cart: withLines(cart, lines), lineId: existing.id, lineQuantity, created: false, warning };
  }
  const line: CartLine = { id: request.newLineId, variantId: variant.variantId, quantity, personalisationKey, giftListItemId };
  const giftListId = giftList?.giftListId ?? null;
  return { ok: true, cart: withLines(cart, [...cart.lines, line], giftListId), lineId: line.id, lineQuantity: quantity, created: true, warning };
}

/** One more of an existing line, with every add rule. */
export function increaseLineRule(cart: Cart, lineId: string, variant: SellableVariant): AddOutcome {
  const line = cart.lines.find((candidate) => candidate.id === lineId);
  if (!line || line.variantId !== variant.variantId) return { ok: false, error: "line-not-found" };
  // The line's own gift list is the cart's, so mixing cannot refuse it.
  const giftList = line.giftListItemId && cart.giftListId ? { giftListId: cart.giftListId, giftListItemId: line.giftListItemId } : null;
  return addToCartRule(cart, { variant, quantity: 1, personalisationKey: line.personalisationKey, giftList, newLineId: line.id });
}

/** docs/rules.md#cart-lines: at quantity 1 the line is removed, else its quantity drops by 1. */
export function decreaseLineRule(cart: Cart, lineId: string): ChangeOutcome {
  const line = cart.lines.find((candidate) => candidate.id === lineId);
  if (!line) return { ok: false, error: "line-not-found" };
  if (line.quantity <= 1)
    return {
      ok: true,
      cart: withLines(
        cart,
        cart.lines.filter((other) => other !== line),
      ),
      change: "removed",
    };
  const lines = cart.lines.map((other) => (other === line ? { ...other, quantity: other.quantity - 1 } : other));
  return { ok: true, cart: withLines(cart, lines), change: "decreased" };
}

export function removeLineRule(cart: Cart, lineId: string): ChangeOutcome {
  if (!cart.lines.some((line) => line.id === lineId)) return { ok: false, error: "line-not-found" };
  return {
    ok: true,
    cart: withLines(
      cart,
      cart.lines.filter((line) => line.id !== lineId),
    ),
    change: "removed",
  };
}

export function clearCartRule(cart: Cart): ChangeOutcome {
  if (cart.lines.length === 0) return { ok: false, error: "cart-empty" };
  return { ok: true, cart: emptyCart, change: "cleared" };
}

/**
 * Merging another cart's line or a saved basket's line: as much as the rules allow. A line that
 * would exceed the stock is added up to it and reported as reduced; a refused one is reported.
 */
export function addAsMuchAsAllowed(cart: Cart, request: AddRequest): { outcome: AddOutcome; added: number; reduced: boolean } {
  const first = addToCartRule(cart, request);
  if (first.ok) return { outcome: first, added: request.quantity, reduced: false };
  if (first.error !== "stock-exceeded" || !first.maxAddable) return { outcome: first, added: 0, reduced: false };
  const fitted = addToCartRule(cart, { ...request, quantity: first.maxAddable });
  return { outcome: fitted, added: fitted.ok ? first.maxAddable : 0, reduced: fitted.ok };
}

// ---------------------------------------------------------------- reading a cart: availability, prices, totals

export type LineStatus = "ok" | "reduced" | "out-of-stock" | "unavailable";

/**
 * What each line can still be bought in, given today's stock: lines of one variant share its stock,
 * in the order they were added. Nothing is changed; the page says so and checkout refuses the rest.
 */
export function lineAvailability(
  lines: readonly { id: string; variantId: number; quantity: number; isForSale: boolean }[],
  stockOf: (variantId: number) => number,
): Map<string, { payableQuantity: number; status: LineStatus }> {
  const left = new Map<number, number>();
  const result = new Map<string, { payableQuantity: number; status: LineStatus }>();
  for (const line of lines) {
    if (!line.isForSale) {
      result.set(line.id, { payableQuantity: 0, status: "unavailable" });
      continue;
    }
    const remaining = left.get(line.variantId) ?? Math.max(0, stockOf(line.variantId));
    const payableQuantity = Math.min(line.quantity, remaining);
    left.set(line.variantId, remaining - payableQuantity);
    const status: LineStatus = payableQuantity === line.quantity ? "ok" : payableQuantity === 0 ? "out-of-stock" : "reduced";
    result.set(line.id, { payableQuantity, status });
  }
  return result;
}

/**
 * The unit price to show as "was" on a line: the one the customer saw when adding (stored on the line)
 * when today's differs, up or down; null when it is the same or was never stored.
 */
export function previousUnitPrice(seenUnitCents: Cents | null, todayUnitCents: Cents): Cents | null {
  return seenUnitCents !== null && seenUnitCents !== todayUnitCents ? seenUnitCents : null;
}

export type PricedLine = {
  listUnitCents: Cents;
  unitCents: Cents;
  personalisationUnitCents: Cents;
  quantity: number;
};

export type CartTotals = {
  /** List prices times quantities. */
  subtotalCents: Cents;
  /** What the products' discounts take off (positive). */
  discountCents: Cents;
  personalisationCents: Cents;
  totalCents: Cents;
};

/** One line's total: (unit price + personalisation per item) x quantity. */
export function lineTotalCents(line: Pick<PricedLine, "unitCents" | "personalisationUnitCents">, quantity: number): Cents {
  return timesQuantity(line.unitCents + line.personalisationUnitCents, quantity);
}

/**
 * The cart's totals over its quantities, at today's prices. Lines with a problem (out of stock, ...)
 * still count: the page flags them and checkout waits until they are fixed.
 */
export function cartTotals(lines: readonly PricedLine[]): CartTotals {
  const subtotalCents = sumCents(lines.map((line) => timesQuantity(line.listUnitCents, line.quantity)));
  const paidCents = sumCents(lines.map((line) => timesQuantity(line.unitCents, line.quantity)));
  const personalisationCents = sumCents(lines.map((line) => timesQuantity(line.personalisationUnitCents, line.quantity)));
  return {
    subtotalCents,
    discountCents: subtotalCents - paidCents,
    personalisationCents,
    totalCents: paidCents + personalisationCents,
  };
}
