/**
 * The order page's link for guests: /ordine/{id}?t={token}, the token an HMAC of the order id with the
 * shop's secret. Whoever holds the link (the confirmation e-mail, the browser that placed the order)
 * sees the order; ids alone reveal nothing.
 */
import crypto from "node:crypto";
import { localizedHref, type Locale } from "#common/locale.ts";

export function orderAccessToken(secret: string, orderId: string): string {
  return crypto.createHmac("sha256", secret).update(`order-page:${orderId}`).digest("base64url");
}

export function isOrderAccessTokenValid(secret: string, orderId: string, token: string | null): boolean {
  if (!token) return false;
  const expected = Buffer.from(orderAccessToken(secret, orderId));
  const given = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Relative to the site: "/ordine/{id}?t=..." or "/en/ordine/{id}?t=...". */
export function orderPageHref(locale: Locale, orderId: string, token: string): string {
  return localizedHref(`/ordine/${encodeURIComponent(orderId)}?t=${encodeURIComponent(token)}`, locale);
}

/** The order's withdrawal function for the link's holder: "/ordine/{id}/recesso?t=..." (docs/decisions/0051-withdrawal-period.md). */
export function withdrawalPageHref(locale: Locale, orderId: string, token: string): string {
  return localizedHref(`/ordine/${encodeURIComponent(orderId)}/recesso?t=${encodeURIComponent(token)}`, locale);
}
