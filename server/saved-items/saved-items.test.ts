import { expect, test } from "vitest";
import { buildSavedItemsSetCookie, mergeSavedIds, planAccountSync, readSavedItemsCookie } from "./saved-items";
import { parseSavedItemsForm } from "./saved-items.inputs";

test("a request without the cookie has empty lists", () => {
  expect(readSavedItemsCookie(null)).toEqual({ lists: { wishlist: [], compare: [] }, updatedAt: 0 });
  expect(readSavedItemsCookie("session=abc")).toEqual({ lists: { wishlist: [], compare: [] }, updatedAt: 0 });
});

test("the cookie written by the server is read back by the next request", () => {
  const now = new Date("2026-03-10T10:00:00Z");

  const setCookie = buildSavedItemsSetCookie({ wishlist: [24, 25], compare: [31] }, now, false);

  expect(setCookie).toBe(`saved_items=w=24.25&c=31&t=${now.getTime()}; Path=/; Max-Age=31536000; SameSite=Lax`);
  expect(readSavedItemsCookie(`lang=it; ${setCookie.split(";")[0]}`)).toEqual({
    lists: { wishlist: [24, 25], compare: [31] },
    updatedAt: now.getTime(),
  });
});

test("merging keeps the older list's order, appends the newer list's new ids, and keeps the newest past the limit", () => {
  expect(mergeSavedIds([1, 2], [2, 3], 10)).toEqual([1, 2, 3]);
  expect(mergeSavedIds([1, 2, 3], [4, 5], 4)).toEqual([2, 3, 4, 5]);
  expect(mergeSavedIds([], [], 4)).toEqual([]);
});

test("syncing with the account gives the union and says which rows to add and drop", () => {
  const plan = planAccountSync({ wishlist: [24, 30], compare: [5, 6, 7, 8] }, { wishlist: [30, 40], compare: [1, 5] });

  expect(plan.lists).toEqual({ wishlist: [30, 40, 24], compare: [5, 6, 7, 8] });
  expect(plan.insert).toEqual({ wishlist: [24], compare: [6, 7, 8] });
  // Compare holds 4: the account's oldest product gives way to the ones just picked in the browser.
  expect(plan.remove).toEqual({ wishlist: [], compare: [1] });
});

const form = (fields: Record<string, string> | [string, string][]) => new URLSearchParams(fields);

test("the list forms: add and remove need a product id, clear none", () => {
  expect(parseSavedItemsForm(form({ intent: "add", productId: "24", redirectTo: "/shop?page=2" }))).toEqual({
    ok: true,
    input: { intent: "add", productId: 24 },
    redirectTo: "/shop?page=2",
  });
  expect(parseSavedItemsForm(form({ intent: "remove", productId: "24" }))).toMatchObject({ ok: true, input: { intent: "remove", productId: 24 } });
  expect(parseSavedItemsForm(form({ intent: "clear" }))).toMatchObject({ ok: true, input: { intent: "clear" } });
});

test("bad list forms are refused with one code, never an exception", () => {
  const refused: Record<string, string>[] = [
    { intent: "add" },
    { intent: "add", productId: "0" },
    { intent: "add", productId: "-3" },
    { intent: "add", productId: "1.5" },
    { intent: "add", productId: "9999999999" },
    { intent: "remove", productId: "abc" },
    { intent: "steal" },
    {},
  ];
  for (const fields of refused) {
    expect(parseSavedItemsForm(form(fields))).toMatchObject({ ok: false, error: "invalid-request" });
  }
  expect(
    parseSavedItemsForm(
      form([
        ["intent", "add"],
        ["productId", "1"],
        ["productId", "2"],
      ]),
    ),
  ).toMatchObject({ ok: false, error: "invalid-request" });
});

test("a redirect target off this site is ignored", () => {
  for (const redirectTo of ["//evil.example/x", "https://evil.example", "/\\evil.example", "javascript:alert(1)"]) {
    expect(parseSavedItemsForm(form({ intent: "clear", redirectTo })).redirectTo).toBeNull();
  }
});

test("the sync form reads both lists tolerantly, within their limits", () => {
  expect(parseSavedItemsForm(form({ intent: "sync", wishlist: "24.25.x.24", compare: "1,2,3,4,5" }))).toMatchObject({
    ok: true,
    input: { intent: "sync", wishlist: [24, 25], compare: [1, 2, 3, 4] },
  });
  expect(parseSavedItemsForm(form({ intent: "sync" }))).toMatchObject({ ok: true, input: { intent: "sync", wishlist: [], compare: [] } });
});
