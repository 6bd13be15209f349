import type { Locale } from "#app/lib/locale.ts";
import { pickMessages, type Messages, type MessagesHandle } from "#app/lib/route-messages.ts";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";

const catalogues: Record<Locale, Messages> = { it: messagesIt, en: messagesEn };
/** Picked once per route module and language: a handle is a module constant. */
const picked = new WeakMap<MessagesHandle, Partial<Record<Locale, Messages>>>();

/** What a page's loader sends for the browser's i18next: its `handle.messages`, in the page's language. */
export function getPageMessages(locale: Locale, handle: MessagesHandle): Messages {
  const byLocale = picked.get(handle) ?? {};
  picked.set(handle, byLocale);
  return (byLocale[locale] ??= pickMessages(catalogues[locale], handle.messages));
}
