/**
 * The public list page's "give this" button: the cart action's answer (toasts in the page's language,
 * the SPEC.md conflict texts persistent), a fetcher gets data, a plain form post a redirect back with
 * the toasts in the flash cookie. The cart's own rules run inside addGiftListItemToCart.
 */
import { data, redirect } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { conflictCartErrors, persistentCartErrors, type CartErrorCode } from "#server/cart/cart.ts";
import { cartErrorMessage, fetcherMarkerField, type CartActionFailure, type CartActionSuccess } from "#server/cart/cart-action.ts";
import type { FlashToast } from "#server/cart/cart-cookie.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import type { ShopServices } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { addGiftListItemToCart } from "./gift-list-public.service";

const ownErrors = new Set(["gift-list-item-not-found", "gift-list-closed", "gift-list-quantity-exceeded"]);

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
  let outcome: CartActionSuccess | CartActionFailure;
  if (result.ok) {
    if (result.cartId !== cartRequest.cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(result.cartId));
    const toasts: FlashToast[] = [{ kind: "success", message: t("cart.toast.added") }];
    if (result.warning === "preorder") toasts.push({ kind: "warning", message: t("cart.toast.preorder") });
    outcome = { ok: true, toast: toasts[0]!, toasts, count: result.count, line: { id: result.lineId, quantity: result.lineQuantity } };
  } else {
    const message = ownErrors.has(result.error)
      ? t(`giftLists.errors.${result.error}`, { count: result.maxAddable ?? 0 })
      : cartErrorMessage(locale, result.error as CartErrorCode, result.maxAddable);
    const toast: FlashToast = { kind: "error", message, ...(persistentCartErrors.has(result.error as CartErrorCode) ? { persistent: true } : {}) };
    outcome = { ok: false, error: result.error as CartErrorCode, message, toast, toasts: [toast] };
  }
  if (form.get(fetcherMarkerField) === "1") {
    const status = outcome.ok ? 200 : conflictCartErrors.has(outcome.error) || ownErrors.has(outcome.error) ? 409 : 400;
    return data(outcome, { status, headers });
  }
  headers.append("Set-Cookie", cartRequest.cookieHeaders.flash(outcome.toasts));
  return redirect(localizedHref(`/lista-nascita/${code}`, locale), { status: 303, headers });
}
