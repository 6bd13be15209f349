/**
 * Gift cards' own rules, pure: no db, env or clock (docs/decisions/0097-gift-cards.md). A code is 15
 * random characters of Crockford's base 32 (75 bits) and one Luhn mod 32 check character, shown in four
 * groups of four: a typo is caught before any lookup, and guessing a live code is hopeless.
 */
import { createHash, randomInt } from "node:crypto";

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const randomLength = 15;

/** Every expected refusal about a card; each is also the message key `giftCards.errors.<code>`. */
export type GiftCardErrorCode = "invalid-code" | "not-found" | "expired" | "inactive" | "empty" | "throttled" | "balance-changed";

/** Amounts the staff may issue at the counter and a buyer may choose: from 5 € to 500 €. */
export const giftCardLimits = { minCents: 500, maxCents: 50_000 } as const;

/** How long a card is valid unless the staff say otherwise (decision 0097): two years. */
export const defaultValidityMonths = 24;

function checkCharacterOf(body: string): string {
  // Luhn mod N: doubles every second value from the right, so a single wrong character or two swapped neighbours change it.
  let sum = 0;
  let double = true;
  for (let index = body.length - 1; index >= 0; index -= 1) {
    let value = alphabet.indexOf(body[index]!);
    if (double) {
      value *= 2;
      value = Math.floor(value / alphabet.length) + (value % alphabet.length);
    }
    sum += value;
    double = !double;
  }
  return alphabet[(alphabet.length - (sum % alphabet.length)) % alphabet.length]!;
}

/** A new code, grouped for reading ("7KQ2-M9XD-4TRB-HW3C"). */
export function newGiftCardCode(): string {
  let body = "";
  for (let index = 0; index < randomLength; index += 1) body += alphabet[randomInt(alphabet.length)];
  return groupCode(body + checkCharacterOf(body));
}

/**
 * A code made from 15 bytes of a secret's HMAC instead of chance (a card bought online: its print page and mail
 * make it again from the order line, so only the hash is stored). Each byte gives one character: 256 is a
 * multiple of 32, so every character is equally likely.
 */
export function giftCardCodeFromSeed(seed: Uint8Array): string {
  if (seed.length < randomLength) throw new Error("giftCardCodeFromSeed: the seed needs 15 bytes");
  let body = "";
  for (let index = 0; index < randomLength; index += 1) body += alphabet[seed[index]! % alphabet.length];
  return groupCode(body + checkCharacterOf(body));
}

function groupCode(code: string): string {
  return code.match(/.{1,4}/g)!.join("-");
}

/**
 * The code as typed, in canonical form (upper case, spaces and dashes dropped, O read as 0, I and L as 1),
 * or null when it cannot be a card's: wrong length, a character outside the alphabet, or a wrong check character.
 */
export function normaliseGiftCardCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== randomLength + 1 || [...code].some((char) => !alphabet.includes(char))) return null;
  return checkCharacterOf(code.slice(0, randomLength)) === code.slice(randomLength) ? code : null;
}

/** What the database keeps of a code: its SHA-256 (the code itself is never stored). */
export function giftCardCodeHash(normalisedCode: string): string {
  return createHash("sha256").update(`gift-card:${normalisedCode}`).digest("hex");
}

/** The last four characters, to tell cards apart without the code. */
export function giftCardCodeTail(normalisedCode: string): string {
  return normalisedCode.slice(-4);
}

/** The expiry `months` after `from`, at the same instant (a 31st becomes the month's last day). */
export function giftCardExpiry(from: Date, months: number): Date {
  const expiry = new Date(from);
  const day = expiry.getUTCDate();
  expiry.setUTCDate(1);
  expiry.setUTCMonth(expiry.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(expiry.getUTCFullYear(), expiry.getUTCMonth() + 1, 0)).getUTCDate();
  expiry.setUTCDate(Math.min(day, lastDay));
  return expiry;
}

/** What a card pays of `dueCents`: all of it when the balance is enough, else the whole balance. */
export function giftCardShare(balanceCents: number, dueCents: number): number {
  return Math.max(0, Math.min(balanceCents, dueCents));
}
