import { expect, test } from "vitest";
import {
  applySavedItemsChange,
  createSavedItemsStore,
  emptySavedLists,
  normaliseIds,
  parseSavedItemsCookie,
  parseStoredSavedItems,
  readCookie,
  savedItemsCookieString,
  savedItemsStorageKey,
  serialiseSavedItemsCookie,
  type SavedItemsBackend,
  type SavedLists,
} from "./saved-items";

const lists = (wishlist: number[], compare: number[] = []): SavedLists => ({ wishlist, compare });

test("adding puts a product at the end of the list, only when it is not there yet", () => {
  const first = applySavedItemsChange(lists([24]), { intent: "add", list: "wishlist", productId: 30 });
  expect(first).toEqual({ lists: lists([24, 30]), outcome: "added" });

  const again = applySavedItemsChange(first.lists, { intent: "add", list: "wishlist", productId: 24 });
  expect(again.outcome).toBe("already-saved");
  expect(again.lists).toBe(first.lists);
});

test("compare holds at most 4 products: a fifth is refused and the list stays as it was", () => {
  const full = lists([], [1, 2, 3, 4]);

  const result = applySavedItemsChange(full, { intent: "add", list: "compare", productId: 5 });

  expect(result.outcome).toBe("list-full");
  expect(result.lists.compare).toEqual([1, 2, 3, 4]);
});

test("removing deletes by id and leaves the other list alone; clearing empties one list", () => {
  const start = lists([24, 30, 31], [30]);

  const removed = applySavedItemsChange(start, { intent: "remove", list: "wishlist", productId: 30 });
  expect(removed).toEqual({ lists: lists([24, 31], [30]), outcome: "removed" });
  expect(applySavedItemsChange(removed.lists, { intent: "remove", list: "wishlist", productId: 30 }).outcome).toBe("not-saved");

  const cleared = applySavedItemsChange(start, { intent: "clear", list: "wishlist" });
  expect(cleared).toEqual({ lists: lists([], [30]), outcome: "cleared" });
});

test("ids from outside keep only whole positive product ids, once each, up to the limit", () => {
  expect(normaliseIds([3, "4", 3, 0, -1, 1.5, "x", null, {}, 2_147_483_648, "007"], 10)).toEqual([3, 4, 7]);
  expect(normaliseIds([1, 2, 3], 2)).toEqual([1, 2]);
  expect(normaliseIds("1,2", 5)).toEqual([]);
});

test("the cookie carries ids and the time of the change, and reads back the same", () => {
  const stamped = { lists: lists([24, 25], [31]), updatedAt: 1_767_225_600_000 };

  const value = serialiseSavedItemsCookie(stamped);

  expect(value).toBe("w=24.25&c=31&t=1767225600000");
  expect(parseSavedItemsCookie(value)).toEqual(stamped);
  expect(savedItemsCookieString(stamped, true)).toBe("saved_items=w=24.25&c=31&t=1767225600000; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
});

test("a tampered or broken cookie gives what can be read of it, never an error", () => {
  expect(parseSavedItemsCookie(undefined)).toBeNull();
  expect(parseSavedItemsCookie("%E0%A4%A")).toBeNull();
  expect(parseSavedItemsCookie("w=1.x.2.2&c=1.2.3.4.5.6&t=-5")).toEqual({ lists: lists([1, 2], [1, 2, 3, 4]), updatedAt: 0 });
  expect(parseSavedItemsCookie("garbage")).toEqual({ lists: emptySavedLists, updatedAt: 0 });
});

test("a cookie is found by exact name in a Cookie header", () => {
  expect(readCookie("a=1; saved_items=w=1&c=&t=2; b=3", "saved_items")).toBe("w=1&c=&t=2");
  expect(readCookie("my_saved_items=w=9", "saved_items")).toBeUndefined();
  expect(readCookie(null, "saved_items")).toBeUndefined();
});

test("corrupted localStorage is read as empty lists", () => {
  expect(parseStoredSavedItems(null)).toBeNull();
  expect(parseStoredSavedItems("{not json")).toBeNull();
  expect(parseStoredSavedItems("42")).toBeNull();
  expect(parseStoredSavedItems('{"wishlist":"24","compare":[1,1,"2",-3],"updatedAt":"x"}')).toEqual({
    lists: lists([], [1, 2]),
    updatedAt: 0,
  });
});

/** A browser's two copies, in memory. */
function fakeBrowser(initial: { storage?: string | null; cookies?: string; storageFails?: boolean } = {}) {
  let storage = initial.storage ?? null;
  let cookies = initial.cookies ?? "";
  let clock = 1_000;
  const backend: SavedItemsBackend = {
    readStorage: () => {
      if (initial.storageFails) throw new Error("SecurityError");
      return storage;
    },
    writeStorage: (value) => {
      if (initial.storageFails) throw new Error("QuotaExceededError");
      storage = value;
    },
    readCookies: () => cookies,
    // Like document.cookie: assigning sets one cookie; only name=value is kept readable.
    writeCookie: (cookie) => {
      cookies = cookie.split(";")[0]!;
    },
    isSecure: () => false,
    now: () => ++clock,
  };
  return { backend, storage: () => storage, cookies: () => cookies };
}

test("the store saves every change to localStorage and mirrors it into the cookie", () => {
  const browser = fakeBrowser();
  const store = createSavedItemsStore(browser.backend);
  let notified = 0;
  store.subscribe(() => notified++);

  expect(store.getSnapshot()).toEqual(emptySavedLists);
  expect(store.change({ intent: "add", list: "wishlist", productId: 24 })).toBe("added");
  expect(store.change({ intent: "add", list: "wishlist", productId: 24 })).toBe("already-saved");
  expect(store.change({ intent: "add", list: "compare", productId: 30 })).toBe("added");

  expect(store.getSnapshot()).toEqual(lists([24], [30]));
  expect(notified).toBe(2);
  expect(JSON.parse(browser.storage()!)).toMatchObject({ wishlist: [24], compare: [30] });
  expect(parseSavedItemsCookie(readCookie(browser.cookies(), "saved_items"))?.lists).toEqual(lists([24], [30]));
});

test("a reload starts from what was saved", () => {
  const browser = fakeBrowser();
  createSavedItemsStore(browser.backend).change({ intent: "add", list: "wishlist", productId: 24 });

  const reloaded = createSavedItemsStore(browser.backend);

  expect(reloaded.getSnapshot()).toEqual(lists([24]));
});

test("at start the newer copy wins: a change made without JavaScript (cookie) over older storage", () => {
  const browser = fakeBrowser({
    storage: JSON.stringify({ wishlist: [24], compare: [], updatedAt: 500 }),
    cookies: "saved_items=w=24.25&c=31&t=900",
  });

  const store = createSavedItemsStore(browser.backend);

  expect(store.getSnapshot()).toEqual(lists([24, 25], [31]));
  expect(JSON.parse(browser.storage()!)).toEqual({ wishlist: [24, 25], compare: [31], updatedAt: 900 });
});

test("at start newer storage wins over an older cookie, and the cookie is brought up to date", () => {
  const browser = fakeBrowser({
    storage: JSON.stringify({ wishlist: [40], compare: [], updatedAt: 900 }),
    cookies: "other=1; saved_items=w=24&c=&t=500",
  });

  expect(createSavedItemsStore(browser.backend).getSnapshot()).toEqual(lists([40]));
  expect(browser.cookies()).toBe("saved_items=w=40&c=&t=900");
});

test("with storage unavailable the lists still work through the cookie", () => {
  const browser = fakeBrowser({ storageFails: true });
  const store = createSavedItemsStore(browser.backend);

  store.change({ intent: "add", list: "compare", productId: 7 });

  expect(store.getSnapshot()).toEqual(lists([], [7]));
  expect(createSavedItemsStore(browser.backend).getSnapshot()).toEqual(lists([], [7]));
});

test("corrupted storage does not break the store", () => {
  const browser = fakeBrowser({ storage: "][" });

  const store = createSavedItemsStore(browser.backend);

  expect(store.getSnapshot()).toEqual(emptySavedLists);
  expect(store.change({ intent: "add", list: "wishlist", productId: 3 })).toBe("added");
  expect(savedItemsStorageKey).toBe("bimbi:saved-items");
});

test("replacing the lists (after an account sync) notifies only when something changed", () => {
  const browser = fakeBrowser();
  const store = createSavedItemsStore(browser.backend);
  let notified = 0;
  store.subscribe(() => notified++);
  store.getSnapshot();

  store.replace(lists([1, 2], [3]));
  store.replace(lists([1, 2], [3]));

  expect(store.getSnapshot()).toEqual(lists([1, 2], [3]));
  expect(notified).toBe(1);
});
