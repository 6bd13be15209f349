import { useId } from "react";
import { Link, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { ProductCardData } from "#server/catalog/product-card.ts";
import { AddToCartForm, useCartQuantity } from "./add-to-cart-form";
import { CompareButton } from "./compare-button";
import { AddToGiftListForm, useGiftListFilling } from "./gift-list-filling";
import { Price } from "./price";
import { ProductImage } from "./product-image";
import { CardReviewSummary } from "./review-summary";
import { QuickViewButton } from "./quick-view";
import { useHydrated } from "./use-hydrated";
import { useSharedTexts } from "./use-shared-texts";
import { WishlistButton } from "./wishlist-button";

export type ProductCardLayout = "grid" | "list";

/** How wide the picture is drawn: 4 per row on large screens, 3 on tablets, 2 on phones. */
const gridImageSizes = "(min-width: 1280px) 280px, (min-width: 1024px) 22vw, (min-width: 640px) 33vw, 50vw";
const listImageSizes = "(min-width: 640px) 240px, 40vw";

type SharedTexts = ReturnType<typeof useSharedTexts>["text"];

function Badges({ product, text }: { product: ProductCardData; text: SharedTexts }) {
  const discounted = !product.isOnRequest && product.discountPercent > 0 && product.effectivePriceCents < product.priceCents;
  if (!discounted && !product.isNew && !product.isFreeShipping) return null;
  return (
    <ul className="pointer-events-none absolute top-2 left-2 flex flex-col items-start gap-1 text-xs font-bold">
      {discounted && (
        <li className="rounded-full bg-coral-600 px-2 py-0.5 text-white">
          <span aria-hidden="true">-{product.discountPercent}%</span>
          <span className="sr-only">{text("productCard.discount", { percent: product.discountPercent })}</span>
        </li>
      )}
      {product.isNew && <li className="rounded-full bg-brand-700 px-2 py-0.5 text-white">{text("product.new")}</li>}
      {product.isFreeShipping && <li className="rounded-full bg-white px-2 py-0.5 text-brand-800 shadow-sm">{text("product.freeShipping")}</li>}
    </ul>
  );
}

/** Adds one unit; disabled once the cart holds all the stock there is (docs/rules.md#cart-limits). */
function AddFromCard({ variantId, stock, text }: { variantId: number; stock: number; text: SharedTexts }) {
  const allInCart = useCartQuantity(variantId) >= stock;
  return (
    <AddToCartForm
      variantId={variantId}
      disabled={allInCart}
      label={text(allInCart ? "productCard.allInCart" : "cart.addToCart")}
      buttonClassName="btn-primary w-full px-3"
    />
  );
}

/** The card's buying button: add, 'select option', 'not available', or ask (on request). */
function Purchase({ product, productHref, text }: { product: ProductCardData; productHref: string; text: SharedTexts }) {
  const { purchase } = product;
  switch (purchase.kind) {
    case "add":
      return <AddFromCard variantId={purchase.variantId} stock={purchase.stock} text={text} />;
    case "choose":
      return (
        <Link to={productHref} className="btn-secondary w-full px-3">
          {text("productCard.chooseOptions")}
          <span className="sr-only">{`: ${product.name}`}</span>
        </Link>
      );
    case "unavailable":
      return (
        <button type="button" disabled className="btn w-full cursor-not-allowed bg-slate-200 px-3 text-slate-700">
          {text("productCard.notAvailable")}
        </button>
      );
    case "onRequest":
      return (
        <Link to={productHref} className="btn-secondary w-full px-3">
          {text("productCard.ask")}
          <span className="sr-only">{`: ${product.name}`}</span>
        </Link>
      );
  }
}

/**
 * While the owner fills a list: a product with one variant goes to it from here; one with colours, sizes or
 * personalisation is chosen in the quick view or on its page, as for the cart.
 */
function AddToChosenList({ product, text }: { product: ProductCardData; text: SharedTexts }) {
  const filling = useGiftListFilling();
  if (!filling || product.purchase.kind !== "add") return null;
  return (
    <AddToGiftListForm
      filling={filling}
      variantId={product.purchase.variantId}
      productName={product.name}
      label={text("giftListFilling.add")}
      className="mt-2"
    />
  );
}

/** Wishlist, compare and quick view: over the picture in the grid, beside the buying button in the list. */
function SavedAndQuickView({ product, className = "" }: { product: ProductCardData; className?: string }) {
  // The quick view exists only with JavaScript (it renders nothing before hydration): the server skips it.
  const hydrated = useHydrated();
  return (
    <div className={`z-10 flex gap-1.5 ${className}`}>
      <WishlistButton productId={product.id} productName={product.name} />
      <CompareButton productId={product.id} productName={product.name} />
      {hydrated && <QuickViewButton productId={product.id} productName={product.name} />}
    </div>
  );
}

/**
 * A product in a listing, a search, the home page rows or related products (docs/rules.md#storefront,
 * "Product card"): picture, badges, name, brand, rating, price (or "on request"), wishlist,
 * compare and quick view, and the buying button. The name's link covers the whole card.
 */
export function ProductCard({
  product,
  layout = "grid",
  priority = false,
}: {
  product: ProductCardData;
  layout?: ProductCardLayout;
  /** The first cards of a page load their picture eagerly. */
  priority?: boolean;
}) {
  const { text } = useSharedTexts();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const nameId = useId();
  const productHref = localizedHref(`/product/${product.id}`, locale);
  const discounted = !product.isOnRequest && product.effectivePriceCents < product.priceCents;
  const isList = layout === "list";
  return (
    <article
      aria-labelledby={nameId}
      className={`group relative flex h-full overflow-hidden rounded-2xl bg-white shadow-card transition-shadow hover:shadow-lg ${
        isList ? "flex-row" : "flex-col"
      }`}
    >
      <div className={`relative aspect-square shrink-0 bg-sky-soft ${isList ? "w-32 self-start sm:w-60" : ""}`}>
        <ProductImage
          image={product.image}
          sizes={isList ? listImageSizes : gridImageSizes}
          priority={priority}
          className="size-full object-contain p-3 transition-transform group-hover:scale-105"
        />
        <Badges product={product} text={text} />
        {!isList && <SavedAndQuickView product={product} className="absolute top-2 right-2 flex-col" />}
      </div>
      <div className={`flex min-w-0 flex-1 flex-col gap-1.5 ${isList ? "p-4 sm:p-6" : "p-3 sm:p-4"}`}>
        {product.brand && <p className="text-xs font-semibold tracking-wide text-muted uppercase">{product.brand.name}</p>}
        <h3 id={nameId} className={`leading-snug font-semibold ${isList ? "text-lg" : ""}`}>
          <Link to={productHref} className="after:absolute after:inset-0 hover:text-brand-800">
            {product.name}
          </Link>
        </h3>
        {/* Customers' published reviews only: the shop's own rating is shown, named as such, on the product page. */}
        {product.reviews && <CardReviewSummary summary={product.reviews} locale={locale} text={text} />}
        {isList && product.shortDescription && <p className="text-sm text-muted max-sm:line-clamp-3">{product.shortDescription}</p>}
        <p className="mt-auto flex flex-wrap items-baseline gap-x-2 pt-1">
          {product.isOnRequest ? (
            <span className="font-semibold text-brand-800">{text("product.onRequest")}</span>
          ) : (
            <Price cents={product.effectivePriceCents} originalCents={discounted ? product.priceCents : null} />
          )}
        </p>
        {isList ? (
          <div className="relative z-10 flex flex-wrap items-center gap-2 pt-2">
            <div className="w-full sm:w-64">
              <Purchase product={product} productHref={productHref} text={text} />
              <AddToChosenList product={product} text={text} />
            </div>
            <SavedAndQuickView product={product} />
          </div>
        ) : (
          <div className="relative z-10 pt-2">
            <Purchase product={product} productHref={productHref} text={text} />
            <AddToChosenList product={product} text={text} />
          </div>
        )}
      </div>
    </article>
  );
}
