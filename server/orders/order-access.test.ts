import { expect, test } from "vitest";
import { isOrderAccessTokenValid, orderAccessToken, orderPageHref } from "./order-access";

const secret = "a-secret-of-the-shop-long-enough-for-tests";
const orderId = "0b6f2d6e-5d2f-4f7c-9d55-1c2b3a4d5e6f";

test("the token opens its own order only, and only with the shop's secret", () => {
  const token = orderAccessToken(secret, orderId);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(isOrderAccessTokenValid(secret, orderId, token)).toBe(true);
  expect(isOrderAccessTokenValid(secret, "1b6f2d6e-5d2f-4f7c-9d55-1c2b3a4d5e6f", token)).toBe(false);
  expect(isOrderAccessTokenValid("another-secret-another-secret-xx", orderId, token)).toBe(false);
  expect(isOrderAccessTokenValid(secret, orderId, null)).toBe(false);
  expect(isOrderAccessTokenValid(secret, orderId, `${token.slice(0, -1)}${token.endsWith("x") ? "y" : "x"}`)).toBe(false);
  expect(isOrderAccessTokenValid(secret, orderId, "short")).toBe(false);
});

test("the order page link in both languages", () => {
  expect(orderPageHref("it", orderId, "abc_-1")).toBe(`/ordine/${orderId}?t=abc_-1`);
  expect(orderPageHref("en", orderId, "abc_-1")).toBe(`/en/ordine/${orderId}?t=abc_-1`);
});
