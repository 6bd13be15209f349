/**
 * The pieces shared by the wishlist and compare buttons and pages: the form that changes a list, the
 * round icon button, and how a saved product's availability and buying action are shown.
 */
import { useEffect, useEffectEvent, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { useRootData, useRootDataForEvents } from "#app/lib/root-data.ts";
import { changeSavedItems, readSavedItems, replaceSavedItems, useSavedItems } from "#app/lib/browser-saved-items.ts";
import {
  normaliseLists,
  savedItemsToastKind,
  savedListLimits,
  type SavedItemsChange,
  type SavedListName,
  type SavedLists,
} from "#common/saved-items.ts";
import type { SavedProduct } from "#server/saved-items/saved-items.service.ts";
import { AddToCartForm } from "./add-to-cart-form";
import { StarRatingIcon } from "./icons";
import { useToast } from "./toaster";
import { usePageT } from "./use-shared-texts";
import { useHydrated } from "./use-hydrated";

/**
 * A form that adds, removes or clears in the wishlist or the compare list. Without JavaScript it posts
 * to the list's page action, which keeps the lists in a cookie and comes back here. With JavaScript
 * the browser store changes at once (localStorage), a toast says what happened and, for a signed-in
 * customer, the same form also goes to the action in the background so the account keeps the list.
 * Never put it inside another form.
 */
export function SavedItemForm({ change, children, className }: { change: SavedItemsChange; children: ReactNode; className?: string }) {
  // Not useTranslation(): a listing renders 48 of these forms (app/ui/use-shared-texts.ts).
  const t = usePageT();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const rootData = useRootDataForEvents();
  const { showToast } = useToast();
  const hydrated = useHydrated();
  const productId = change.intent === "clear" ? undefined : change.productId;
  const fetcher = useFetcher({ key: `saved:${change.list}:${change.intent}:${productId ?? "all"}` });
  const action = localizedHref(`/${change.list}`, locale);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("aria-disabled") === "true") return;
    const outcome = changeSavedItems(change);
    showToast({ kind: savedItemsToastKind(outcome), message: t(`saved.toast.${change.list}.${outcome}`, { max: savedListLimits[change.list] }) });
    const signedIn = Boolean(rootData()?.user);
    if (signedIn && (outcome === "added" || outcome === "removed" || outcome === "cleared")) {
      const form = new FormData(event.currentTarget);
      // No redirectTo: the action answers the fetcher with data instead of sending it back.
      form.delete("redirectTo");
      // The answer arrives through fetcher.data; the promise only says when.
      void fetcher.submit(form, { method: "post", action, defaultShouldRevalidate: false });
    }
  }

  return (
    // data-enhanced: JavaScript handles the form now (journeys wait for it before clicking).
    <form method="post" action={action} onSubmit={onSubmit} className={className} data-enhanced={hydrated || undefined}>
      <input type="hidden" name="intent" value={change.intent} />
      {productId !== undefined && <input type="hidden" name="productId" value={productId} />}
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {children}
    </form>
  );
}

/**
 * The round icon button of both lists. Once the product is in the list it is disabled with
 * aria-disabled rather than `disabled`, so the keyboard focus stays on it after the click.
 */
export function SavedItemIconButton({
  list,
  productId,
  label,
  savedLabel,
  icon,
  className,
}: {
  list: SavedListName;
  productId: number;
  /** The button's name: what it does. */
  label: string;
  /** Its tooltip once the product is in the list (asked for only then: a listing has 48 of these buttons). */
  savedLabel: () => string;
  icon: (saved: boolean) => ReactNode;
  className?: string;
}) {
  const saved = useSavedItems()[list].includes(productId);
  return (
    <SavedItemForm change={{ intent: "add", list, productId }} className={className}>
      {/* Until the product is saved the title is the button's name and its tooltip; then the tooltip says it is saved and aria-label keeps the name. */}
      <button
        type="submit"
        aria-disabled={saved || undefined}
        aria-label={saved ? label : undefined}
        title={saved ? savedLabel() : label}
        data-saved={saved || undefined}
        className={`grid size-11 place-items-center rounded-full border bg-white shadow-sm transition-colors ${
          saved
            ? "cursor-default border-coral-200 bg-coral-50 text-coral-700"
            : "border-brand-100 text-brand-800 hover:bg-brand-50 hover:text-coral-700"
        }`}
      >
        {icon(saved)}
      </button>
    </SavedItemForm>
  );
}

/** A "remove from this list" button with the product's name in its accessible name. */
export function RemoveSavedItemButton({
  list,
  product,
  className = "",
}: {
  list: SavedListName;
  product: { id: number; name: string };
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <SavedItemForm change={{ intent: "remove", list, productId: product.id }} className={className}>
      <button
        type="submit"
        aria-label={t(`saved.${list}.remove`, { name: product.name })}
        className="btn px-3 text-coral-700 underline decoration-coral-200 underline-offset-2 hover:bg-coral-50 hover:decoration-coral-700"
      >
        {t("saved.removeButton")}
      </button>
    </SavedItemForm>
  );
}

export function ClearSavedListButton({ list }: { list: SavedListName }) {
  const { t } = useTranslation();
  return (
    <SavedItemForm change={{ intent: "clear", list }}>
      <button type="submit" className="btn-secondary">
        {t(`saved.${list}.clear`)}
      </button>
    </SavedItemForm>
  );
}

const availabilityClass: Record<SavedProduct["availability"] | "onRequest", string> = {
  in_stock: "bg-brand-50 text-brand-800",
  preorder: "bg-sun-100 text-ink",
  out_of_stock: "bg-coral-50 text-coral-700",
  onRequest: "bg-lilac-soft text-ink",
};

/** In stock, pre-order, out of stock, or on request. */
export function AvailabilityLabel({ product }: { product: Pick<SavedProduct, "availability" | "isOnRequest"> }) {
  const { t } = useTranslation();
  const state = product.isOnRequest ? "onRequest" : product.availability;
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-sm font-semibold ${availabilityClass[state]}`}>{t(`saved.stock.${state}`)}</span>
  );
}

export function RatingStars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center text-amber-700">
      <StarRatingIcon rating={rating} size={16} />
      <span className="sr-only">{t("product.rating", { rating })}</span>
    </span>
  );
}

/**
 * How a saved product is bought from the list, as its card does (docs/rules.md#storefront): added straight
 * away when simple and in stock, a 'select option' link when colour, size or personalisation must be
 * chosen, a disabled 'not available' button when out of stock, a link to ask when on request.
 */
export function SavedProductPurchase({ product }: { product: Pick<SavedProduct, "id" | "name" | "purchase"> }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const productHref = localizedHref(`/product/${product.id}`, localeOfPath(pathname));
  switch (product.purchase.kind) {
    case "add":
      return <AddToCartForm variantId={product.purchase.variantId} />;
    case "choose":
      return (
        <Link to={productHref} className="btn-primary" aria-label={t("saved.chooseOptionsOf", { name: product.name })}>
          {t("saved.chooseOptions")}
        </Link>
      );
    case "unavailable":
      return (
        <button type="button" disabled className="btn cursor-not-allowed bg-slate-200 text-slate-600">
          {t("saved.notAvailable")}
        </button>
      );
    case "onRequest":
      return (
        <Link to={productHref} className="btn-secondary">
          {t("saved.onRequestCta")}
        </Link>
      );
  }
}

/** An empty list: what to do, and the way to the shop. */
export function EmptySavedList({ text, hint, locale }: { text: string; hint: string; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-2xl bg-white p-8 text-center shadow-card">
      <p className="text-lg font-semibold">{text}</p>
      <p className="mt-2 text-muted">{hint}</p>
      <Link to={localizedHref("/shop", locale)} className="btn-primary mt-6">
        {t("saved.goToShop")}
      </Link>
    </div>
  );
}

type SavedListPage<Product extends { id: number }> = { lists: SavedLists; ids: readonly number[]; products: readonly Product[] };

/**
 * What /wishlist or /compare shows: the browser's list (server rendering: the cookie's), with the
 * products the loader found. Products saved since (another tab, a sync) are fetched with
 * `?ids=`; a signed-in customer's lists are merged with the account's once per visit.
 */
export function useSavedListPage<Product extends { id: number }>(list: SavedListName, page: SavedListPage<Product>) {
  const { pathname } = useLocation();
  const signedIn = Boolean(useRootData()?.user);
  const ids = useSavedItems(page.lists)[list];
  const more = useFetcher<SavedListPage<Product>>();
  const sync = useFetcher<{ ok: boolean; lists?: SavedLists }>();

  const lookedUp = new Set([...page.ids, ...(more.data?.ids ?? [])]);
  const missing = ids.filter((id) => !lookedUp.has(id));
  const missingKey = missing.join(".");
  // The fetchers' answers arrive through `more.data` and `sync.data`: their promises only say when.
  const loadMissing = useEffectEvent(() => void more.load(`${pathname}?ids=${ids.join(".")}`));
  const syncWithAccount = useEffectEvent(() => {
    const lists = readSavedItems();
    void sync.submit(
      { intent: "sync", wishlist: lists.wishlist.join("."), compare: lists.compare.join(".") },
      { method: "post", action: pathname, defaultShouldRevalidate: false },
    );
  });
  // Only when the set of unknown ids changes.
  useEffect(() => {
    if (missingKey) loadMissing();
  }, [missingKey, pathname]);
  // Once per visit of the page by a signed-in customer.
  useEffect(() => {
    if (signedIn) syncWithAccount();
  }, [signedIn]);
  useEffect(() => {
    if (sync.data?.ok && sync.data.lists) replaceSavedItems(normaliseLists(sync.data.lists));
  }, [sync.data]);

  const byId = new Map<number, Product>([...page.products, ...(more.data?.products ?? [])].map((product) => [product.id, product]));
  return { products: ids.flatMap((id) => byId.get(id) ?? []), loading: missing.length > 0 };
}
