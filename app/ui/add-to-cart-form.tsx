import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFetcher, useFetchers, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { usePersonalAnswer } from "#app/lib/root-data.ts";
import { getQuantityInCart } from "#common/variant-selection.ts";
import { awaitCartAnswer, FetcherMarker, useCartFetcherToasts, type CartActionData } from "./cart-toasts";

/** The fetcher key prefix of every add-to-cart form, so the header can count pending adds. */
export const addToCartFetcherPrefix = "add-to-cart:";

/**
 * A form that adds a variant to the cart: a fetcher post (no reload) when JavaScript runs, a plain
 * form post that comes back to this page with a flash toast when it does not. `children` are the
 * extra fields: a quantity input named `quantity` (1 when absent) and personalisation inputs named
 * `personalisation.0`, `personalisation.1`, ... The server applies every cart rule again.
 */
export function AddToCartForm({
  id,
  variantId,
  children,
  disabled = false,
  label,
  className = "",
  buttonClassName = "btn-primary",
}: {
  /** Lets a button elsewhere on the page submit this form (the phone's sticky add bar). */
  id?: string;
  variantId: number;
  children?: ReactNode;
  disabled?: boolean;
  label?: string;
  className?: string;
  buttonClassName?: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const key = `${addToCartFetcherPrefix}${variantId}`;
  const fetcher = useFetcher<CartActionData>({ key });
  useCartFetcherToasts(fetcher);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form id={id} method="post" action={localizedHref("/cart", locale)} className={className} onSubmit={() => awaitCartAnswer(key)}>
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="variantId" value={variantId} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <FetcherMarker />
      {children}
      <button
        type="submit"
        className={`${buttonClassName} disabled:cursor-not-allowed disabled:opacity-60`}
        disabled={disabled}
        aria-busy={busy || undefined}
      >
        {label ?? t("cart.addToCart")}
      </button>
    </fetcher.Form>
  );
}

/** How many units of `variantId` the cart holds (over all its lines), counting adds still on their way; 0 for none. */
export function useCartQuantity(variantId: number | undefined): number {
  const inCart = usePersonalAnswer(`cart quantity ${variantId}`, (part) => getQuantityInCart(part.cart.lines, variantId)) ?? 0;
  // Variant ids start at 1: 0 matches no pending add.
  return inCart + usePendingAddQuantity(variantId ?? 0);
}

/** Units being added right now by add-to-cart fetchers (all variants, or one): the optimistic part of the count. */
export function usePendingAddQuantity(variantId?: number): number {
  const fetchers = useFetchers();
  let pending = 0;
  for (const fetcher of fetchers) {
    if (!fetcher.key.startsWith(addToCartFetcherPrefix) || fetcher.state !== "submitting" || !fetcher.formData) continue;
    if (variantId !== undefined && Number(fetcher.formData.get("variantId")) !== variantId) continue;
    const quantity = Number(fetcher.formData.get("quantity") ?? 1);
    if (Number.isSafeInteger(quantity) && quantity > 0) pending += quantity;
  }
  return pending;
}
