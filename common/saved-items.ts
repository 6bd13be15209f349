/**
 * The wishlist and the compare list (docs/rules.md#cart): product ids only, unique, in the order
 * they were added. Browser-safe. The list rules and the cookie format live here because the browser
 * store (app/lib/browser-saved-items.ts) and the server's form action must apply the very same ones.
 *
 * With JavaScript, localStorage is the source: it is read at start and every change is written back,
 * and mirrored into a small cookie so that server rendering of /wishlist and /compare shows the same
 * products. Without JavaScript, the buttons post forms and the server keeps the lists in that cookie.
 * Whichever copy was written last wins at start (docs/decisions/0010-wishlist-and-compare.md).
 */
export type SavedListName = "wishlist" | "compare";
export const savedListNames: readonly SavedListName[] = ["wishlist", "compare"];

export type SavedLists = { readonly wishlist: readonly number[]; readonly compare: readonly number[] };

/** Compare shows at most 4 products side by side; the wishlist cap only keeps the cookie small. */
export const savedListLimits: Record<SavedListName, number> = { wishlist: 60, compare: 4 };

export const emptySavedLists: SavedLists = Object.freeze({ wishlist: Object.freeze([]), compare: Object.freeze([]) });

// ---------------------------------------------------------------- pure rules

/** The largest id PostgreSQL's `integer` holds. */
const maxProductId = 2_147_483_647;

export function isProductId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1 && value <= maxProductId;
}

/** Whatever came from storage, a cookie or a form: product ids only, first occurrence kept, at most `limit`. */
export function normaliseIds(value: unknown, limit: number): number[] {
  if (!Array.isArray(value)) return [];
  const ids: number[] = [];
  for (const entry of value as unknown[]) {
    const id = typeof entry === "string" && /^[0-9]{1,10}$/.test(entry) ? Number(entry) : entry;
    if (isProductId(id) && !ids.includes(id)) ids.push(id);
    if (ids.length >= limit) break;
  }
  return ids;
}

/** Both lists from anything (a parsed JSON value, root data); garbage gives empty lists. */
export function normaliseLists(value: unknown): SavedLists {
  if (typeof value !== "object" || value === null) return emptySavedLists;
  const record = value as Record<string, unknown>;
  return {
    wishlist: normaliseIds(record.wishlist, savedListLimits.wishlist),
    compare: normaliseIds(record.compare, savedListLimits.compare),
  };
}

export type SavedItemsChange =
  | { intent: "add"; list: SavedListName; productId: number }
  | { intent: "remove"; list: SavedListName; productId: number }
  | { intent: "clear"; list: SavedListName };

/** What a change did; with the list, also the message key of its toast (`saved.toast.{list}.{outcome}`). */
export type SavedItemsOutcome = "added" | "already-saved" | "list-full" | "removed" | "not-saved" | "cleared";

/**
 * docs/rules.md#cart: add only when the id is absent (and, for compare, while there is room);
 * delete by id; clear the whole list.
 */
export function applySavedItemsChange(lists: SavedLists, change: SavedItemsChange): { lists: SavedLists; outcome: SavedItemsOutcome } {
  const ids = lists[change.list];
  let next: readonly number[] = ids;
  let outcome: SavedItemsOutcome;
  if (change.intent === "add") {
    if (ids.includes(change.productId)) outcome = "already-saved";
    else if (ids.length >= savedListLimits[change.list]) outcome = "list-full";
    else {
      next = [...ids, change.productId];
      outcome = "added";
    }
  } else if (change.intent === "remove") {
    outcome = ids.includes(change.productId) ? "removed" : "not-saved";
    next = ids.filter((id) => id !== change.productId);
  } else {
    next = [];
    outcome = "cleared";
  }
  return { lists: next === ids ? lists : { ...lists, [change.list]: next }, outcome };
}

/** Toast kind per outcome: adds are good news, removals are information, a full list is a warning. */
export function savedItemsToastKind(outcome: SavedItemsOutcome): "success" | "info" | "warning" {
  if (outcome === "added" || outcome === "already-saved") return "success";
  if (outcome === "list-full") return "warning";
  return "info";
}

export function sameLists(a: SavedLists, b: SavedLists): boolean {
  return savedListNames.every((list) => a[list].length === b[list].length && a[list].every((id, index) => b[list][index] === id));
}

// ---------------------------------------------------------------- the cookie (server rendering and no-JS)

export const savedItemsCookieName = "saved_items";
/** One year, like the language and currency cookies. */
export const savedItemsCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

export type StampedLists = { lists: SavedLists; updatedAt: number };

/** `w=24.25.30&c=31&t=1767225600000`: ids only, under ~700 bytes at the caps. */
export function serialiseSavedItemsCookie({ lists, updatedAt }: StampedLists): string {
  return `w=${lists.wishlist.join(".")}&c=${lists.compare.join(".")}&t=${Math.max(0, Math.trunc(updatedAt))}`;
}

/** Tolerant: a missing, tampered or truncated cookie gives what can be read of it, never an error. */
export function parseSavedItemsCookie(value: string | null | undefined): StampedLists | null {
  if (!value) return null;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(decodeURIComponent(value));
  } catch {
    return null;
  }
  const idsOf = (key: string) => (params.get(key) ?? "").split(".").filter(Boolean);
  const stamp = Number(params.get("t"));
  return {
    lists: normaliseLists({ wishlist: idsOf("w"), compare: idsOf("c") }),
    updatedAt: Number.isSafeInteger(stamp) && stamp > 0 ? stamp : 0,
  };
}

/** One cookie's value out of a `Cookie` header (or `document.cookie`). */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** The whole `name=value; attributes` string, the same from the server's Set-Cookie and from `document.cookie`. */
export function savedItemsCookieString(stamped: StampedLists, secure: boolean): string {
  const attributes = [`Path=/`, `Max-Age=${savedItemsCookieMaxAgeSeconds}`, "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  return [`${savedItemsCookieName}=${serialiseSavedItemsCookie(stamped)}`, ...attributes].join("; ");
}

/** Of two copies, the one written last; the stored copy on a tie. */
export function newestCopy(stored: StampedLists | null, cookie: StampedLists | null): StampedLists | null {
  if (!cookie) return stored;
  if (!stored) return cookie;
  return cookie.updatedAt > stored.updatedAt ? cookie : stored;
}

// ---------------------------------------------------------------- the browser store

export const savedItemsStorageKey = "bimbi:saved-items";

/** What is kept in localStorage: `{ "wishlist": [ids], "compare": [ids], "updatedAt": ms }`. */
export function parseStoredSavedItems(raw: string | null): StampedLists | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return null;
    const stamp = (value as { updatedAt?: unknown }).updatedAt;
    return { lists: normaliseLists(value), updatedAt: typeof stamp === "number" && Number.isSafeInteger(stamp) && stamp > 0 ? stamp : 0 };
  } catch {
    return null;
  }
}

/** Where the store keeps its copies; tests pass fakes, the browser its own. */
export type SavedItemsBackend = {
  readStorage(): string | null;
  writeStorage(value: string): void;
  readCookies(): string;
  writeCookie(cookie: string): void;
  isSecure(): boolean;
  now(): number;
};

export type SavedItemsStore = {
  getSnapshot(): SavedLists;
  subscribe(listener: () => void): () => void;
  /** Applies a change, saves both copies and tells every subscriber. */
  change(change: SavedItemsChange): SavedItemsOutcome;
  /** Replaces both lists (after a sync with the account). */
  replace(lists: SavedLists): void;
  /** Re-reads the copies (another tab wrote them). */
  reload(): void;
};

export function createSavedItemsStore(backend: SavedItemsBackend): SavedItemsStore {
  let current: SavedLists | null = null;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  function save(lists: SavedLists) {
    const stamped = { lists, updatedAt: backend.now() };
    current = lists;
    try {
      backend.writeStorage(JSON.stringify({ ...lists, updatedAt: stamped.updatedAt }));
    } catch {
      // Storage full or disabled (private browsing): the cookie and memory still hold the lists.
    }
    backend.writeCookie(savedItemsCookieString(stamped, backend.isSecure()));
  }

  function load(): SavedLists {
    let stored: StampedLists | null;
    try {
      stored = parseStoredSavedItems(backend.readStorage());
    } catch {
      stored = null;
    }
    const cookie = parseSavedItemsCookie(readCookie(backend.readCookies(), savedItemsCookieName));
    const newest = newestCopy(stored, cookie);
    const lists = newest?.lists ?? emptySavedLists;
    // Bring the older copy up to date, so server rendering and this tab agree from now on.
    if (newest && (!stored || !cookie || stored.updatedAt !== cookie.updatedAt || !sameLists(stored.lists, cookie.lists))) {
      const stamped = { lists, updatedAt: newest.updatedAt || backend.now() };
      try {
        backend.writeStorage(JSON.stringify({ ...lists, updatedAt: stamped.updatedAt }));
      } catch {
        // Storage full or disabled: the cookie still holds the lists.
      }
      backend.writeCookie(savedItemsCookieString(stamped, backend.isSecure()));
    }
    return lists;
  }

  return {
    getSnapshot: () => (current ??= load()),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change(change) {
      const result = applySavedItemsChange((current ??= load()), change);
      if (result.lists !== current) {
        save(result.lists);
        notify();
      }
      return result.outcome;
    },
    replace(lists) {
      if (current && sameLists(current, lists)) return;
      save(normaliseLists(lists));
      notify();
    },
    reload() {
      current = load();
      notify();
    },
  };
}
