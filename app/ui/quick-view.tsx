import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { findVariant, getInitialSelection, getSelectionSearch, setQuantity, type VariantSelection } from "#common/variant-selection.ts";
import type { QuickViewData, QuickViewProduct } from "#app/routes/shop/product-quick-view.ts";
import { addToCartFetcherPrefix } from "./add-to-cart-form";
import type { CartActionData } from "./cart-toasts";
import { AddToGiftListForm, useGiftListFilling } from "./gift-list-filling";
import { CloseIcon, Icon, type IconProps } from "./icons";
import { Price } from "./price";
import { ProductImage } from "./product-image";
import { useHydrated } from "./use-hydrated";
import { ProductPurchase, ProductSideActions } from "./variant-picker";

function EyeIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </Icon>
  );
}

/**
 * Opens the quick view of a product: a modal dialog (focus kept inside, Escape or the close
 * button leave it, the focus goes back to this button) that loads the product with a fetcher and
 * offers colour, size, quantity, add to cart, wishlist, compare and the affiliate link.
 * Shown only with JavaScript: without it the card's own link leads to the product page.
 */
export function QuickViewButton({ productId, productName, className = "" }: { productId: number; productName: string; className?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  if (!hydrated) return null;
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-label={t("productPage.quickView.open", { name: productName })}
        title={t("productPage.quickView.open", { name: productName })}
        onClick={() => setOpen(true)}
        className={`grid size-10 place-items-center rounded-full border border-brand-100 bg-white text-brand-800 shadow-sm transition-colors hover:bg-brand-50 ${className}`}
      >
        <EyeIcon size={20} />
      </button>
      {open &&
        createPortal(
          <QuickViewDialog
            productId={productId}
            productName={productName}
            onClose={() => {
              setOpen(false);
              // Focus alone leaves a button that is partly in view where it is: under the gift-list bar, which stays
              // at the top. "nearest" honours the page's scroll padding and brings it out from under the bar.
              buttonRef.current?.focus({ preventScroll: true });
              buttonRef.current?.scrollIntoView({ block: "nearest" });
            }}
          />,
          document.body,
        )}
    </>
  );
}

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round inside the dialog instead of leaving it for the browser's own controls. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(focusableSelector)].filter((element) => element.offsetParent !== null);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

function QuickViewDialog({ productId, productName, onClose }: { productId: number; productName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fetcher = useFetcher<QuickViewData>();
  const { load } = fetcher;

  useEffect(() => {
    dialogRef.current?.showModal();
  }, []);
  useEffect(() => {
    // The product arrives through fetcher.data; the promise only says when.
    void load(localizedHref(`/product/${productId}/quick-view`, locale));
  }, [load, productId, locale]);

  const product = fetcher.data?.product;
  const failed = fetcher.state === "idle" && fetcher.data !== undefined && !product;

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-busy={fetcher.state !== "idle" || undefined}
      onClose={onClose}
      onKeyDown={keepFocusInside}
      className="m-auto max-h-[92vh] w-[min(94vw,60rem)] overflow-y-auto rounded-3xl bg-cream p-0 text-ink shadow-card backdrop:bg-ink/60"
    >
      <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-brand-100 bg-cream/95 px-5 py-3">
        <h2 id={titleId} className="text-lg leading-snug font-bold">
          {product?.name ?? productName}
        </h2>
        <button
          type="button"
          autoFocus
          onClick={() => dialogRef.current?.close()}
          className="grid size-11 shrink-0 place-items-center rounded-full hover:bg-brand-50"
        >
          <CloseIcon />
          <span className="sr-only">{t("productPage.quickView.close")}</span>
        </button>
      </div>
      <div className="p-5">
        {product ? (
          <QuickViewContent key={product.id} product={product} deliveryPromises={fetcher.data?.deliveryPromises} />
        ) : (
          <p role="status" className="py-10 text-center text-muted">
            {failed ? t("productPage.quickView.error") : t("productPage.quickView.loading")}
          </p>
        )}
      </div>
    </dialog>
  );
}

/**
 * The outcome of the last add-to-cart of `variantId`, said inside the dialog: while a modal dialog is
 * open the page's toasts sit behind it, and screen readers do not read the page outside it.
 */
function CartOutcome({ variantId }: { variantId: number | undefined }) {
  const fetcher = useFetcher<CartActionData>({ key: `${addToCartFetcherPrefix}${variantId ?? 0}` });
  const toasts = fetcher.state === "idle" ? (fetcher.data?.toasts ?? []) : [];
  return (
    <div role="status">
      {toasts.map((toast, index) => (
        <p
          key={`${index}:${toast.message}`}
          className={`mb-3 rounded-xl px-3 py-2 text-sm font-semibold ${toast.kind === "error" ? "bg-coral-50 text-coral-700" : toast.kind === "warning" ? "bg-sun-50 text-ink" : "bg-brand-50 text-brand-900"}`}
        >
          {toast.message}
        </p>
      ))}
    </div>
  );
}

function QuickViewContent({ product, deliveryPromises }: { product: QuickViewProduct; deliveryPromises: QuickViewData["deliveryPromises"] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const [selection, setSelection] = useState<VariantSelection>(() => getInitialSelection(product.variants));
  const image = (product.colours.find((colour) => colour.key === selection.colour)?.images ?? product.images)[0] ?? null;
  const productHref = `${localizedHref(`/product/${product.id}`, locale)}${getSelectionSearch(product.variants, selection)}`;
  const discounted = !product.isOnRequest && product.discountPercent > 0;
  const filling = useGiftListFilling();

  // Phones: a small picture beside the price, so colour, size and the add button fit the dialog's first screen.
  return (
    <div className="grid grid-cols-[6rem_1fr] gap-4 md:grid-cols-2 md:grid-rows-[auto_1fr] md:gap-x-6">
      <div className="w-full self-start overflow-hidden rounded-2xl bg-sky-soft md:row-span-2">
        <ProductImage image={image} sizes="(min-width: 768px) 28rem, 6rem" className="aspect-square size-full object-contain p-1 md:p-4" />
      </div>
      <div className="flex flex-col gap-4 self-center md:self-start">
        {product.isOnRequest ? (
          <p className="text-lg font-bold text-brand-800">{t("product.onRequest")}</p>
        ) : (
          <p className="flex flex-wrap items-center gap-3">
            <Price cents={product.effectivePriceCents} originalCents={discounted ? product.priceCents : null} size="lg" />
            {discounted && (
              <span className="rounded-full bg-coral-600 px-2.5 py-1 text-xs font-bold text-white">
                <span aria-hidden="true">-{product.discountPercent}%</span>
                <span className="sr-only">{t("productPage.discount", { percent: product.discountPercent })}</span>
              </span>
            )}
          </p>
        )}
        {product.shortDescription && <p className="text-muted max-md:line-clamp-3 max-md:text-sm">{product.shortDescription}</p>}
      </div>
      <div className="col-span-2 flex flex-col gap-4 md:col-span-1 md:col-start-2">
        {product.isOnRequest ? (
          <p>{t("productPage.onRequest.text")}</p>
        ) : (
          <ProductPurchase
            product={product}
            selection={selection}
            picker={{ onSelect: setSelection }}
            onQuantityChange={(quantity) => setSelection((current) => setQuantity(current, quantity, 0))}
            idPrefix={`quick-view-${product.id}`}
            soldOutLabel={t("productPage.quickView.outOfStock")}
            deliveryPromises={deliveryPromises}
          />
        )}
        {filling && !product.isOnRequest && (
          <AddToGiftListForm
            filling={filling}
            variantId={findVariant(product.variants, selection)?.id}
            productName={product.name}
            quantity={selection.quantity}
            label={t("giftListFilling.addTo", { title: filling.title })}
            buttonClassName="btn-secondary min-h-11 px-6"
            showOutcome
            withPersonalisation
          />
        )}

        <ProductSideActions product={product} buyNowClassName="btn-coral" />
        <div>
          <CartOutcome variantId={findVariant(product.variants, selection)?.id} />
          <Link to={productHref} className="link">
            {t("productPage.quickView.details")}
          </Link>
        </div>
      </div>
    </div>
  );
}
