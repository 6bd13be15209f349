/**
 * The choice of colour, size and quantity on the product page and in the quick view (docs/rules.md#product-page
 * and #cart-limits). Browser-safe and pure: the page keeps colour and size in the URL
 * (`?colour=blue&size=m`, so links work without JavaScript), the quick view keeps them in state;
 * both move through these functions. The server applies the same limits again when adding to the cart.
 */

/** One sellable colour × size of a product, as the product page's loader sends it. */
export type VariantOption = {
  id: number;
  /** Colour key ("white", "blue", ...); null for a product without colours. */
  colour: string | null;
  size: string;
  /** One size (`isOneSize` of sizes.ts): never offered as a size choice (decided on the server). */
  isOneSize: boolean;
  stock: number;
  isPreorder: boolean;
  preorderDays: number | null;
};

export type VariantSelection = {
  colour: string | null;
  size: string | null;
  /** The stock of the chosen colour and size; 0 when that combination does not exist. */
  stock: number;
  quantity: number;
};

/** docs/rules.md#constants: the minimum quantity. */
export const minQuantity = 1;

/** The product's colours, in the order of its variants. */
export function getColours(variants: readonly VariantOption[]): string[] {
  const colours: string[] = [];
  for (const variant of variants) if (variant.colour !== null && !colours.includes(variant.colour)) colours.push(variant.colour);
  return colours;
}

/** The sizes offered in `colour`, in the order of the product's variants. */
export function getSizes(variants: readonly VariantOption[], colour: string | null): string[] {
  const sizes: string[] = [];
  for (const variant of variants) if (variant.colour === colour && !sizes.includes(variant.size)) sizes.push(variant.size);
  return sizes;
}

/** The size choice is hidden when every size of the colour means "one size". */
export function showsSizeChoice(variants: readonly VariantOption[], colour: string | null): boolean {
  return variants.some((variant) => variant.colour === colour && !variant.isOneSize);
}

export function findVariant(variants: readonly VariantOption[], selection: Pick<VariantSelection, "colour" | "size">): VariantOption | undefined {
  return variants.find((variant) => variant.colour === selection.colour && variant.size === selection.size);
}

/** Available stock: that of the chosen colour and size (a simple product's one variant); 0 when missing. */
export function getAvailableStock(variant: Pick<VariantOption, "stock"> | null | undefined): number {
  return variant && Number.isSafeInteger(variant.stock) && variant.stock > 0 ? variant.stock : 0;
}

function withColourAndSize(variants: readonly VariantOption[], colour: string | null, size: string | null): VariantSelection {
  return { colour, size, stock: getAvailableStock(findVariant(variants, { colour, size })), quantity: minQuantity };
}

/**
 * The selection a page opens with: the requested colour and size when the product has them
 * (`?colour=blue&size=m`), else the first colour and that colour's first size; quantity 1.
 */
export function getInitialSelection(
  variants: readonly VariantOption[],
  requested: { colour?: string | null; size?: string | null } = {},
): VariantSelection {
  const first = variants[0];
  if (!first) return { colour: null, size: null, stock: 0, quantity: minQuantity };
  const colour = requested.colour != null && getColours(variants).includes(requested.colour) ? requested.colour : first.colour;
  const sizes = getSizes(variants, colour);
  const size = requested.size != null && sizes.includes(requested.size) ? requested.size : (sizes[0] ?? null);
  return withColourAndSize(variants, colour, size);
}

/** Picking a colour resets the size to that colour's first size, the stock to that size's stock, the quantity to 1. */
export function selectColour(selection: VariantSelection, variants: readonly VariantOption[], colour: string): VariantSelection {
  if (!getColours(variants).includes(colour)) return selection;
  return withColourAndSize(variants, colour, getSizes(variants, colour)[0] ?? null);
}

/** Picking a size keeps the colour, takes that size's stock and resets the quantity to 1. */
export function selectSize(selection: VariantSelection, variants: readonly VariantOption[], size: string): VariantSelection {
  if (!getSizes(variants, selection.colour).includes(size)) return selection;
  return withColourAndSize(variants, selection.colour, size);
}

/** How many units of the variant the cart already holds, over all its lines (0 when none). */
export function getQuantityInCart(
  lines: readonly { variantId: number; quantity: number }[] | null | undefined,
  variantId: number | undefined,
): number {
  if (!lines || variantId === undefined) return 0;
  return lines.filter((line) => line.variantId === variantId).reduce((sum, line) => sum + line.quantity, 0);
}

/** The most that can still be added: the variant's stock minus what the cart already holds (never below 0). */
export function getMaxQuantity(stock: number, quantityInCart: number): number {
  return Math.max(0, stock - quantityInCart);
}

/** Adding is possible only while the cart holds less than the stock (stock 0 or missing: never). */
export function canAddToCart(stock: number, quantityInCart: number): boolean {
  return getMaxQuantity(stock, quantityInCart) >= minQuantity;
}

/** A quantity kept between 1 and the most that can still be added (1 when nothing can). */
export function clampQuantity(quantity: number, maxQuantity: number): number {
  const whole = Number.isFinite(quantity) ? Math.floor(quantity) : minQuantity;
  return Math.min(Math.max(minQuantity, whole), Math.max(minQuantity, maxQuantity));
}

/**
 * Why a typed quantity was changed to fit the limits, so the page can say so: "atMost" (more than can
 * still be added), "atLeast" (below 1), "whole" (a fraction, rounded down), or null when it was kept.
 */
export type QuantityAdjustment = "atMost" | "atLeast" | "whole" | null;

export function getQuantityAdjustment(typed: number, maxQuantity: number): QuantityAdjustment {
  const kept = clampQuantity(typed, maxQuantity);
  if (kept === typed) return null;
  if (typed > kept) return Number.isInteger(typed) || Math.floor(typed) > kept ? "atMost" : "whole";
  return typed < minQuantity ? "atLeast" : "whole";
}

/** The selection with a new quantity, kept within the limits. */
export function setQuantity(selection: VariantSelection, quantity: number, quantityInCart: number): VariantSelection {
  return { ...selection, quantity: clampQuantity(quantity, getMaxQuantity(selection.stock, quantityInCart)) };
}

export type Availability = "in_stock" | "out_of_stock" | "preorder";

/** A variant's availability: stock 0 (or no variant) is out of stock; a pre-order size with stock is a pre-order. */
export function getAvailability(variant: { stock: number; isPreorder: boolean } | null | undefined): Availability {
  if (!variant || variant.stock <= 0) return "out_of_stock";
  return variant.isPreorder ? "preorder" : "in_stock";
}

/** The product page's action for "Avvisami quando torna disponibile" (its form's `intent`). */
export const stockAlertIntent = "stock-alert";

/** A colour and size that offers "Avvisami quando torna disponibile": out of stock and not sold as a pre-order. */
export function takesStockAlert(variant: { stock: number; isPreorder: boolean }): boolean {
  return variant.stock <= 0 && !variant.isPreorder;
}

/** Pre-order sizes show "ATTENZIONE CONSEGNA IN {giorni} GIORNI": the days, or null when the size ships now. */
export function getPreorderDays(variant: Pick<VariantOption, "isPreorder" | "preorderDays"> | null | undefined): number | null {
  return variant?.isPreorder && variant.preorderDays != null && variant.preorderDays > 0 ? variant.preorderDays : null;
}

/**
 * The query string that opens the page on a selection, for links that work without JavaScript:
 * "?colour=blue&size=m". One-size sizes and a missing colour are left out.
 */
export function getSelectionSearch(variants: readonly VariantOption[], selection: Pick<VariantSelection, "colour" | "size">): string {
  const params = new URLSearchParams();
  if (selection.colour !== null) params.set("colour", selection.colour);
  const variant = findVariant(variants, selection);
  if (selection.size !== null && variant && !variant.isOneSize) params.set("size", selection.size);
  const search = params.toString();
  return search ? `?${search}` : "";
}
