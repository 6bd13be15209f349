import { createContext } from "react-router";
import { toShellUser, type SessionUser } from "#server/accounts/session-user.ts";
import { getRootCart } from "#server/cart/cart-request.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { readSavedItemsCookie } from "#server/saved-items/saved-items.ts";
import { getGiftListChoicesAndFilling } from "#server/gift-lists/gift-list-filling.service.ts";
import { readFillingCookie } from "#app/routes/gift-lists/gift-list-filling-action.server.ts";
import type { Locale } from "#common/locale.ts";
import type { PersonalPart } from "./personal-part";

/** Set by the root loader on a document request: the personal part the server renders and writes into the page. */
export const requestPersonalPart = createContext<PersonalPart | null>(null);

/**
 * The personal part of the person asking, as the root loader gives it and as a customer's kept page is filled
 * in with it (server/http/page-cache.ts). `headers` are the cart's (a flash toast read, a forged cart cookie cleared).
 */
export async function readPersonalPart(
  services: Pick<ShopServices, "db" | "env" | "publicUrl">,
  request: Request,
  locale: Locale,
  readSessionUser: () => Promise<SessionUser | null>,
): Promise<{ part: PersonalPart; headers: Headers }> {
  const [cart, sessionUser] = await Promise.all([getRootCart(services, request, locale), readSessionUser()]);
  // Her open lists and the one she is filling, from one read of her lists.
  const giftLists = sessionUser
    ? await getGiftListChoicesAndFilling(services.db, { userId: sessionUser.id, fillingId: readFillingCookie(request), locale, now: new Date() })
    : null;
  const part: PersonalPart = {
    user: toShellUser(sessionUser),
    cart: cart.cart,
    giftListFilling: giftLists?.filling ?? null,
    giftListChoices: giftLists?.choices ?? null,
    savedItems: readSavedItemsCookie(request.headers.get("Cookie")).lists,
  };
  return { part, headers: cart.headers };
}
