import i18next, { type i18n, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Locale } from "./locale";
import { addPageMessages, type Messages } from "./route-messages";

/**
 * One i18next instance per page load in the browser; on the server one per page's messages, shared by its
 * requests (serverI18nFor below).
 * Messages live in messages/{it,en}.json; Italian texts of SPEC.md are used verbatim.
 */
export function createI18n(locale: Locale, messages: Record<string, unknown>): i18n {
  const instance = i18next.createInstance();
  const resources: Resource = { [locale]: { translation: messages } };
  // With the resources given and no backend, init is done before it returns: nothing to wait for.
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

/** A number per messages object: the picked messages are module constants (server/i18n/page-messages.ts). */
const messagesIds = new WeakMap<object, number>();
let nextMessagesId = 0;
const serverInstances = new Map<string, i18n>();
/** Bounds the kept instances should some loader's messages ever be a new object per request. */
const maxServerInstances = 400;

/**
 * The server's i18next instance for a page whose loader data carry `pageMessages` (root first), with those
 * messages: one per language and combination of messages, shared by every request for such a page. Building
 * an instance and adding its messages (a deep merge) cost about a millisecond per request; translating only
 * reads it. It holds only the page's own messages, so the server still renders from the same picked messages
 * as the browser (app/lib/route-messages.ts).
 */
export function serverI18nFor(locale: Locale, pageMessages: readonly Messages[]): i18n {
  const key = [
    locale,
    ...pageMessages.map((messages) => {
      let id = messagesIds.get(messages);
      if (id === undefined) messagesIds.set(messages, (id = nextMessagesId++));
      return id;
    }),
  ].join(" ");
  let instance = serverInstances.get(key);
  if (!instance) {
    if (serverInstances.size >= maxServerInstances) serverInstances.delete(serverInstances.keys().next().value!);
    instance = createI18n(locale, {});
    addPageMessages(instance, pageMessages);
    serverInstances.set(key, instance);
  }
  return instance;
}
