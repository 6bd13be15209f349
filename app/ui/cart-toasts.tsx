import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useFetcher } from "react-router";
import type { CartActionFailure, CartActionSuccess } from "#app/routes/cart/cart-action.server.ts";
import { useToast } from "./toaster";
import { useHydrated } from "./use-hydrated";

/**
 * What the cart action (app/routes/cart/cart-action.server.ts) answers a fetcher: the outcome and the toasts
 * to show, already in the page's language.
 */
export type CartActionData = CartActionSuccess | CartActionFailure;

type FetcherLike = { state: "idle" | "loading" | "submitting"; data?: unknown };

function isCartActionData(value: unknown): value is CartActionData {
  return typeof value === "object" && value !== null && "ok" in value && "toasts" in value && Array.isArray(value.toasts);
}

/** Answers whose toasts were shown: the same answer can be seen by a form and by the page-wide watcher. */
const shownAnswers = new WeakSet<object>();

function useShowAnswerOnce() {
  const { showToast } = useToast();
  return useCallback(
    (data: unknown): boolean => {
      if (!isCartActionData(data) || shownAnswers.has(data)) return false;
      shownAnswers.add(data);
      for (const toast of data.toasts) showToast(toast);
      return true;
    },
    [showToast],
  );
}

/** Shows the toasts of a cart fetcher's answer once, when it arrives. */
export function useCartFetcherToasts(fetcher: FetcherLike) {
  const showOnce = useShowAnswerOnce();
  useEffect(() => {
    if (fetcher.state !== "submitting") showOnce(fetcher.data);
  }, [fetcher.state, fetcher.data, showOnce]);
}

// The keys of cart fetchers whose answer is awaited. A form can be gone when its answer arrives
// (a removed line, an emptied cart): the page-wide watcher below then shows the toasts.
const awaitedKeys = new Set<string>();
const noKeys: readonly string[] = [];
// The server's snapshot until a form awaits an answer: the same array, so hydration has nothing to re-render.
let awaitedSnapshot: readonly string[] = noKeys;
const listeners = new Set<() => void>();

function publishAwaitedKeys() {
  awaitedSnapshot = [...awaitedKeys];
  for (const listener of listeners) listener();
}

/** Call when a cart fetcher form is submitted (its `onSubmit`): its answer's toasts will show even if the form goes away. */
export function awaitCartAnswer(fetcherKey: string) {
  if (awaitedKeys.has(fetcherKey)) return;
  awaitedKeys.add(fetcherKey);
  publishAwaitedKeys();
}

function forgetCartAnswer(fetcherKey: string) {
  if (awaitedKeys.delete(fetcherKey)) publishAwaitedKeys();
}

function subscribeToAwaitedKeys(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function AnswerWatcher({ fetcherKey }: { fetcherKey: string }) {
  const fetcher = useFetcher({ key: fetcherKey });
  const showOnce = useShowAnswerOnce();
  useEffect(() => {
    if (fetcher.state !== "submitting" && showOnce(fetcher.data)) forgetCartAnswer(fetcherKey);
  }, [fetcher.state, fetcher.data, fetcherKey, showOnce]);
  return null;
}

/** Page-wide (mounted with the header's mini-cart): shows the answers of the cart forms submitted. */
export function CartAnswerToasts() {
  const keys = useSyncExternalStore(
    subscribeToAwaitedKeys,
    () => awaitedSnapshot,
    () => noKeys,
  );
  return keys.map((key) => <AnswerWatcher key={key} fetcherKey={key} />);
}

/**
 * Inside every cart form: once JavaScript runs the form is sent by a fetcher and wants data back;
 * without it (no marker) the action redirects back with the toasts in a flash cookie.
 */
export function FetcherMarker() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name="js" value="1" /> : null;
}
