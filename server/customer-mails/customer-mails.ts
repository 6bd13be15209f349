/**
 * The rules of the mails that bring customers back: the abandoned-cart reminder and the review
 * invitation, both under the soft opt-in of art. 130 c.4 Codice Privacy (docs/decisions/0102-customer-mails-consent.md).
 * Pure: no database, clock or network; the services apply them.
 */
import crypto from "node:crypto";
import type { OrderStatus } from "#server/orders/order-status.ts";

/** Orders that count as a sale: the customer bought from the shop (paid, on its way, delivered, or refunded afterwards). */
export const saleStatuses: readonly OrderStatus[] = ["paid", "preparing", "shipped", "ready_for_collection", "completed", "refunded"];

/** A cart idle longer than the delay plus this is left alone: switching the reminders on never mails months-old carts. */
export const cartReminderWindowMs = 7 * 24 * 60 * 60_000;

/** However often a customer changes and leaves her cart, at most one reminder in this time. */
export const cartReminderGapMs = 7 * 24 * 60 * 60_000;

/** An order delivered longer ago than the invitation's day plus this gets none (the setting was just switched on). */
export const reviewInvitationWindowMs = 14 * 24 * 60 * 60_000;

export const hoursMs = (hours: number) => hours * 60 * 60_000;
export const daysMs = (days: number) => days * 24 * 60 * 60_000;

/** Where the shop's links in these mails start, and the secret that signs the opt-out link. */
export type CustomerMailLinks = { publicUrl: string; secret: string };

function signatureOf(secret: string, email: string): string {
  return crypto.createHmac("sha256", secret).update(`customer-mails-opt-out:${email}`).digest("base64url");
}

/**
 * The opt-out link's token: the address (base64url) and its HMAC with the shop's secret. It works without
 * signing in, never expires (the right to object is "at any time") and names only its own address.
 */
export function optOutToken(secret: string, email: string): string {
  const address = email.trim().toLowerCase();
  return `${Buffer.from(address).toString("base64url")}.${signatureOf(secret, address)}`;
}

/** The address a token was made for, or null when it was not made by this shop. */
export function emailOfOptOutToken(secret: string, token: string): string | null {
  const [encoded, signature] = token.split(".");
  if (!encoded || !signature) return null;
  const email = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = Buffer.from(signatureOf(secret, email));
  const given = Buffer.from(signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? email : null;
}
