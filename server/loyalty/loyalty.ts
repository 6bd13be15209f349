/**
 * The loyalty card's rules, pure: its number, the points an amount earns, the steps a balance can redeem
 * on an order, and when points expire (docs/decisions/0099-loyalty-card.md). No db, env or clock.
 */
import { addDays, endOfItalianDay, italianDayOf } from "#common/shop-calendar.ts";
import { splitInProportion, type Cents } from "#server/money.ts";
import type { LoyaltySettings } from "#server/settings/settings.ts";

/** Every expected refusal of the card's use-cases; each code is also the message key `loyalty.errors.<code>`. */
export type LoyaltyError =
  | "no-card"
  | "already-joined"
  | "consent-needed"
  | "not-enough-points"
  | "not-a-step"
  | "too-many-points"
  | "receipt-already-counted"
  | "nothing-to-earn"
  | "card-not-found";

const cardPrefix = "27";

/** The Luhn check digit of `digits` (the one payment cards use: any single mistyped digit is caught). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** The card's printed number: "27", nine digits of its sequence, a check digit (12 digits, Code 128 C). */
export function cardNumberOf(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence >= 1e9) throw new RangeError("card sequence out of range");
  const body = `${cardPrefix}${String(sequence).padStart(9, "0")}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** Spaces and dashes as printed or typed are ignored; null when it is not a card number. */
export function normaliseCardNumber(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, "");
  if (!/^[0-9]{12}$/.test(digits) || !digits.startsWith(cardPrefix)) return null;
  return luhnCheckDigit(digits.slice(0, 11)) === Number(digits[11]) ? digits : null;
}

/** Points for goods worth `cents` (whole euros only: 9,99 € at 1 point a euro earns 9). */
export function pointsFor(cents: Cents, pointsPerEuro: number): number {
  if (cents <= 0) return 0;
  return Math.floor((cents * pointsPerEuro) / 100);
}

/** Points credited for an order, less what refunds gave back, in proportion (a refund of half the goods takes half). */
export function pointsDue(earnedOnPaidCents: Cents, refundedCents: Cents, pointsPerEuro: number): number {
  return pointsFor(Math.max(0, earnedOnPaidCents - refundedCents), pointsPerEuro);
}

export type LoyaltyLine = { cents: Cents; isExcluded: boolean };

/** The most steps a card can spend on an order: its balance, and never more than the goods the discount may go on. */
export function redeemableSteps(balance: number, lines: readonly LoyaltyLine[], settings: Pick<LoyaltySettings, "stepPoints" | "stepCents">): number {
  const eligibleCents = lines.reduce((sum, line) => sum + (line.isExcluded ? 0 : Math.max(0, line.cents)), 0);
  return Math.max(0, Math.min(Math.floor(balance / settings.stepPoints), Math.floor(eligibleCents / settings.stepCents)));
}

export type Redemption = { points: number; discountCents: Cents; perLineCents: Cents[] };

/**
 * `points` asked for an order: whole steps, within what the card and the lines allow. The discount is shared
 * over the lines the points may pay for, in proportion to what each still costs (as a discount code's saving).
 */
export function redeemPoints(
  points: number,
  balance: number,
  lines: readonly LoyaltyLine[],
  settings: Pick<LoyaltySettings, "stepPoints" | "stepCents">,
): { ok: true; redemption: Redemption } | { ok: false; error: LoyaltyError } {
  if (!Number.isSafeInteger(points) || points < 0 || points % settings.stepPoints !== 0) return { ok: false, error: "not-a-step" };
  if (points > balance) return { ok: false, error: "not-enough-points" };
  const steps = points / settings.stepPoints;
  if (steps > redeemableSteps(balance, lines, settings)) return { ok: false, error: "too-many-points" };
  const discountCents = steps * settings.stepCents;
  const weights = lines.map((line) => (line.isExcluded ? 0 : Math.max(0, line.cents)));
  const perLineCents = discountCents === 0 ? lines.map(() => 0) : splitInProportion(discountCents, weights);
  return { ok: true, redemption: { points, discountCents, perLineCents } };
}

/**
 * Points earned on `now` expire at the end of the last day of the month `months` later, Italian time: one
 * expiry a month, so the statement mail gathers a month's points in one message.
 */
export function expiryOf(now: Date, months: number): Date {
  const [year, month] = italianDayOf(now).split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months + 1;
  const firstOfNext = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-01`;
  return endOfItalianDay(addDays(firstOfNext, -1));
}
