import { expect, test } from "vitest";
import { code128cBars, code128cValues } from "#common/code128.ts";
import { formatCardNumber } from "#common/loyalty-card-number.ts";
import { cardNumberOf, expiryOf, normaliseCardNumber, pointsDue, pointsFor, redeemableSteps, redeemPoints } from "./loyalty";

const steps = { stepPoints: 500, stepCents: 500 };

test("a card number is 27, its sequence and a Luhn check digit; a mistyped digit is refused", () => {
  expect(cardNumberOf(1)).toBe("270000000017");
  expect(formatCardNumber(cardNumberOf(1))).toBe("2700 0000 0017");
  expect(normaliseCardNumber("2700 0000 0017")).toBe("270000000017");
  expect(normaliseCardNumber("2700-0000-0013")).toBeNull();
  expect(normaliseCardNumber("270000000071")).toBeNull();
  expect(normaliseCardNumber("abc")).toBeNull();
  expect(cardNumberOf(123_456_789)).toMatch(/^27123456789\d$/);
});

test("whole euros earn points; a refund takes back its share", () => {
  expect(pointsFor(999, 1)).toBe(9);
  expect(pointsFor(2490, 2)).toBe(49);
  expect(pointsFor(-100, 1)).toBe(0);
  expect(pointsDue(10_000, 5_000, 1)).toBe(50);
  expect(pointsDue(10_000, 12_000, 1)).toBe(0);
});

test("points are spent in steps, never more than the balance or the goods they may pay for", () => {
  const lines = [
    { cents: 2000, isExcluded: false },
    { cents: 2390, isExcluded: true },
    { cents: 1000, isExcluded: false },
  ];
  expect(redeemableSteps(1800, lines, steps)).toBe(3);
  expect(redeemableSteps(10_000, lines, steps)).toBe(6);
  const spent = redeemPoints(1000, 1800, lines, steps);
  expect(spent).toEqual({ ok: true, redemption: { points: 1000, discountCents: 1000, perLineCents: [667, 0, 333] } });
  expect(redeemPoints(700, 1800, lines, steps)).toEqual({ ok: false, error: "not-a-step" });
  expect(redeemPoints(2000, 1800, lines, steps)).toEqual({ ok: false, error: "not-enough-points" });
  expect(redeemPoints(3500, 10_000, lines, steps)).toEqual({ ok: false, error: "too-many-points" });
  // Only infant formula in the order: nothing may be paid with points.
  expect(redeemableSteps(5000, [{ cents: 2390, isExcluded: true }], steps)).toBe(0);
});

test("points expire at the end of the month, Italian time, the given months later", () => {
  expect(expiryOf(new Date("2026-11-20T10:00:00Z"), 24).toISOString()).toBe("2028-11-30T22:59:59.000Z");
  expect(expiryOf(new Date("2026-01-31T23:30:00Z"), 1).toISOString()).toBe("2026-03-31T21:59:59.000Z");
});

test("Code 128 C: start C, digit pairs, the mod 103 check and stop", () => {
  // 12 34: (105 + 12*1 + 34*2) mod 103 = 82
  expect(code128cValues("1234")).toEqual([105, 12, 34, 82, 106]);
  const { bars, modules } = code128cBars("270000000017");
  // 9 symbols of 11 modules, the stop's 13, and 10 of quiet zone on each side.
  expect(modules).toBe(8 * 11 + 13 + 20);
  expect(bars[0]).toEqual([10, 2]);
  expect(() => code128cValues("123")).toThrow(RangeError);
});
