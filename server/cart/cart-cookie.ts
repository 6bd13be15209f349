/**
 * The cart's id travels in an httpOnly, SameSite=Lax cookie signed with an HMAC of the shop's secret
 * (docs/rules.md#cart): a forged or copied-without-signature id is refused and a fresh cart is started.
 * The flash cookie carries the toasts of a form post made without JavaScript to the page it returns to.
 */
import crypto from "node:crypto";
import { isLocale, type Locale } from "#common/locale.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import type { Env } from "#server/env.ts";

export const cartCookieName = "cart";
export const flashCookieName = "cart_flash";
/** Carts are kept for visitors who come back within three months. */
export const cartCookieMaxAgeSeconds = 90 * 24 * 60 * 60;
const flashMaxAgeSeconds = 60;

export type CookieOptions = { secure: boolean };
/** `error`: the cart's refusal code, so the page can also mark the field it is about (the personalisation texts). */
/** `locale`: the language `message` is written in (the page that posted); another language's page does not show it. */
export type FlashToast = { kind: "success" | "warning" | "error" | "info"; message: string; persistent?: boolean; error?: string; locale?: Locale };

/** A key of its own for the cart cookie, derived from the shop secret (never the secret itself). */
export function cartCookieKey(secret: string): Buffer {
  return crypto.createHmac("sha256", secret).update("cart-cookie-v1").digest();
}

const keys = new WeakMap<Env, Buffer>();

/** The key for this environment (the secret file is read once per process). */
export function cartCookieKeyOf(env: Env): Buffer {
  let key = keys.get(env);
  if (!key) {
    key = cartCookieKey(resolveAuthSecret(env));
    keys.set(env, key);
  }
  return key;
}

function mac(key: Buffer, purpose: string, value: string): string {
  return crypto.createHmac("sha256", key).update(`${purpose}:${value}`).digest("base64url");
}

function verify(key: Buffer, purpose: string, signed: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(mac(key, purpose, value));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? value : null;
}

/** The value of cookie `name` in a Cookie header, or null. */
export function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type CartCookieRead = { cartId: string | null; /** A cookie was sent but its signature is wrong. */ forged: boolean };

export function readCartCookie(cookieHeader: string | null, key: Buffer): CartCookieRead {
  const raw = readCookie(cookieHeader, cartCookieName);
  if (raw === null) return { cartId: null, forged: false };
  const cartId = verify(key, "cart", raw);
  if (cartId === null || !uuidPattern.test(cartId)) return { cartId: null, forged: true };
  return { cartId, forged: false };
}

function attributes(maxAgeSeconds: number, { secure }: CookieOptions) {
  return `Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function cartCookieHeader(cartId: string, key: Buffer, options: CookieOptions): string {
  return `${cartCookieName}=${cartId}.${mac(key, "cart", cartId)}; ${attributes(cartCookieMaxAgeSeconds, options)}`;
}

export function clearCartCookieHeader(options: CookieOptions): string {
  return `${cartCookieName}=; ${attributes(0, options)}`;
}

export function flashCookieHeader(toasts: readonly FlashToast[], key: Buffer, options: CookieOptions): string {
  const value = Buffer.from(JSON.stringify(toasts)).toString("base64url");
  return `${flashCookieName}=${value}.${mac(key, "flash", value)}; ${attributes(flashMaxAgeSeconds, options)}`;
}

export function clearFlashCookieHeader(options: CookieOptions): string {
  return `${flashCookieName}=; ${attributes(0, options)}`;
}

const toastKinds = new Set(["success", "warning", "error", "info"]);

/** The toasts of a signed flash cookie; [] when absent, forged or malformed. */
export function readFlashCookie(cookieHeader: string | null, key: Buffer): FlashToast[] {
  const raw = readCookie(cookieHeader, flashCookieName);
  if (!raw) return [];
  const value = verify(key, "flash", raw);
  if (value === null) return [];
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed)) return [];
    return (parsed as unknown[])
      .filter(
        (toast): toast is FlashToast =>
          typeof toast === "object" &&
          toast !== null &&
          "kind" in toast &&
          typeof toast.kind === "string" &&
          toastKinds.has(toast.kind) &&
          "message" in toast &&
          typeof toast.message === "string",
      )
      .slice(0, 4)
      .map((toast) => ({
        kind: toast.kind,
        message: toast.message,
        ...(toast.persistent ? { persistent: true } : {}),
        ...(typeof toast.error === "string" && /^[a-z-]{1,40}$/.test(toast.error) ? { error: toast.error } : {}),
        ...(isLocale(toast.locale) ? { locale: toast.locale } : {}),
      }));
  } catch {
    return [];
  }
}

export function cookieOptionsFor(publicUrl: string): CookieOptions {
  return { secure: publicUrl.startsWith("https:") };
}
