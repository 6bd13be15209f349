/**
 * The rules of claims under the legal guarantee ("garanzia legale", Codice del Consumo art. 128-135;
 * docs/decisions/0103-guarantee-claims.md). Pure: no database, clock or network; claims.service.ts applies them.
 */
import type { ClaimStatus } from "#common/guarantee-claims.ts";

/** 24 months of guarantee from delivery plus the 2 months the buyer has to report a fault found at its end. */
export const guaranteeMonths = 26;

/** The width photos are kept at: enough to see a scratch, small in the database. */
export const claimPhotoMaxWidth = 1600;

const nextOf: Record<ClaimStatus, readonly ClaimStatus[]> = {
  received: ["in_review", "closed"],
  in_review: ["repair", "replacement", "refund", "closed"],
  repair: ["closed"],
  replacement: ["closed"],
  refund: ["closed"],
  closed: [],
};

/** Where a claim may go from here: examined, a remedy decided (art. 135-bis), then closed. */
export function nextClaimStatuses(from: ClaimStatus): readonly ClaimStatus[] {
  return nextOf[from];
}

/**
 * The last moment a fault may be reported: delivery plus 26 calendar months, on the same day of the month or
 * the month's last day when it has no such day (31 December -> 28 or 29 February).
 */
export function guaranteeEndsAt(deliveredAt: Date): Date {
  const end = new Date(deliveredAt);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + guaranteeMonths);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

export function isWithinGuarantee(deliveredAt: Date, now: Date): boolean {
  return now.getTime() <= guaranteeEndsAt(deliveredAt).getTime();
}
