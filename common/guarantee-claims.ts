/** What the claim pages and the server share about guarantee claims (docs/decisions/0103-guarantee-claims.md). */

export const claimStatuses = ["received", "in_review", "repair", "replacement", "refund", "closed"] as const;
export type ClaimStatus = (typeof claimStatuses)[number];

/** Photos one claim may carry. */
export const maxClaimPhotos = 4;
