import { expect, test } from "vitest";
import { normaliseDiscountCode } from "#server/coupons/coupon.ts";
import { completionCodeOf, completionWindow, isWithinWindow } from "./gift-list-completion";

test("the window opens at midnight in Italy on the event day and lasts the configured whole days, summer or winter", () => {
  const window = completionWindow("2026-03-20", 30);
  expect(window.validFrom.toISOString()).toBe("2026-03-19T23:00:00.000Z");
  // Across the change to summer time (29 March 2026): still midnight in Italy.
  expect(window.validUntil.toISOString()).toBe("2026-04-18T22:00:00.000Z");
  expect(isWithinWindow(window, new Date("2026-03-19T22:59:59Z"))).toBe(false);
  expect(isWithinWindow(window, new Date("2026-03-19T23:00:00Z"))).toBe(true);
  expect(isWithinWindow(window, new Date("2026-04-18T21:59:59Z"))).toBe(true);
  expect(isWithinWindow(window, new Date("2026-04-18T22:00:00Z"))).toBe(false);
});

test("a code reads in any case with spaces or dashes; anything else is no code", () => {
  expect(completionCodeOf("ABCD2345")).toBe("GRAZIEABCD2345");
  expect(normaliseDiscountCode(" grazie-abcd 2345 ")).toBe("GRAZIEABCD2345");
  expect(normaliseDiscountCode("x' or 1=1 --")).toBeNull();
  expect(normaliseDiscountCode("<b>")).toBeNull();
  expect(normaliseDiscountCode("")).toBeNull();
});
