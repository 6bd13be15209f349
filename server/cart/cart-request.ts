/**
 * The cart as loaders and actions meet it: the signed cookie of the request, the cookies a response
 * must set, and the small summary every page gets from the root loader.
 */
import { localeOfPath, type Locale } from "#common/locale.ts";
import type { ShopServices } from "#server/shop-services.ts";
import {
  cartCookieHeader,
  cartCookieKeyOf,
  clearCartCookieHeader,
  clearFlashCookieHeader,
  cookieOptionsFor,
  flashCookieHeader,
  readCartCookie,
  readFlashCookie,
  type FlashToast,
} from "./cart-cookie";
import { getCartView, toCartSummary, type CartSummary } from "./cart-view.service";

export type CartRequest = {
  cartId: string | null;
  /** A cart cookie came with a bad signature: it is cleared and a fresh cart starts. */
  forged: boolean;
  flash: FlashToast[];
  cookieHeaders: {
    cart: (cartId: string) => string;
    clearCart: () => string;
    flash: (toasts: readonly FlashToast[]) => string;
    clearFlash: () => string;
  };
};

export function readCartRequest(request: Request, services: Pick<ShopServices, "env" | "publicUrl">): CartRequest {
  const key = cartCookieKeyOf(services.env);
  const options = cookieOptionsFor(services.publicUrl);
  const cookie = request.headers.get("Cookie");
  const { cartId, forged } = readCartCookie(cookie, key);
  return {
    cartId,
    forged,
    flash: readFlashCookie(cookie, key),
    cookieHeaders: {
      cart: (id) => cartCookieHeader(id, key, options),
      clearCart: () => clearCartCookieHeader(options),
      // Written in the language of the page that posted; getRootCart shows them only on a page in that language.
      flash: (toasts) =>
        flashCookieHeader(
          toasts.map((toast) => ({ ...toast, locale: localeOfPath(new URL(request.url).pathname) })),
          key,
          options,
        ),
      clearFlash: () => clearFlashCookieHeader(options),
    },
  };
}

export type RootCart = CartSummary & { /** Toasts of a post made without JavaScript, shown once. */ flash: FlashToast[] };

/**
 * The root loader's `cart`: count, mini-cart lines, subtotal and gift list, plus the flash toasts.
 * `headers` clear the flash once read and a forged cart cookie.
 */
export async function getRootCart(
  services: Pick<ShopServices, "db" | "env" | "publicUrl">,
  request: Request,
  locale: Locale,
  now = new Date(),
): Promise<{ cart: RootCart; headers: Headers }> {
  const cartRequest = readCartRequest(request, services);
  const view = await getCartView(services.db, { cartId: cartRequest.cartId, locale, now });
  const headers = new Headers();
  if (cartRequest.flash.length > 0) headers.append("Set-Cookie", cartRequest.cookieHeaders.clearFlash());
  if (cartRequest.forged) headers.append("Set-Cookie", cartRequest.cookieHeaders.clearCart());
  // A toast written in the other language (the visitor switched language before it was shown) is dropped, not shown untranslated.
  const flash = cartRequest.flash.filter((toast) => (toast.locale ?? locale) === locale).map(({ locale: _written, ...toast }) => toast);
  return { cart: { ...toCartSummary(view), flash }, headers };
}
