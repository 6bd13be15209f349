/**
 * A page ships only the messages it renders (docs/decisions/0019-javascript-budget.md): the root sends
 * the shell's (header, footer, menus, error pages) with the first page, and each route its own page's,
 * in its loader data (added by server/http/page-messages.ts: no loader returns them itself). Both are
 * listed in the route module's `handle.messages` as key prefixes of
 * messages/*.json: a whole area ("productPage") or one text ("helpCentre.shipping.title"). Server and
 * browser render from the same picked messages, so a text a route forgot to list shows as its key on
 * the server-rendered page too (and app/lib/route-messages.test.ts finds it before that).
 */
import type { i18n } from "i18next";
import { useMatches } from "react-router";
import { usePageI18n } from "#app/ui/use-shared-texts.ts";
import type { Messages } from "#common/messages.ts";

/** Message objects already added, per i18next instance: loader data keeps its identity between renders. */
const added = new WeakMap<i18n, WeakSet<object>>();
/** Server instances built with all their page's messages (app/lib/i18n.ts serverI18nFor): nothing to add. */
const complete = new WeakSet<i18n>();

/** Adds a page's messages (root first) to a new instance, which is then complete: useRouteMessages leaves it be. */
export function addPageMessages(instance: i18n, pageMessages: readonly Messages[]) {
  for (const messages of pageMessages) instance.addResourceBundle(instance.language, "translation", messages, true, true);
  complete.add(instance);
}

/**
 * Adds the messages in every matched route's loader data to the page's i18next instance. Called at the top
 * of the root Layout, so they are there before any route renders. In the browser it adds each page's as it
 * comes; on the server the instance came with them (serverI18nFor).
 */
export function useRouteMessages() {
  // The instance itself: useTranslation() gives a new proxy of it to each render, which no WeakSet knows.
  const i18n = usePageI18n();
  const matches = useMatches();
  if (complete.has(i18n)) return;
  const seen = added.get(i18n) ?? new WeakSet<object>();
  added.set(i18n, seen);
  for (const match of matches) {
    const messages = (match.loaderData as { messages?: Messages } | undefined)?.messages;
    if (!messages || seen.has(messages)) continue;
    i18n.addResourceBundle(i18n.language, "translation", messages, true, true);
    seen.add(messages);
  }
}
