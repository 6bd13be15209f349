import { createContext } from "react-router";
import { toShellUser, type SessionUser } from "#server/accounts/session-user.ts";
import { getRootCart } from "#server/cart/cart-request.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { readSavedItemsCookie } from "#server/saved-items/saved-items.ts";
import { listMyGiftListChoices } from "#server/gift-lists/gift-list.service.ts";
import { readGiftListFilling } from "#app/routes/gift-lists/gift-list-filling-action.server.ts";
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
  const [giftListFilling, giftListChoices] = sessionUser
    ? await Promise.all([
        readGiftListFilling(services, request, { userId: sessionUser.id, locale }),
        listMyGiftListChoices(services.db, sessionUser.id),
      ])
    : [null, null];
  const part: PersonalPart = {
    user: toShellUser(sessionUser),
    cart: cart.cart,
    giftListFilling,
    giftListChoices,
    savedItems: readSavedItemsCookie(request.headers.get("Cookie")).lists,
  };
  return { part, headers: cart.headers };
}
