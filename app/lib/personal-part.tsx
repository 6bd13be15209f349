/**
 * What a page shows of the person asking (signed-in user, cart, the gift list being filled, saved items),
 * apart from the root loader's data for everyone. A document carries it as one JSON script read at hydration,
 * so that its loader data is the same for a visitor and a customer; a client navigation's `.data` carries it in
 * the root's loader data (decision 0076, "filled-in pages"). `useRootData()` gives both merged.
 */
import { createContext, useContext } from "react";
import { jsonInScript } from "./script-json";
import type { getRootCart } from "#server/cart/cart-request.ts";
import type { readSavedItemsCookie } from "#server/saved-items/saved-items.ts";
import type { GiftListFilling } from "#server/gift-lists/gift-list-filling.service.ts";
import type { ShellUser } from "#app/ui/account-menu.tsx";
import type { GiftListChoice } from "#server/gift-lists/gift-list.service.ts";

export type PersonalPart = {
  /** The signed-in user (session cookie or bearer token): the header's account menu shows both states. */
  user: ShellUser | null;
  /** Cart count, mini-cart lines and the flash toasts of a post made without JavaScript. */
  cart: Awaited<ReturnType<typeof getRootCart>>["cart"];
  /** The list the owner chose to fill while browsing ("Aggiungi prodotti"): its bar and the cards' add buttons. */
  giftListFilling: GiftListFilling | null;
  /** A signed-in customer's open gift lists, for the product page's "add to my gift list"; null for a visitor. */
  giftListChoices: GiftListChoice[] | null;
  /** Wishlist and compare ids of the saved_items cookie: the header counts of the server-rendered page. */
  savedItems: ReturnType<typeof readSavedItemsCookie>["lists"];
};

/** The document's personal part: the request's on the server (personal-part.server.ts), the page's script in the browser. */
export const DocumentPersonalPart = createContext<PersonalPart | null>(null);

const scriptId = "personal-part";

/** The document's personal part as data for the browser (not run: its type is JSON). */
export function PersonalPartScript() {
  const part = useContext(DocumentPersonalPart);
  if (!part) return null;
  return <script type="application/json" id={scriptId} dangerouslySetInnerHTML={{ __html: jsonInScript(part) }} />;
}

/** The markup `PersonalPartScript` renders for `part`, as a filled-in page writes it (personal-fill.server.tsx). */
export function personalPartScript(part: PersonalPart): string {
  return `<script type="application/json" id="${scriptId}">${jsonInScript(part)}</script>`;
}

/** In the browser, before hydration: the part the server wrote into the page; null when it wrote none. */
export function readDocumentPersonalPart(): PersonalPart | null {
  const text = document.getElementById(scriptId)?.textContent;
  return text ? (JSON.parse(text) as PersonalPart) : null;
}
