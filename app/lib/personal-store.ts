/**
 * The browser's copy of the personal part (decision 0095): a browser that runs the shop's scripts says so with
 * the `js` cookie, and is then given the visitors' kept pages; her header, mini cart, the product page's "in
 * your cart" and gift-list selector render from this copy after hydration. It is kept in sessionStorage with the
 * `pv` cookie's value it was read under: every post and every answer that sets a cookie (sign-in or out, a new
 * cart) give a new `pv` (server/http/page-caching.ts), and a copy under another value is fetched again (`/personal`).
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useFetchers, useNavigation } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { ToastInput } from "#app/ui/toaster.tsx";
import type { PersonalPart } from "./personal-part";

const storageKey = "personal-part";
/** The cookies' names, as the server reads them (server/http/page-caching.ts). */
const jsCookie = "js";
const versionCookie = "pv";
/** A year: the preference outlives a session, as the currency's. */
const cookieMaxAge = 365 * 24 * 60 * 60;

type Stored = { version: string; locale: Locale; part: PersonalPart };

let current: PersonalPart | null = null;
const listeners = new Set<() => void>();
let fetching: { locale: Locale; version: string; done: Promise<void> } | null = null;

function cookieValue(name: string): string {
  for (const part of document.cookie.split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return "";
}

function setCookie(name: string, value: string) {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${name}=${value}; Path=/; Max-Age=${cookieMaxAge}; SameSite=Lax${secure}`;
}

function publish(part: PersonalPart | null) {
  current = part;
  for (const listener of listeners) listener();
}

function readStored(locale: Locale): PersonalPart | null {
  try {
    const stored = JSON.parse(window.sessionStorage.getItem(storageKey) ?? "null") as Stored | null;
    return stored?.locale === locale && stored.version === cookieValue(versionCookie) ? stored.part : null;
  } catch {
    return null;
  }
}

/** Her part as answered, kept under the version the browser holds now; a flash toast is shown once, not kept. */
function remember(locale: Locale, part: PersonalPart): PersonalPart {
  const kept = part.cart.flash.length > 0 ? { ...part, cart: { ...part.cart, flash: [] } } : part;
  try {
    window.sessionStorage.setItem(storageKey, JSON.stringify({ version: cookieValue(versionCookie), locale, part: kept } satisfies Stored));
  } catch {
    // Storage full or refused (a private window): the copy lives as long as the page.
  }
  publish(kept);
  return kept;
}

/** Her part fetched afresh (one request at a time); its flash toasts are handed to `showFlash`. */
function refresh(locale: Locale, showFlash: (toast: ToastInput) => void): Promise<void> {
  const version = cookieValue(versionCookie);
  if (fetching?.locale === locale && fetching.version === version) return fetching.done;
  const done = fetch(localizedHref("/personal", locale), { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(async (response) => {
      if (!response.ok) return;
      const part = (await response.json()) as PersonalPart;
      for (const toast of part.cart.flash) showFlash(toast);
      // Asked before a change she made meanwhile: the answer to the later request is the one kept.
      if (cookieValue(versionCookie) === version) remember(locale, part);
    })
    .catch(() => {
      // Offline or the shop away: the page keeps what it shows; the next page asks again.
    })
    .finally(() => {
      if (fetching?.done === done) fetching = null;
    });
  fetching = { locale, version, done };
  return done;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Her part as the browser holds it; null on the server, while hydrating, and until it is known. */
export function useStoredPersonalPart(): PersonalPart | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/**
 * Keeps the browser's copy current, once per page (the site shell): `answered` is the personal part the page's
 * last answer carried, `shared` whether that answer was a visitor's kept one (then not hers).
 */
export function usePersonalSync(locale: Locale, answered: PersonalPart | undefined, shared: boolean, showFlash: (toast: ToastInput) => void) {
  const flash = useRef(showFlash);
  flash.current = showFlash;
  const show = (toast: ToastInput) => flash.current(toast);

  useEffect(() => {
    if (cookieValue(jsCookie) !== "1") setCookie(jsCookie, "1");
    const onVisible = () => {
      // Changed in another of her tabs meanwhile: asked again.
      if (document.visibilityState === "visible" && current && !readStored(locale)) void refresh(locale, show);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [locale]);

  useEffect(() => {
    if (!answered) return;
    // An answer made for her (a `.data` of her cart, her account): her part as it is.
    if (!shared) {
      remember(locale, answered);
      return;
    }
    const stored = readStored(locale);
    if (stored) {
      if (stored !== current) publish(stored);
    } else void refresh(locale, show);
  }, [answered, shared, locale]);

  // After each of her posts from this page (a form or a fetcher: cart, lists, sign-in or out) her part is asked again.
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const posting = isPost(navigation.formMethod) || fetchers.some((fetcher) => isPost(fetcher.formMethod));
  const wasPosting = useRef(false);
  useEffect(() => {
    // The post's answer gave a new `pv` (server/http/page-caching.ts): the copy kept is under the old one.
    if (wasPosting.current && !posting && !readStored(locale)) void refresh(locale, show);
    wasPosting.current = posting;
  }, [posting, locale]);
}

const isPost = (method: string | undefined) => method !== undefined && method.toUpperCase() !== "GET";
