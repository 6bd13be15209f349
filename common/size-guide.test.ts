import { expect, test } from "vitest";
import { findSizeForHeight, sizeGuide, sizeGuideAge } from "./size-guide";

test("a child's height finds the size whose range holds it, ends included", () => {
  expect(findSizeForHeight(50)?.size).toBe("56");
  expect(findSizeForHeight(56)?.size).toBe("56");
  expect(findSizeForHeight(57)?.size).toBe("62");
  expect(findSizeForHeight(70)?.size).toBe("74");
  expect(findSizeForHeight(116)?.size).toBe("116");
  expect(findSizeForHeight(49)).toBeNull();
  expect(findSizeForHeight(117)).toBeNull();
});

test("the guide's ranges follow one another with no gap, and ages read in months then years", () => {
  for (const [index, entry] of sizeGuide.entries()) {
    const next = sizeGuide[index + 1];
    if (next) expect([next.heightMinCm, next.ageFromMonths]).toEqual([entry.heightMaxCm + 1, entry.ageToMonths]);
  }
  expect(sizeGuideAge(sizeGuide[0]!)).toEqual({ unit: "months", from: 0, to: 1 });
  expect(sizeGuideAge(sizeGuide.at(-1)!)).toEqual({ unit: "years", from: 5, to: 6 });
});
