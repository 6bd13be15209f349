import { expect, test } from "vitest";
import {
  activeDiscountPercent,
  applyPercentOff,
  centsToDecimal,
  convertCents,
  effectivePriceCents,
  roundHalfUp,
  sumCents,
  timesQuantity,
} from "./money.ts";

test("a percent off rounds half-up to the cent, once", () => {
  expect(applyPercentOff(1999, 15)).toBe(1699); // 1699.15
  expect(applyPercentOff(1990, 45)).toBe(1095); // 1094.5 -> 1095
  expect(applyPercentOff(1000, 0)).toBe(1000);
  expect(applyPercentOff(1000, 100)).toBe(0);
});

test("a percent outside 0..100 or a fractional one is refused", () => {
  expect(() => applyPercentOff(1000, 101)).toThrow(RangeError);
  expect(() => applyPercentOff(1000, -1)).toThrow(RangeError);
  expect(() => applyPercentOff(1000, 2.5)).toThrow(RangeError);
});

test("fractional cents are refused, so a float never reaches a total", () => {
  expect(() => sumCents([100, 0.5])).toThrow(RangeError);
  expect(() => timesQuantity(10.1, 2)).toThrow(RangeError);
});

test("sums and quantities stay whole", () => {
  expect(sumCents([1999, 1, 500])).toBe(2500);
  expect(timesQuantity(1999, 3)).toBe(5997);
  expect(() => timesQuantity(1999, -1)).toThrow(RangeError);
});

test("a discount whose offer has ended no longer applies", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  expect(activeDiscountPercent(20, new Date("2020-10-31T23:59:00Z"), now)).toBe(0);
  expect(activeDiscountPercent(20, new Date("2027-01-31T23:59:00Z"), now)).toBe(20);
  expect(activeDiscountPercent(20, null, now)).toBe(20);
  expect(effectivePriceCents({ priceCents: 10000, discountPercent: 30, offerEndsAt: null }, now)).toBe(7000);
});

test("rounding is half away from zero", () => {
  expect(roundHalfUp(0.5)).toBe(1);
  expect(roundHalfUp(-0.5)).toBe(-1);
  expect(roundHalfUp(1.49)).toBe(1);
});

test("display conversion uses the stored rate and whole minor units", () => {
  expect(convertCents(1000, 1.0856)).toBe(1086);
  expect(convertCents(1999, 0.8412)).toBe(1682);
});

test("the legacy API's decimal prices keep every cent", () => {
  expect(centsToDecimal(1250)).toBe(12.5);
  expect(JSON.stringify([centsToDecimal(1999), centsToDecimal(10), centsToDecimal(0)])).toBe("[19.99,0.1,0]");
  expect(() => centsToDecimal(12.5)).toThrow(RangeError);
});
