/**
 * Voucher lines' own rules, pure: no db, env or clock (docs/decisions/0106-voucher-lines.md). A voucher line
 * is a gift card bought online or a contribution to a gift list's cash fund: no variant, no stock, no VAT,
 * quantity 1; its amount is inside the order's total and outside its goods, invoice and takings.
 */
import { sumCents, type Cents } from "#server/money.ts";
import type { GiftCardSalesSettings } from "#server/settings/settings.ts";

export type VoucherKind = "gift_card" | "fund_contribution";

/** Every expected refusal of a voucher line; each is also the message key `vouchers.errors.<code>`. */
export type VoucherErrorCode =
  | "amount-out-of-range"
  | "deliver-day-out-of-range"
  | "fund-not-found"
  | "voucher-not-found"
  | "too-many-vouchers"
  | "gift-list-conflict-ordinary"
  | "gift-list-conflict-other-list"
  | "gift-list-conflict-gift-list";

/** A contribution to a fund starts at 5 € (the gift cards' own minimum) and stops at their maximum. */
export const fundContributionLimits = { minCents: 500, maxCents: 50_000 } as const;

/** A cart holds at most this many voucher lines (each card is its own line). */
export const maxVouchersPerCart = 10;

/** How far ahead a card's mail may be planned: from today to one year on. */
export function deliverDayRange(today: string): { first: string; last: string } {
  const nextYear = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
  // 29 February has no twin next year: the day before 1 March.
  return { first: today, last: nextYear.endsWith("-02-29") ? `${nextYear.slice(0, 8)}28` : nextYear };
}

export function isDeliverDayAllowed(day: string, today: string): boolean {
  const { first, last } = deliverDayRange(today);
  return day >= first && day <= last;
}

/** Whether a free amount is one the shop sells (a preset is always within them). */
export function isGiftCardAmountAllowed(amountCents: Cents, settings: Pick<GiftCardSalesSettings, "minCents" | "maxCents" | "presetCents">): boolean {
  if (!Number.isInteger(amountCents)) return false;
  if (settings.presetCents.includes(amountCents)) return true;
  return amountCents >= settings.minCents && amountCents <= settings.maxCents;
}

export function isFundContributionAllowed(amountCents: Cents): boolean {
  return Number.isInteger(amountCents) && amountCents >= fundContributionLimits.minCents && amountCents <= fundContributionLimits.maxCents;
}

/** What the voucher lines add to an order's total. */
export function voucherTotalCents(vouchers: readonly { amountCents: Cents }[]): Cents {
  return sumCents(vouchers.map((voucher) => voucher.amountCents));
}

/** How much of a fund's target is collected, 0-100, for its progress bar (null without a target). */
export function fundProgressPercent(collectedCents: Cents, targetCents: Cents | null): number | null {
  if (targetCents === null || targetCents <= 0) return null;
  return Math.min(100, Math.floor((collectedCents * 100) / targetCents));
}

/** The seed of a fund's one card's code: the owner sees the code again on her list's page. */
export const fundCardSeed = (fundId: number) => `fund:${fundId}`;
