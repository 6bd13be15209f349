import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  canAddToCart,
  clampQuantity,
  findVariant,
  getAvailableStock,
  getColours,
  getMaxQuantity,
  getPreorderDays,
  getSizes,
  selectColour,
  selectSize,
  showsSizeChoice,
  type VariantOption,
  type VariantSelection,
} from "#common/variant-selection.ts";
import { formatSize } from "#common/sizes.ts";
import { useColourName } from "#app/lib/colour-name.ts";
import type { PersonalisationOffer } from "#server/catalog/product.service.ts";
import { AddToCartForm, useCartQuantity } from "./add-to-cart-form";
import { CompareButton } from "./compare-button";
import { DeliveryPromise, type DeliveryPromiseData } from "./delivery-promise";
import { PersonalisationFields } from "./personalisation-fields";
import { QuantityStepper } from "./quantity-stepper";
import { StickyAddBar } from "./sticky-add-bar";
import { WishlistButton } from "./wishlist-button";

/** Swatch colours of the shop's colour keys; an unknown key gets a neutral swatch and its own name. */
const swatches: Record<string, string> = {
  white: "#ffffff",
  black: "#1f2937",
  brown: "#8b5e3c",
  blue: "#2f6fd6",
};

type PickerProps = {
  variants: readonly VariantOption[];
  selection: VariantSelection;
  /** Distinguishes the ids of two pickers on one page (the page and an open quick view). */
  idPrefix: string;
} & (
  | {
      /** Product page: every choice is a link (`?colour=blue&size=m`), so it works without JavaScript. */
      hrefFor: (next: VariantSelection) => string;
      onSelect?: undefined;
    }
  | {
      /** Quick view: buttons that change the selection in place. */
      onSelect: (next: VariantSelection) => void;
      hrefFor?: undefined;
    }
);

const optionBase =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border-2 px-3 py-1.5 text-sm font-semibold transition-colors";
const optionState = (selected: boolean, soldOut: boolean) =>
  `${selected ? "border-brand-700 bg-brand-50" : "border-slate-300 bg-white hover:border-brand-500"} ${
    soldOut ? "text-muted line-through decoration-2" : selected ? "text-brand-900" : "text-ink"
  }`;

function Option({
  selected,
  next,
  props,
  children,
  soldOut = false,
}: {
  selected: boolean;
  next: VariantSelection;
  props: PickerProps;
  children: ReactNode;
  soldOut?: boolean;
}) {
  const classes = `${optionBase} ${optionState(selected, soldOut)}`;
  if (props.hrefFor) {
    return (
      <Link to={props.hrefFor(next)} replace preventScrollReset aria-current={selected ? "true" : undefined} className={classes}>
        {children}
      </Link>
    );
  }
  const { onSelect } = props;
  return (
    <button type="button" aria-pressed={selected} onClick={() => onSelect(next)} className={classes}>
      {children}
    </button>
  );
}

/**
 * Colour and size choice. Picking a colour resets the size to that colour's first size and the
 * quantity to 1; picking a size resets the quantity to 1 (common/variant-selection.ts). The size
 * choice is hidden for one-size products.
 */
export function VariantPicker(props: PickerProps) {
  const { t } = useTranslation();
  const colourName = useColourName();
  const { variants, selection, idPrefix } = props;
  const colours = getColours(variants);
  const sizes = getSizes(variants, selection.colour);
  const withSizes = showsSizeChoice(variants, selection.colour);
  const selectedLabel = t("productPage.selected");
  if (colours.length === 0 && !withSizes) return null;

  return (
    <div className="flex flex-col gap-4">
      {colours.length > 0 && (
        <div role="group" aria-labelledby={`${idPrefix}-colour`}>
          <p id={`${idPrefix}-colour`} className="mb-2 text-sm font-semibold">
            {t("productPage.colour")}: <span className="font-normal">{selection.colour ? colourName(selection.colour) : ""}</span>
          </p>
          <ul className="flex flex-wrap gap-2">
            {colours.map((colour) => {
              const selected = colour === selection.colour;
              return (
                <li key={colour}>
                  <Option selected={selected} next={selectColour(selection, variants, colour)} props={props}>
                    <span
                      aria-hidden="true"
                      className="size-5 rounded-full border border-slate-400"
                      style={{ backgroundColor: swatches[colour] ?? "#cbd5e1" }}
                    />
                    {colourName(colour)}
                    {selected && <span className="sr-only"> ({selectedLabel})</span>}
                  </Option>
                </li>
              );
            })}
          </ul>
        </div>
      )}

      {withSizes && (
        <div role="group" aria-labelledby={`${idPrefix}-size`}>
          <p id={`${idPrefix}-size`} className="mb-2 text-sm font-semibold">
            {t("productPage.size")}: <span className="font-normal">{selection.size ? formatSize(selection.size) : ""}</span>
          </p>
          <ul className="flex flex-wrap gap-2">
            {sizes.map((size) => {
              const selected = size === selection.size;
              const soldOut = (findVariant(variants, { colour: selection.colour, size })?.stock ?? 0) <= 0;
              return (
                <li key={size}>
                  <Option selected={selected} next={selectSize(selection, variants, size)} props={props} soldOut={soldOut}>
                    {formatSize(size)}
                    {soldOut && <span className="sr-only"> ({t("productPage.sizeSoldOut")})</span>}
                    {selected && <span className="sr-only"> ({selectedLabel})</span>}
                  </Option>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}

export type PurchasableProduct = {
  variants: readonly VariantOption[];
  personalisation: PersonalisationOffer | null;
};

/**
 * Choosing and buying one variant, on the product page and in the quick view: colour and size,
 * the pre-order notice, what the cart already holds, quantity (1 to stock minus cart), the
 * personalisation texts and the add-to-cart button. Stock 0: the button is disabled and reads
 * `soldOutLabel` ('NON DISPONIBILE' on the page, 'Out of Stock' in the quick view). `stickyBar` (the product
 * page) adds the phone's bar that repeats the add button while this form is off screen.
 */
export function ProductPurchase({
  product,
  selection,
  picker,
  onQuantityChange,
  idPrefix,
  soldOutLabel,
  deliveryPromises,
  stickyBar,
}: {
  product: PurchasableProduct;
  selection: VariantSelection;
  picker: { hrefFor: (next: VariantSelection) => string } | { onSelect: (next: VariantSelection) => void };
  onQuantityChange: (quantity: number) => void;
  idPrefix: string;
  soldOutLabel: string;
  /** Per pre-order lead in days ("0": in stock), as the loader computed them; absent: no promise shown. */
  deliveryPromises?: Record<string, DeliveryPromiseData>;
  stickyBar?: { productName: string; priceCents: number; originalCents: number | null };
}) {
  const { t } = useTranslation();
  const variant = findVariant(product.variants, selection);
  const stock = getAvailableStock(variant);
  // The lines the cart holds, plus adds still on their way (so a double click cannot pass the stock).
  const inCart = useCartQuantity(variant?.id);
  const max = getMaxQuantity(stock, inCart);
  const addable = canAddToCart(stock, inCart);
  const preorderDays = getPreorderDays(variant);
  const deliveryPromise = deliveryPromises?.[String(preorderDays ?? 0)];
  const inCartId = `${idPrefix}-in-cart`;
  const choiceId = `${idPrefix}-choice`;
  const formId = `${idPrefix}-add-form`;

  return (
    <div id={choiceId} className="flex flex-col gap-5">
      <VariantPicker variants={product.variants} selection={selection} idPrefix={idPrefix} {...picker} />

      {preorderDays !== null && stock > 0 && (
        <p className="rounded-2xl border-l-4 border-amber-500 bg-sun-50 px-4 py-3 font-bold text-ink">
          {t("productPage.preorder", { days: preorderDays })}
        </p>
      )}

      <p id={inCartId} className="text-sm text-muted" aria-live="polite">
        {stock > 0 && <span className="mr-3 font-semibold text-brand-800">{t("productPage.inStock", { count: stock })}</span>}
        {t("productPage.inCart", { count: inCart })}
        {stock > 0 && !addable && <span className="block font-semibold text-coral-700">{t("productPage.cartHoldsAll")}</span>}
      </p>
      {deliveryPromise && stock > 0 && <DeliveryPromise promise={deliveryPromise} />}

      {variant && (
        <AddToCartForm
          id={formId}
          variantId={variant.id}
          disabled={!addable}
          label={stock === 0 ? soldOutLabel : undefined}
          className="flex flex-wrap items-end gap-4"
          buttonClassName={`${addable ? "btn-primary" : "btn bg-slate-200 text-slate-800"} h-11 px-8 text-base`}
        >
          {product.personalisation && stock > 0 && (
            <div className="basis-full">
              <PersonalisationFields personalisation={product.personalisation} idPrefix={idPrefix} variantId={variant.id} />
            </div>
          )}
          <QuantityStepper
            id={`${idPrefix}-quantity`}
            value={clampQuantity(selection.quantity, max)}
            max={max}
            disabled={!addable}
            onChange={onQuantityChange}
            describedBy={inCartId}
          />
        </AddToCartForm>
      )}
      {stickyBar && <StickyAddBar formId={formId} choiceId={choiceId} addable={Boolean(variant) && addable} {...stickyBar} />}
    </div>
  );
}

/**
 * Wishlist and compare (disabled once the product is in them) and, where the shop has one, the
 * affiliate 'Buy now' link, opened in a new tab as a sponsored link. Each button is its own form:
 * this row never goes inside the add-to-cart form.
 */
export function ProductSideActions({
  product,
  buyNowClassName,
}: {
  product: { id: number; name: string; affiliateUrl: string | null; isOnRequest: boolean };
  buyNowClassName: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap items-center gap-3">
      <WishlistButton productId={product.id} productName={product.name} />
      <CompareButton productId={product.id} productName={product.name} />
      {product.affiliateUrl && !product.isOnRequest && (
        <a href={product.affiliateUrl} rel="sponsored noopener" target="_blank" className={buyNowClassName}>
          {t("productPage.buyNow")}
          <span className="sr-only"> ({t("productPage.newTab")})</span>
        </a>
      )}
    </div>
  );
}
