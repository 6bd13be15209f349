/**
 * The one cart action (Hydrogen style): parse the form once, run the use-case for its `intent`,
 * answer a fetcher with data and toasts, or a plain form post (no JavaScript) with a redirect back
 * and the toasts in a flash cookie.
 */
import { data, redirect } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { saveBasket } from "#server/cart/basket.service.ts";
import type { FlashToast } from "#server/cart/cart-cookie.ts";
import { readCartRequest, type CartRequest } from "#server/cart/cart-request.ts";
import { parseCartForm } from "#server/cart/cart.inputs.ts";
import {
  addToCart,
  clearCart,
  decreaseCartLine,
  increaseCartLine,
  removeCartLine,
  type AddToCartResult,
  type ChangeCartResult,
} from "#server/cart/cart.service.ts";
import { conflictCartErrors, persistentCartErrors, type CartErrorCode } from "#server/cart/cart.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { clearCartVouchers } from "#server/vouchers/voucher.service.ts";
import type { ShopServices } from "#server/shop-services.ts";

/** Set by the page's forms once JavaScript runs (fetcher posts want data, not a redirect). */
export const fetcherMarkerField = "js";

export type CartActionSuccess = {
  ok: true;
  toast: FlashToast;
  toasts: FlashToast[];
  /** Units in the cart now. */
  count: number;
  /** The line an add or increase went to, and its quantity now. */
  line?: { id: string; quantity: number };
};
export type CartActionFailure = {
  ok: false;
  error: CartErrorCode;
  message: string;
  toast: FlashToast;
  toasts: FlashToast[];
};

export function cartErrorMessage(locale: Locale, error: CartErrorCode, maxAddable?: number): string {
  const t = getTranslator(locale);
  return t(`cart.errors.${error}`, { count: maxAddable ?? 0 });
}

/** A refusal with its message; the gift-list conflict texts stay on screen until closed (docs/rules.md#gift-list-mixing). */
export function cartFailure(error: CartErrorCode, message: string): CartActionFailure {
  const toast: FlashToast = { kind: "error", message, error, ...(persistentCartErrors.has(error) ? { persistent: true } : {}) };
  return { ok: false, error, message, toast, toasts: [toast] };
}

function failure(locale: Locale, error: CartErrorCode, maxAddable?: number): CartActionFailure {
  return cartFailure(error, cartErrorMessage(locale, error, maxAddable));
}

export function cartSuccess(toasts: FlashToast[], result: AddToCartResult | ChangeCartResult): CartActionSuccess {
  const count = result.ok ? result.count : 0;
  const line = result.ok && "lineId" in result ? { id: result.lineId, quantity: result.lineQuantity } : undefined;
  return { ok: true, toast: toasts[0]!, toasts, count, ...(line ? { line } : {}) };
}

export async function handleCartAction(services: ShopServices, request: Request, locale: Locale) {
  const t = getTranslator(locale);
  const cartRequest = readCartRequest(request, services);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    form = new FormData();
  }
  const viaFetcher = form.get(fetcherMarkerField) === "1";
  const parsed = parseCartForm(form);
  const cartPath = localizedHref("/cart", locale);
  const headers = new Headers();
  if (cartRequest.forged) headers.append("Set-Cookie", cartRequest.cookieHeaders.clearCart());

  let outcome: CartActionSuccess | CartActionFailure;
  if (!parsed.ok) {
    outcome = failure(locale, parsed.error);
  } else {
    const { input } = parsed;
    const cartId = cartRequest.cartId;
    if (input.intent === "share") {
      const saved = await saveBasket(services.db, { cartId });
      if (saved.ok) return redirect(`${localizedHref(`/basket/${saved.id}`, locale)}?saved=1`, { headers });
      outcome = failure(locale, saved.error);
    } else {
      let result: AddToCartResult | ChangeCartResult;
      if (input.intent === "add") {
        result = await addToCart(services.db, {
          cartId,
          variantId: input.variantId,
          quantity: input.quantity,
          personalisation: input.personalisation,
        });
      } else if (input.intent === "increase") {
        result = await increaseCartLine(services.db, { cartId, lineId: input.lineId });
      } else if (input.intent === "decrease") {
        result = await decreaseCartLine(services.db, { cartId, lineId: input.lineId });
      } else if (input.intent === "remove") {
        result = await removeCartLine(services.db, { cartId, lineId: input.lineId });
      } else {
        // "Remove all" takes the voucher lines too (gift cards, fund contributions).
        const vouchersCleared = await clearCartVouchers(services.db, cartId);
        result = await clearCart(services.db, { cartId });
        if (!result.ok && result.error === "cart-empty" && vouchersCleared > 0 && cartId) result = { ok: true, cartId, change: "cleared", count: 0 };
      }
      if (!result.ok) {
        outcome = failure(locale, result.error, result.maxAddable);
      } else {
        if (result.cartId !== cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(result.cartId));
        outcome = cartSuccess(cartToasts(t, result), result);
      }
    }
  }

  return answerCartAction(outcome, { viaFetcher, headers, cartRequest, redirectTo: parsed.redirectTo ?? cartPath });
}

/**
 * A fetcher gets the outcome as data (409 for a refusal caused by the cart's state, else 400); a
 * plain form post a redirect back with the toasts in the flash cookie.
 */
export function answerCartAction(
  outcome: CartActionSuccess | CartActionFailure,
  args: { viaFetcher: boolean; headers: Headers; cartRequest: CartRequest; redirectTo: string; isConflict?: (error: CartErrorCode) => boolean },
) {
  const { headers } = args;
  if (args.viaFetcher) {
    const isConflict = args.isConflict ?? ((error: CartErrorCode) => conflictCartErrors.has(error));
    const status = outcome.ok ? 200 : isConflict(outcome.error) ? 409 : 400;
    return data(outcome, { status, headers });
  }
  headers.append("Set-Cookie", args.cartRequest.cookieHeaders.flash(outcome.toasts));
  return redirect(args.redirectTo, { status: 303, headers });
}

/** The toasts of a successful add or change, in the page's language. */
export function cartToasts(t: ReturnType<typeof getTranslator>, result: AddToCartResult | ChangeCartResult): FlashToast[] {
  if (!result.ok) return [];
  if ("change" in result) {
    if (result.change === "cleared") return [{ kind: "error", message: t("cart.toast.cleared") }];
    if (result.change === "removed") return [{ kind: "error", message: t("cart.toast.removed") }];
    return [{ kind: "warning", message: t("cart.toast.decreased") }];
  }
  const toasts: FlashToast[] = [{ kind: "success", message: t("cart.toast.added") }];
  if (result.warning === "preorder") toasts.push({ kind: "warning", message: t("cart.toast.preorder") });
  return toasts;
}
