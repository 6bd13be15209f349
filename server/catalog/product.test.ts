import { expect, test } from "vitest";
import {
  getAvailability,
  getProductAvailability,
  isProductOnRequest,
  parseProductId,
  parseRelatedIds,
  pickRelatedIds,
  relatedProductsLimit,
} from "./product";

test("a product id is a positive whole number written in plain digits", () => {
  expect(parseProductId("24")).toBe(24);
  expect(parseProductId("10000")).toBe(10000);
  expect(parseProductId("2147483647")).toBe(2147483647);
});

test("non-numeric, negative, zero, decorated and huge ids are no product", () => {
  for (const param of [undefined, "", "abc", "12abc", "-3", "0", "1e3", "0x1f", " 7", "7 ", "2.5", "+5", "2147483648", "99999999999999999999"]) {
    expect(parseProductId(param), String(param)).toBeNull();
  }
});

test("related ids are read from the comma-separated list, ignoring empty entries and 'undefined'", () => {
  expect(parseRelatedIds("25,26, 27")).toEqual([25, 26, 27]);
  expect(parseRelatedIds("25,,26,undefined,27,")).toEqual([25, 26, 27]);
  expect(parseRelatedIds("undefined")).toEqual([]);
  expect(parseRelatedIds("")).toEqual([]);
  expect(parseRelatedIds(null)).toEqual([]);
  expect(parseRelatedIds(undefined)).toEqual([]);
});

test("related ids drop entries that are not ids and keep the first of repeated ones", () => {
  expect(parseRelatedIds("25,abc,-1,26,25, 0")).toEqual([25, 26]);
});

test("a page shows at most 8 related products, never the product itself, without repeats", () => {
  expect(pickRelatedIds(24, [24, 25, 25, 26])).toEqual([25, 26]);
  const many = Array.from({ length: 12 }, (_, index) => 100 + index);
  expect(pickRelatedIds(24, many)).toHaveLength(relatedProductsLimit);
  expect(pickRelatedIds(24, many)).toEqual(many.slice(0, 8));
});

test("a variant with stock is in stock, a pre-order size with stock is a pre-order, stock 0 or no variant is out of stock", () => {
  expect(getAvailability({ stock: 3, isPreorder: false })).toBe("in_stock");
  expect(getAvailability({ stock: 3, isPreorder: true })).toBe("preorder");
  expect(getAvailability({ stock: 0, isPreorder: false })).toBe("out_of_stock");
  expect(getAvailability({ stock: 0, isPreorder: true })).toBe("out_of_stock");
  expect(getAvailability(undefined)).toBe("out_of_stock");
  expect(getAvailability(null)).toBe("out_of_stock");
});

test("a product is in stock when any variant is, else a pre-order when any size can be booked", () => {
  expect(
    getProductAvailability([
      { stock: 0, isPreorder: false },
      { stock: 2, isPreorder: false },
    ]),
  ).toBe("in_stock");
  expect(
    getProductAvailability([
      { stock: 0, isPreorder: false },
      { stock: 2, isPreorder: true },
    ]),
  ).toBe("preorder");
  expect(getProductAvailability([{ stock: 0, isPreorder: false }])).toBe("out_of_stock");
  expect(getProductAvailability([])).toBe("out_of_stock");
});

test("a product is on request when flagged or when it carries an on-request tag", () => {
  expect(isProductOnRequest({ isOnRequest: true }, [])).toBe(true);
  expect(isProductOnRequest({ isOnRequest: false }, [{ marksOnRequest: false }, { marksOnRequest: true }])).toBe(true);
  expect(isProductOnRequest({ isOnRequest: false }, [{ marksOnRequest: false }])).toBe(false);
});
