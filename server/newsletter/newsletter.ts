/**
 * The rules of the shop's own newsletter list (double opt-in). Pure: no database, clock or network;
 * newsletter.service.ts applies them.
 */
import crypto from "node:crypto";
import type { ThrottleRule } from "#server/accounts/login-throttle.ts";

export type NewsletterStatus = "pending" | "confirmed" | "unsubscribed";

/**
 * The version of the consent text (`newsletter.consent` in messages/*.json) stored with each sign-up:
 * change it whenever that text changes, so every record says which wording the person agreed to.
 */
export const newsletterConsentVersion = "2026-11-a";

/** How long a confirmation link works. */
export const confirmLinkLifetimeMs = 48 * 60 * 60_000;

/** A pending address gets at most one opt-in mail in this time, however often it is typed in. */
export const optInMailGapMs = 10 * 60_000;

/** Sign-ups one client address may make per hour: a family signs up one or two, a script thousands. */
export const newsletterSignUpRule: ThrottleRule = { max: 10, windowMs: 60 * 60_000 };

/** Opt-in mails one address may get per day, whatever the client addresses asking. */
export const newsletterMailsPerAddressRule: ThrottleRule = { max: 4, windowMs: 24 * 60 * 60_000 };

/**
 * What a sign-up does to an address already known (or not): a new or unsubscribed address starts over
 * as pending with a mail; a pending one gets the mail again once the gap has passed; a confirmed one,
 * or a pending one mailed a moment ago, changes nothing (the page answers the same either way).
 */
export function planSignUp(existing: { status: NewsletterStatus; lastMailAt: Date | null } | null, now: Date): "create" | "restart" | "quiet" {
  if (!existing) return "create";
  if (existing.status === "confirmed") return "quiet";
  if (existing.lastMailAt && now.getTime() - existing.lastMailAt.getTime() < optInMailGapMs) return "quiet";
  return "restart";
}

/** A link token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** Confirmation tokens are stored hashed: a read of the table confirms nobody. */
export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** The columns of the export of confirmed addresses, for any mailing tool. */
export const exportColumns = ["email", "language", "confirmed_at", "consent_version", "consent_at"] as const;
