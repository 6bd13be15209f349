/**
 * The public list page's "give this" button: the cart action's answer (toasts in the page's language,
 * the gift-list conflict texts persistent, docs/rules.md#gift-list-mixing), a fetcher gets data, a plain form post a redirect back with
 * the toasts in the flash cookie. The cart's own rules run inside addGiftListItemToCart.
 */
import { answerCartAction, cartErrorMessage, cartFailure, cartSuccess, cartToasts, fetcherMarkerField } from "#app/routes/cart/cart-action.server.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { conflictCartErrors, type CartErrorCode } from "#server/cart/cart.ts";
import { addGiftListItemToCart } from "#server/gift-lists/gift-list-public.service.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { ShopServices } from "#server/shop-services.ts";

const ownErrors = new Set(["gift-list-item-not-found", "gift-list-closed", "gift-list-quantity-exceeded", "group-gift-only"]);

export async function handleGiftListCartAdd(services: ShopServices, request: Request, args: { code: string; locale: Locale; form: FormData }) {
  const { code, locale, form } = args;
  const t = getTranslator(locale);
  const cartRequest = readCartRequest(request, services);
  const headers = new Headers();
  if (cartRequest.forged) headers.append("Set-Cookie", cartRequest.cookieHeaders.clearCart());
  const result = await addGiftListItemToCart(services.db, {
    cartId: cartRequest.cartId,
    code,
    input: { itemId: form.get("itemId"), quantity: form.get("quantity") ?? "1" },
  });
  if (result.ok && result.cartId !== cartRequest.cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(result.cartId));
  const outcome = result.ok
    ? cartSuccess(cartToasts(t, result), result)
    : cartFailure(
        result.error as CartErrorCode,
        ownErrors.has(result.error)
          ? t(`giftLists.errors.${result.error}`, { count: result.maxAddable ?? 0 })
          : cartErrorMessage(locale, result.error as CartErrorCode, result.maxAddable),
      );
  return answerCartAction(outcome, {
    viaFetcher: form.get(fetcherMarkerField) === "1",
    headers,
    cartRequest,
    redirectTo: localizedHref(`/lista-nascita/${code}`, locale),
    isConflict: (error) => conflictCartErrors.has(error) || ownErrors.has(error),
  });
}
