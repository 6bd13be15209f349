import { expect, test } from "vitest";
import { bundleSaving, hasSinglePart, sharePerUnit } from "./bundle";

test("a trio's price is shared in proportion to what its parts cost alone, adding up to the cent", () => {
  const parts = [
    { unitCents: 49_900, quantity: 1 },
    { unitCents: 19_900, quantity: 1 },
    { unitCents: 24_900, quantity: 1 },
  ];
  const shares = sharePerUnit(79_900, parts);
  expect(shares.reduce((sum, cents) => sum + cents, 0)).toBe(79_900);
  expect(shares).toEqual([42_101, 16_790, 21_009]);
});

test("a part bought twice per bundle gets a whole-cent unit share; the single part carries the cents left", () => {
  const parts = [
    { unitCents: 999, quantity: 2 },
    { unitCents: 1_500, quantity: 1 },
  ];
  const shares = sharePerUnit(3_001, parts);
  expect(shares[0]! * 2 + shares[1]!).toBe(3_001);
  expect(shares).toEqual([857, 1_287]);
});

test("a bundle with no single part cannot share an odd cent", () => {
  expect(() => sharePerUnit(1_001, [{ unitCents: 500, quantity: 2 }])).toThrow(RangeError);
  expect(sharePerUnit(1_000, [{ unitCents: 500, quantity: 2 }])).toEqual([500]);
  expect(hasSinglePart([{ quantity: 2 }])).toBe(false);
  expect(hasSinglePart([{ quantity: 2 }, { quantity: 1 }])).toBe(true);
});

test("the saving is what the parts cost alone less the bundle's price, never negative", () => {
  const parts = [
    { unitCents: 1_000, quantity: 1 },
    { unitCents: 500, quantity: 2 },
  ];
  expect(bundleSaving(1_800, parts)).toEqual({ partsCents: 2_000, savedCents: 200 });
  expect(bundleSaving(2_500, parts)).toEqual({ partsCents: 2_000, savedCents: 0 });
});
