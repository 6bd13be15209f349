import i18next, { type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Locale } from "./locale";

/**
 * One i18next instance per request on the server, one per page load in the browser.
 * Messages live in messages/{it,en}.json; Italian texts of SPEC.md are used verbatim.
 */
export function createI18n(locale: Locale, messages: Record<string, unknown>): i18n {
  const instance = i18next.createInstance();
  const resources: Resource = { [locale]: { translation: messages as Resource[string]["translation"] } };
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    // One namespace, keys always dotted paths. Said explicitly, i18next skips its per-call guess of whether a
    // key is a sentence or a path, which doubled the cost of every t() (a product card calls it a dozen times).
    nsSeparator: false,
    keySeparator: ".",
  });
  return instance;
}
