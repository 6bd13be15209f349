/**
 * Server-side rules of the wishlist and the compare list: the cookie kept for visitors without
 * JavaScript, and the merge with a signed-in customer's lists. The list rules themselves (add only
 * when absent, the compare limit, the cookie format) are in common/saved-items.ts, shared with the
 * browser store so both apply the very same ones. Pure: no db, env or clock.
 */
import {
  emptySavedLists,
  normaliseIds,
  parseSavedItemsCookie,
  readCookie,
  savedItemsCookieName,
  savedItemsCookieString,
  savedListLimits,
  savedListNames,
  type SavedListName,
  type SavedLists,
  type StampedLists,
} from "#common/saved-items.ts";

/** The lists a request's cookie carries (empty lists when it has none or it is unreadable). */
export function readSavedItemsCookie(cookieHeader: string | null | undefined): StampedLists {
  return parseSavedItemsCookie(readCookie(cookieHeader, savedItemsCookieName)) ?? { lists: emptySavedLists, updatedAt: 0 };
}

/** The `Set-Cookie` value that stores `lists`, stamped `now` so the browser store knows it is newer. */
export function buildSavedItemsSetCookie(lists: SavedLists, now: Date, secure: boolean): string {
  return savedItemsCookieString({ lists, updatedAt: now.getTime() }, secure);
}

/**
 * Union of two lists: the older list's ids in order, then the newer list's new ones. Past `limit`
 * the oldest ids give way, so the products added last are the ones kept.
 */
export function mergeSavedIds(older: readonly number[], newer: readonly number[], limit: number): number[] {
  const union = normaliseIds([...older, ...newer], Number.MAX_SAFE_INTEGER);
  return union.slice(Math.max(0, union.length - limit));
}

export type AccountSyncPlan = {
  /** What the browser and the account both hold afterwards. */
  lists: SavedLists;
  /** Rows to add to, and to take off, the account's lists. */
  insert: Record<SavedListName, number[]>;
  remove: Record<SavedListName, number[]>;
};

/**
 * Merging the browser's lists into the account's: the account's products, then the browser's new
 * ones; a list past its limit (compare: 4) keeps the most recently added.
 */
export function planAccountSync(browser: SavedLists, account: SavedLists): AccountSyncPlan {
  const merged = {} as Record<SavedListName, number[]>;
  const insert = {} as Record<SavedListName, number[]>;
  const remove = {} as Record<SavedListName, number[]>;
  for (const list of savedListNames) {
    merged[list] = mergeSavedIds(account[list], browser[list], savedListLimits[list]);
    insert[list] = merged[list].filter((id) => !account[list].includes(id));
    remove[list] = account[list].filter((id) => !merged[list].includes(id));
  }
  return { lists: merged, insert, remove };
}
