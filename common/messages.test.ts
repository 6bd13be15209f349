import { expect, test } from "vitest";
import { pickMessages } from "./messages";

test("picking keeps the nesting and brings plural forms with their key", () => {
  const catalogue = { saved: { wishlistCount_one: "1", wishlistCount_other: "n", title: "t" }, cart: { a: "a" } };
  expect(pickMessages(catalogue, ["saved.wishlistCount", "cart"])).toEqual({
    saved: { wishlistCount_one: "1", wishlistCount_other: "n" },
    cart: { a: "a" },
  });
  expect(pickMessages(catalogue, ["nothing.here"])).toEqual({});
});
