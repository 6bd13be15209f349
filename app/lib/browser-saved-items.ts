/**
 * The browser's copy of the wishlist and the compare list: one store per page over localStorage and the
 * saved_items cookie, with the rules of common/saved-items.ts.
 */
import { useSyncExternalStore } from "react";
import {
  createSavedItemsStore,
  emptySavedLists,
  sameLists,
  savedItemsStorageKey,
  type SavedItemsBackend,
  type SavedItemsChange,
  type SavedItemsOutcome,
  type SavedItemsStore,
  type SavedLists,
} from "#common/saved-items.ts";
import { useRootData } from "./root-data";

const browserBackend: SavedItemsBackend = {
  readStorage: () => window.localStorage.getItem(savedItemsStorageKey),
  writeStorage: (value) => window.localStorage.setItem(savedItemsStorageKey, value),
  readCookies: () => document.cookie,
  writeCookie: (cookie) => {
    document.cookie = cookie;
  },
  isSecure: () => window.location.protocol === "https:",
  now: () => Date.now(),
};

let browserStore: SavedItemsStore | undefined;

/** The page's one store; only ever called in the browser. */
function getBrowserStore(): SavedItemsStore {
  if (!browserStore) {
    const store = createSavedItemsStore(browserBackend);
    window.addEventListener("storage", (event) => {
      if (event.key === savedItemsStorageKey || event.key === null) store.reload();
    });
    browserStore = store;
  }
  return browserStore;
}

const subscribe = (listener: () => void) => getBrowserStore().subscribe(listener);
const getSnapshot = () => getBrowserStore().getSnapshot();

/**
 * Both lists, kept current. The server (and hydration) see `serverLists`, else what the root loader
 * read from the saved_items cookie, so the server-rendered header counts are right without JavaScript.
 */
export function useSavedItems(serverLists?: SavedLists): SavedLists {
  const fromRoot = useRootData()?.savedItems;
  const server = serverLists ?? fromRoot ?? emptySavedLists;
  // While the browser holds the same ids, its lists are the server's object: a different object would make
  // React re-render every saved-items button at once, synchronously, right after hydration.
  const getSameSnapshot = () => {
    const lists = getSnapshot();
    return sameLists(lists, server) ? server : lists;
  };
  return useSyncExternalStore(subscribe, getSameSnapshot, () => server);
}

export function changeSavedItems(change: SavedItemsChange): SavedItemsOutcome {
  return getBrowserStore().change(change);
}

/** The lists as the browser holds them right now (outside React rendering). */
export function readSavedItems(): SavedLists {
  return getBrowserStore().getSnapshot();
}

export function replaceSavedItems(lists: SavedLists): void {
  getBrowserStore().replace(lists);
}
