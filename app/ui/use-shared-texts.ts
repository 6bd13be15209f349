import { useContext } from "react";
import { getI18n, I18nContext } from "react-i18next";
import type { i18n as I18n } from "i18next";

type TextValues = Record<string, string | number>;

/**
 * The page's i18next instance, as I18nextProvider gives it (app/entry.server.tsx, app/entry.client.tsx),
 * without what useTranslation() does on every call: a fixed t() and a proxy of the instance for each
 * component, and a subscription that re-renders it when the language changes, which never happens without a
 * page load (decision 0019). For the components a page renders many copies of (a listing's 24 cards).
 */
export function usePageI18n(): I18n {
  return useContext(I18nContext)?.i18n ?? getI18n();
}

/** t() of the page's instance: for texts that differ on every copy of a component (a product's name in them). */
export function usePageT(): I18n["t"] {
  return usePageI18n().t;
}

/**
 * Per i18next instance (on the server, shared by the requests for one page's messages; in the browser, the page
 * load's): text by key and values. Its keys are bounded: values here are ratings, percents and the marker.
 */
const textsByInstance = new WeakMap<I18n, Map<string, string>>();

/** Stands in for a copy's own value while i18next builds a text once (a private-use character no message has). */
const valueMarker = "\uE000";

export type SharedTexts = {
  /** A text every copy renders alike ("Nuovo"), or alike for the same values ("Valutazione: 4 su 5"). */
  text: (key: string, values?: TextValues) => string;
  /**
   * A text around one value that differs on every copy ("Aggiungi {{name}} alla lista dei desideri"): i18next
   * builds it once around a marker and each copy puts its value in; i18next itself when the marker does not
   * come through once (a format applied to the value).
   */
  textAround: (key: string, valueName: string, value: string) => string;
};

/**
 * t() for the texts that many copies of a component render on one page: the 24 cards of a listing all say
 * "Seleziona opzioni" or "Nuovo", and "Aggiungi … alla lista dei desideri" with their product's name. Each
 * text is translated once per i18next instance and then read from a map; a t() call costs about 15 µs on the
 * server, and a listing's cards made some 250 of them.
 */
export function useSharedTexts(): SharedTexts {
  const i18n = usePageI18n();
  let cache = textsByInstance.get(i18n);
  if (!cache) {
    cache = new Map();
    textsByInstance.set(i18n, cache);
  }
  const texts = cache;
  const text = (key: string, values?: TextValues) => {
    const id = values ? `${key}|${JSON.stringify(values)}` : key;
    let found = texts.get(id);
    if (found === undefined) {
      found = values ? i18n.t(key, values) : i18n.t(key);
      texts.set(id, found);
    }
    return found;
  };
  const textAround = (key: string, valueName: string, value: string) => {
    const [before, after, ...more] = text(key, { [valueName]: valueMarker }).split(valueMarker);
    return after !== undefined && more.length === 0 ? `${before}${value}${after}` : i18n.t(key, { [valueName]: value });
  };
  return { text, textAround };
}
