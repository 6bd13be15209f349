import { expect, test } from "vitest";
import { pageOf } from "./paging";

test("a page is kept within the list: an empty list has one page, past the end is the last, nonsense is the first", () => {
  expect(pageOf(1, 0, 25)).toEqual({ page: 1, pageCount: 1, offset: 0 });
  expect(pageOf(2, 51, 25)).toEqual({ page: 2, pageCount: 3, offset: 25 });
  expect(pageOf(9, 51, 25)).toEqual({ page: 3, pageCount: 3, offset: 50 });
  expect(pageOf(0, 51, 25)).toEqual({ page: 1, pageCount: 3, offset: 0 });
  expect(pageOf(Number.NaN, 51, 25)).toEqual({ page: 1, pageCount: 3, offset: 0 });
  expect(pageOf(undefined, 51, 25)).toEqual({ page: 1, pageCount: 3, offset: 0 });
});
