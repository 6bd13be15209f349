/**
 * Group gifting, pure: no db or clock. Guests contribute amounts toward one unit of an
 * expensive item; the amounts placed (paid or awaiting payment) never exceed the unit's price, fixed
 * when the owner opened the group gift. See docs/decisions/0021-group-gifting.md.
 */
import type { Cents } from "#server/money.ts";

/** Below this a card payment costs the shop more than it is worth; a smaller remainder may still be given whole. */
const minContributionCents: Cents = 500;

export type GroupGiftAmounts = { groupTargetCents: Cents | null; groupPledgedCents: Cents; groupFundedCents: Cents };

export type GroupGiftProgress = {
  targetCents: Cents;
  /** Paid. */
  fundedCents: Cents;
  /** Placed by guests who have not paid yet (their card session is open). */
  pendingCents: Cents;
  /** What a guest may still contribute now. */
  leftCents: Cents;
  /** Paid share of the target, rounded down: 100 only when every cent is paid. */
  fundedPercent: number;
  /** The smallest contribution accepted now (the whole remainder when it is below the minimum). */
  minCents: Cents;
};

/** The current round's state, or null when the item is not a group gift. */
export function groupGiftProgress(item: GroupGiftAmounts & { isGroupGift: boolean }): GroupGiftProgress | null {
  if (!item.isGroupGift || !item.groupTargetCents) return null;
  const targetCents = item.groupTargetCents;
  const leftCents = Math.max(0, targetCents - item.groupPledgedCents);
  return {
    targetCents,
    fundedCents: item.groupFundedCents,
    pendingCents: item.groupPledgedCents - item.groupFundedCents,
    leftCents,
    fundedPercent: Math.floor((item.groupFundedCents * 100) / targetCents),
    minCents: Math.min(minContributionCents, leftCents),
  };
}

export type ContributionRefusal = "group-gift-full" | "group-gift-amount-below-minimum" | "group-gift-amount-above-left";

/** Whether `amountCents` fits what is left: above it is refused (never over-funded), never trimmed. */
export function checkContributionAmount(amountCents: Cents, leftCents: Cents): ContributionRefusal | null {
  if (leftCents <= 0) return "group-gift-full";
  if (amountCents > leftCents) return "group-gift-amount-above-left";
  if (amountCents < Math.min(minContributionCents, leftCents)) return "group-gift-amount-below-minimum";
  return null;
}

/** The funded order's names of the givers: each once, in the order they gave, within the column's room. */
export function giverNamesOf(names: readonly string[], maxLength = 200): string {
  const unique = [...new Set(names.map((name) => name.trim()).filter(Boolean))];
  let text = "";
  for (const name of unique) {
    const next = text ? `${text}, ${name}` : name;
    if (next.length > maxLength) return `${text}…`;
    text = next;
  }
  return text;
}
