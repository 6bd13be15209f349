import { inspect } from "node:util";
import { expect, test } from "vitest";
import { pathAfterLogin } from "#server/accounts/auth.inputs.ts";
import { sameSitePath, tidyRequestTarget } from "./same-site-path";

/** Where a browser on the shop would land with this Location: the host it would ask. */
const hostReached = (location: string) => new URL(location, "https://shop.example/en/cart").host;

/** Ways to reach another host through a "path", as a person would type them once decoded. */
const tricks = [
  "https://evil.example/",
  "//evil.example",
  "///evil.example",
  "/.//evil.example/x",
  "/./\\evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/x/..//evil.example",
  "/../..//evil.example",
  "/%2F%2Fevil.example",
  "/%2f/evil.example",
  "/%5Cevil.example",
  "/%5c%5cevil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "\\\\evil.example",
  "/x\\y",
  "/\t/evil.example",
  "/\n/evil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0D%0ASet-Cookie:%20a=b",
  "/x\r\nSet-Cookie: a=b",
  "/\u0000x",
  "/\u007F/evil.example",
  " /evil.example",
  "javascript:alert(1)",
  "cart",
  "",
  `/${"a".repeat(2000)}`,
];

test("only this shop's own paths are kept, with their query and fragment", () => {
  expect(sameSitePath("/product/12?x=1")).toBe("/product/12?x=1");
  expect(sameSitePath("/en/crea-lista-nascita?tab=2#x")).toBe("/en/crea-lista-nascita?tab=2#x");
  expect(sameSitePath("/shop?q=passeggino%20leggero&page=2")).toBe("/shop?q=passeggino%20leggero&page=2");
  expect(sameSitePath("/a/./b/../c")).toBe("/a/c");
  for (const value of [null, undefined, 42, {}, ["/cart"]]) expect(sameSitePath(value), inspect(value)).toBeNull();
});

test("every normalisation trick is refused, whether it comes as a form field or in the URL's query", () => {
  for (const trick of tricks) {
    const form = new FormData();
    form.set("redirectTo", trick);
    expect(sameSitePath(form.get("redirectTo")), JSON.stringify(trick)).toBeNull();
    // In the query the browser sends it percent-encoded, and the shop reads it decoded once.
    const query = new URL(`https://shop.example/login-register?redirectTo=${encodeURIComponent(trick)}`).searchParams;
    expect(sameSitePath(query.get("redirectTo")), JSON.stringify(trick)).toBeNull();
  }
});

test("the query of the defect report goes back to the account, not off-site", () => {
  const query = new URL("https://shop.example/login-register?redirectTo=%2F.%2F%2Fevil.example%2Fx").searchParams;
  expect(pathAfterLogin(query.get("redirectTo"), "/my-account")).toBe("/my-account");
});

test("whatever is returned is a path on the same host, and reads the same when checked again", () => {
  const candidates = [...tricks, "/cart", "/en/", "/a//b", "/a/%2e%2e/b", "/a/.%2e/b?x=//evil#//evil", "/a?next=https://evil.example"];
  for (const candidate of candidates) {
    const kept = sameSitePath(candidate);
    if (kept === null) continue;
    expect(hostReached(kept), candidate).toBe("shop.example");
    expect(kept.startsWith("//") || kept.includes("\\"), candidate).toBe(false);
    expect(sameSitePath(kept), candidate).toBe(kept);
  }
  expect(sameSitePath("/a//b")).toBe("/a//b");
});

test("a request's target is tidied to a path of this shop, once: what it names stays, another host never appears", () => {
  expect(tidyRequestTarget("//evil.example/x")).toBe("/evil.example/x");
  expect(tidyRequestTarget("/en//evil.example/x?currency=USD")).toBe("/en/evil.example/x?currency=USD");
  expect(tidyRequestTarget("/.//evil.example/x")).toBe("/evil.example/x");
  expect(tidyRequestTarget("/%2e//evil.example")).toBe("/evil.example");
  expect(tidyRequestTarget("/\\evil.example")).toBe("/evil.example");
  expect(tidyRequestTarget("http://evil.example/x")).toBe("/x");
  for (const untouched of ["/", "/en", "/shop?q=//evil.example", "/product/12?x=1", "/%2F%2Fevil.example", "/shop/a.b/..c"]) {
    expect(tidyRequestTarget(untouched), untouched).toBeNull();
  }
  for (const trick of [...tricks, "//", "/./", "/a/../..//b", "/..%2f..//b"]) {
    const tidy = tidyRequestTarget(trick);
    if (tidy === null) continue;
    expect(hostReached(tidy), trick).toBe("shop.example");
    expect(tidy, trick).toMatch(/^\/(?![/\\])/);
    expect(tidyRequestTarget(tidy), trick).toBeNull();
  }
});
