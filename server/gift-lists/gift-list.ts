/**
 * The gift lists' rules (docs/rules.md#gift-lists), pure: no db, env, clock or randomness. The
 * services load rows, ask these functions and save.
 */
import { addDays, italianDayOf } from "#common/shop-calendar.ts";

export const giftListTypes = ["nascita", "compleanno", "battesimo"] as const;
export type GiftListType = (typeof giftListTypes)[number];

export const giftListVisibilities = ["public", "code_only"] as const;
export type GiftListVisibility = (typeof giftListVisibilities)[number];

/** Every expected refusal; each code is also the message key `giftLists.errors.<code>`. */
export type GiftListErrorCode =
  | "not-found"
  | "invalid-code"
  | "throttled"
  | "has-purchases"
  | "closed"
  | "variant-not-found"
  | "not-for-sale"
  | "quantity-invalid"
  | "below-bought"
  | "above-still-needed"
  | "personalisation-missing"
  | "personalisation-unknown-field"
  | "personalisation-too-long"
  | "address-not-found"
  // group gifting (gift-list-group.ts)
  | "group-gift-off"
  | "group-gift-only"
  | "group-gift-nothing-needed"
  | "group-gift-busy"
  | "group-gift-full"
  | "group-gift-amount-below-minimum"
  | "group-gift-amount-above-left"
  | "group-gift-no-cards";

// ---------------------------------------------------------------- codes

/** The alphabet of the schema's CHECK (gift_lists_code_format): no 0/O, 1/I/L look-alikes. */
export const giftListCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const giftListCodeLength = 8;
const codePattern = /^[A-HJ-KM-NP-Z2-9]{8}$/;

/** A new code; `randomIndex(n)` returns a whole number in [0, n) (crypto.randomInt in the service). */
export function generateGiftListCode(randomIndex: (size: number) => number): string {
  let code = "";
  for (let index = 0; index < giftListCodeLength; index++) code += giftListCodeAlphabet[randomIndex(giftListCodeAlphabet.length)];
  return code;
}

/**
 * A code as a guest types it ("ab cd-efgh", lower case, spaces or dashes) in its stored form, or null
 * when it cannot be a code (then nothing is looked up).
 */
export function normaliseGiftListCode(typed: string): string | null {
  if (typed.length > 40) return null;
  const code = typed.toUpperCase().replace(/[\s-]+/g, "");
  return codePattern.test(code) ? code : null;
}

// ---------------------------------------------------------------- search by name

/** Lower case, accents folded, inner spaces collapsed: what a name search compares. */
export function normaliseSearchName(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The words a name search must all find (docs/rules.md#gift-lists: all words must match); at most 6. */
export function searchWordsOf(text: string): string[] {
  return [...new Set(normaliseSearchName(text).split(" "))].filter((word) => word.length >= 2).slice(0, 6);
}

/** A word inside an ILIKE pattern, its wildcards taken literally. */
export function escapeLikePattern(word: string): string {
  return word.replace(/[\\%_]/g, (char) => `\\${char}`);
}

// ---------------------------------------------------------------- quantities

/** Units nobody has bought yet. */
export function stillNeeded(item: { quantityWished: number; quantityBought: number }): number {
  return Math.max(0, item.quantityWished - item.quantityBought);
}

/** At most this many units of one item on a list. */
export const maxWishedQuantity = 99;

/**
 * What a guest may put in the cart for one list item: still needed, minus what the cart already holds
 * for it, within today's stock.
 */
export function maxGuestQuantity(args: { stillNeeded: number; inCart: number; stock: number }): number {
  return Math.max(0, Math.min(args.stillNeeded - args.inCart, args.stock - args.inCart));
}

// ---------------------------------------------------------------- dates

/** A pre-order bought today arrives after `preorderDays`: a warning when that is after the event. */
export function arrivesAfterEvent(variant: { isPreorder: boolean; preorderDays: number | null }, eventDate: string, now: Date): boolean {
  if (!variant.isPreorder) return false;
  return addDays(italianDayOf(now), variant.preorderDays ?? 0) > eventDate;
}

/** The event date of a new list may be today or later (Italian calendar). */
export function isEventDateAllowed(eventDate: string, now: Date): boolean {
  return eventDate >= italianDayOf(now);
}

// ---------------------------------------------------------------- ownership

export function isGiftListOwner(list: { ownerUserId: string }, userId: string | null | undefined): boolean {
  return typeof userId === "string" && userId.length > 0 && list.ownerUserId === userId;
}

/** Deleting is refused once someone bought from the list: then it can only be closed. */
export function canDeleteGiftList(items: readonly { quantityBought: number }[], purchaseCount: number): boolean {
  return purchaseCount === 0 && items.every((item) => item.quantityBought === 0);
}

// ---------------------------------------------------------------- invitations

/** At most this many addresses per send. */
export const maxInvitationsPerSend = 50;

/** The addresses of an invitation form: separated by commas, semicolons, spaces or new lines. */
export function splitEmailList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
