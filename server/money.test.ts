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
  netOfVatCents,
  splitInProportion,
  centsToDecimalText,
  unitAmountText,
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

test("the amount before VAT is taken out of a VAT-included price with one rounding", () => {
  expect(netOfVatCents(12200, 22)).toBe(10000);
  expect(netOfVatCents(1000, 22)).toBe(820); // 819.67
  expect(netOfVatCents(1000, 4)).toBe(962); // 961.54
  expect(netOfVatCents(-1000, 10)).toBe(-909);
  expect(() => netOfVatCents(100, 22.5)).toThrow(RangeError);
});

test("an amount split in proportion adds up exactly, the cents left going to the largest remainders", () => {
  expect(splitInProportion(100, [1, 1, 1])).toEqual([34, 33, 33]);
  expect(splitInProportion(820, [500, 500])).toEqual([410, 410]);
  expect(splitInProportion(1001, [3000, 1000])).toEqual([751, 250]);
  const withDiscount = splitInProportion(8197, [6000, 4000, -1000]);
  expect(withDiscount.reduce((a, b) => a + b, 0)).toBe(8197);
  expect(withDiscount).toEqual([5465, 3643, -911]);
  expect(splitInProportion(0, [0, 0])).toEqual([0, 0]);
});

test("amounts are written with a point and two decimals, unit prices with up to eight", () => {
  expect(centsToDecimalText(1250)).toBe("12.50");
  expect(centsToDecimalText(-5)).toBe("-0.05");
  expect(centsToDecimalText(0)).toBe("0.00");
  expect(unitAmountText(1000, 3)).toBe("3.33333333");
  expect(unitAmountText(2000, 3)).toBe("6.66666667");
  expect(unitAmountText(1250, 1)).toBe("12.50");
  expect(unitAmountText(-911, 1)).toBe("-9.11");
});
