import i18next, { type i18n, type Module, type Resource } from "i18next";
import type { Locale } from "./locale";

/**
 * An i18next instance with the shop's options, for the pages (app/lib/i18n.ts adds React's binding) and for
 * the server's own texts (server/i18n/translator.ts). Messages live in messages/{it,en}.json; Italian texts
 * of docs/rules.md#what-the-shop-is are used verbatim.
 */
export function createI18next(locale: Locale, messages: Record<string, unknown>, plugins: readonly Module[] = []): i18n {
  const instance = i18next.createInstance();
  for (const plugin of plugins) instance.use(plugin);
  const resources: Resource = { [locale]: { translation: messages } };
  void instance.init({
    lng: locale,
    fallbackLng: false,
    resources,
    initAsync: false,
    // Whoever renders escapes: React on the pages, the mail templates their own HTML.
    interpolation: { escapeValue: false },
    returnNull: false,
    // One namespace, keys always dotted paths. Said explicitly, i18next skips its per-call guess of whether a
    // key is a sentence or a path, which doubled the cost of every t() (a product card calls it a dozen times).
    nsSeparator: false,
    keySeparator: ".",
  });
  return instance;
}
