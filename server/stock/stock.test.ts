import { expect, test } from "vitest";
import { quantitiesPerVariant, shortages } from "./stock";

test("two lines of one variant add up before the stock check", () => {
  const wanted = quantitiesPerVariant([
    { variantId: 7, quantity: 3 },
    { variantId: 2, quantity: 1 },
    { variantId: 7, quantity: 2 },
  ]);
  expect([...wanted]).toEqual([
    [2, 1],
    [7, 5],
  ]);
  // 3 and 2 each fit in a stock of 4; together they do not.
  expect(shortages(wanted, (id) => (id === 7 ? 4 : 10))).toEqual([{ variantId: 7, available: 4 }]);
});
