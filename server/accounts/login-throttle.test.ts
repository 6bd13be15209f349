import { expect, test } from "vitest";
import { accountThrottleKey, hashEmail, ipThrottleKey, judgeWindow, throttleRules } from "./login-throttle";

test("within the limit an attempt is allowed; past it, refused until the window ends", () => {
  const rule = throttleRules.loginAccount;
  expect(judgeWindow({ count: 5, windowStartMs: 1_000 }, 30_000, rule)).toEqual({ allowed: true });
  expect(judgeWindow({ count: 6, windowStartMs: 1_000 }, 30_000, rule)).toEqual({ allowed: false, retryAfterMs: 31_000 });
  expect(judgeWindow({ count: 6, windowStartMs: 1_000 }, 61_000, rule)).toEqual({ allowed: false, retryAfterMs: 0 });
});

test("accounts are keyed by a hash of the address, the same whatever its case and spacing", () => {
  expect(accountThrottleKey("login", " Maria@Example.com ")).toBe(accountThrottleKey("login", "maria@example.com"));
  expect(accountThrottleKey("login", "maria@example.com")).toBe(`login:account:${hashEmail("maria@example.com")}`);
  expect(accountThrottleKey("login", "maria@example.com")).not.toContain("maria");
  expect(accountThrottleKey("reset", "maria@example.com")).not.toBe(accountThrottleKey("login", "maria@example.com"));
  expect(ipThrottleKey("login", "203.0.113.7")).toBe("login:ip:203.0.113.7");
});
