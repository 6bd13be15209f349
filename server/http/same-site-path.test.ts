import { expect, test } from "vitest";
import { sameSitePath } from "./same-site-path";

test("only this shop's own paths are kept, with their query and fragment", () => {
  expect(sameSitePath("/product/12?x=1")).toBe("/product/12?x=1");
  expect(sameSitePath("/en/crea-lista-nascita?tab=2#x")).toBe("/en/crea-lista-nascita?tab=2#x");
  const bad = ["https://evil.example/", "//evil.example", "/\\evil.example", "/x\\y", "javascript:alert(1)", "cart", "", "/x\r\nSet-Cookie: a=b", "/\u0000x", `/${"a".repeat(2000)}`, null, undefined, 42];
  for (const value of bad) expect(sameSitePath(value), String(value)).toBeNull();
});
