import { expect, test } from "vitest";
import {
  cartCookieHeader,
  cartCookieKey,
  clearCartCookieHeader,
  flashCookieHeader,
  readCartCookie,
  readCookie,
  readFlashCookie,
} from "./cart-cookie.ts";

const key = cartCookieKey("a-test-secret-that-is-long-enough-0123456789");
const cartId = "6a5e1de1-600f-44ff-980a-e0b6bd8cd5fd";
const valueOf = (setCookie: string) => setCookie.slice(0, setCookie.indexOf(";"));

test("the cart cookie is httpOnly, SameSite=Lax, for the whole site; Secure on https", () => {
  const header = cartCookieHeader(cartId, key, { secure: false });
  expect(header).toMatch(/^cart=6a5e1de1-600f-44ff-980a-e0b6bd8cd5fd\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=7776000; HttpOnly; SameSite=Lax$/);
  expect(cartCookieHeader(cartId, key, { secure: true })).toMatch(/; Secure$/);
  expect(clearCartCookieHeader({ secure: false })).toContain("Max-Age=0");
});

test("a signed cart id reads back", () => {
  expect(readCartCookie(`other=1; ${valueOf(cartCookieHeader(cartId, key, { secure: false }))}`, key)).toEqual({ cartId, forged: false });
  expect(readCartCookie(null, key)).toEqual({ cartId: null, forged: false });
});

test("a forged cookie, another visitor's bare id, or another secret's signature is refused", () => {
  expect(readCartCookie(`cart=${cartId}`, key)).toEqual({ cartId: null, forged: true });
  expect(readCartCookie(`cart=${cartId}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, key)).toEqual({ cartId: null, forged: true });
  const otherKey = cartCookieKey("another-secret-that-is-long-enough-0123456789");
  expect(readCartCookie(valueOf(cartCookieHeader(cartId, otherKey, { secure: false })), key)).toEqual({ cartId: null, forged: true });
  const signed = valueOf(cartCookieHeader(cartId, key, { secure: false }));
  const otherId = "00000000-0000-4000-8000-000000000000";
  expect(readCartCookie(signed.replace(cartId, otherId), key)).toEqual({ cartId: null, forged: true });
  expect(readCartCookie("cart=%E0%A4%A", key)).toEqual({ cartId: null, forged: false });
});

test("flash toasts round-trip signed; forged or malformed ones are dropped", () => {
  const toasts = [
    { kind: "success" as const, message: "Aggiunto al carrello" },
    { kind: "error" as const, message: "Il tuo carrello contiene già 1 o più articoli.", persistent: true },
  ];
  const header = flashCookieHeader(toasts, key, { secure: false });
  expect(header).toContain("Max-Age=60; HttpOnly; SameSite=Lax");
  expect(readFlashCookie(valueOf(header), key)).toEqual(toasts);
  const forged = `cart_flash=${Buffer.from(JSON.stringify([{ kind: "success", message: "Hacked" }])).toString("base64url")}.xyz`;
  expect(readFlashCookie(forged, key)).toEqual([]);
  expect(readFlashCookie(null, key)).toEqual([]);
});

test("cookies are read by exact name", () => {
  expect(readCookie("mycart=1; cart=2", "cart")).toBe("2");
  expect(readCookie("cart_flash=1", "cart")).toBeNull();
});
