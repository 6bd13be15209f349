/**
 * The rules of back-in-stock alerts ("Avvisami quando torna disponibile"). Pure: no database, clock or
 * network; stock-alerts.service.ts applies them. See docs/decisions/0067-back-in-stock-alerts.md.
 */
import { isOneSize } from "#common/sizes.ts";
import type { ThrottleRule } from "#server/accounts/login-throttle.ts";

export type StockAlertStatus = "pending" | "active" | "notified" | "unsubscribed";

/** How long a guest's confirmation link works. */
export const confirmLinkLifetimeMs = 48 * 60 * 60_000;

/** A pending alert gets at most one confirmation mail in this time, however often it is asked for. */
export const confirmMailGapMs = 10 * 60_000;

/** Alerts one client address may ask for per hour: a parent asks a few, a script thousands. */
export const stockAlertRequestRule: ThrottleRule = { max: 20, windowMs: 60 * 60_000 };

/** Confirmation mails one address may get per day, whatever the client addresses asking. */
export const stockAlertMailsPerAddressRule: ThrottleRule = { max: 4, windowMs: 24 * 60 * 60_000 };

/** A stock change that brings a variant back: from nothing to something. 2 -> 3 is not news. */
export function isBackInStock(before: number, after: number): boolean {
  return before <= 0 && after > 0;
}

/**
 * What a request does to the open alert of the same variant and address (or none):
 * - confirmed (a signed-in customer's click, or an active alert already): "activate" / "quiet";
 * - a guest: a new alert is created pending with a mail; a pending one gets the mail again once the gap
 *   has passed; an active one, or a pending one mailed a moment ago, changes nothing.
 * The page answers the same every time, so it reveals nobody's alerts.
 */
export function planStockAlertRequest(
  open: { status: "pending" | "active"; lastMailAt: Date | null } | null,
  args: { confirmed: boolean; now: Date },
): "create-active" | "activate" | "create-pending" | "resend" | "quiet" {
  if (open?.status === "active") return "quiet";
  if (args.confirmed) return open ? "activate" : "create-active";
  if (!open) return "create-pending";
  if (open.lastMailAt && args.now.getTime() - open.lastMailAt.getTime() < confirmMailGapMs) return "quiet";
  return "resend";
}

/** "?colour=blue&size=m": the product page opens on this colour and size (common/variant-selection.ts reads it). */
export function selectionSearchOf(variant: { colour: string | null; size: string }): string {
  const params = new URLSearchParams();
  if (variant.colour !== null) params.set("colour", variant.colour);
  if (!isOneSize(variant.size)) params.set("size", variant.size);
  const search = params.toString();
  return search ? `?${search}` : "";
}
