import { z } from "zod";
import { claimStatuses } from "#common/guarantee-claims.ts";

/** The claim form: which line of the order, and the fault in the buyer's words (photos arrive as files beside it). */
export const OpenClaimInput = z.object({
  orderLineId: z.uuid("guaranteeClaims.errors.lineRequired"),
  description: z
    .string("guaranteeClaims.errors.descriptionShort")
    .trim()
    .min(20, "guaranteeClaims.errors.descriptionShort")
    .max(2000, "guaranteeClaims.errors.descriptionLong"),
});
export type OpenClaimInput = z.infer<typeof OpenClaimInput>;

/** The back office's status form: the next status and an optional message for the customer's mail. */
export const ChangeClaimStatusInput = z.object({
  status: z.enum(claimStatuses, "guaranteeClaims.errors.statusNotAllowed"),
  note: z
    .string()
    .trim()
    .max(2000, "guaranteeClaims.errors.noteLong")
    .optional()
    .transform((value) => value || null),
});
export type ChangeClaimStatusInput = z.infer<typeof ChangeClaimStatusInput>;
