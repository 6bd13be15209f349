import { expect, test } from "vitest";
import { completionCodeOf, completionDiscount, completionWindow, isWithinWindow, normaliseDiscountCode } from "./gift-list-completion";

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

test("only the list's variants still needed are discounted, at most the units still needed, rounded once per line", () => {
  const stillNeeded = new Map([
    [1, 2],
    [2, 1],
  ]);
  const result = completionDiscount(
    [
      { variantId: 1, quantity: 3, unitCents: 1999 }, // 2 of 3 units eligible: 3998 -> 10% = 399.8 -> 400
      { variantId: 3, quantity: 1, unitCents: 5000 }, // not on the list
      { variantId: 2, quantity: 1, unitCents: 1005 }, // pays 904.5 -> 905 (half up, once): 100 off
    ],
    stillNeeded,
    10,
  );
  expect(result.lines).toEqual([
    { variantId: 1, units: 2, discountCents: 400 },
    { variantId: 2, units: 1, discountCents: 100 },
  ]);
  expect(result.discountCents).toBe(500);
  // Two lines of one variant share what is still needed.
  const shared = completionDiscount(
    [
      { variantId: 2, quantity: 1, unitCents: 1000 },
      { variantId: 2, quantity: 1, unitCents: 1000 },
    ],
    stillNeeded,
    10,
  );
  expect(shared.discountCents).toBe(100);
  expect(completionDiscount([{ variantId: 3, quantity: 1, unitCents: 1000 }], stillNeeded, 10).discountCents).toBe(0);
});
