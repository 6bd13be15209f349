/**
 * Public addresses of product pictures. Browser-safe: the server writes the files once
 * (server/catalog/images.ts) and pages only build URLs from an image's storage key.
 */

/** Every picture exists as WebP at each of these widths (pixels). */
export const imageWidths = [160, 320, 480, 800] as const;
export type ImageWidth = (typeof imageWidths)[number];

/**
 * AVIF is written only at the widths cards and the product gallery use most: encoding AVIF is
 * several times slower than WebP on the shop's 2-core machines (see server/catalog/images.ts).
 */
export const avifWidths = [320, 480] as const satisfies readonly ImageWidth[];

export type ImageFormat = "avif" | "webp";

/** Shown when a product (or the chosen colour) has no picture of its own. */
export const placeholderImageKey = "placeholder";

/** Storage keys are file-name safe by construction; they never contain "/" or "..". */
export const imageKeyPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function getProductImageUrl(key: string, width: ImageWidth, format: ImageFormat = "webp"): string {
  return `/media/products/${key}-${width}.${format}`;
}

export function getImageWidthsFor(format: ImageFormat): readonly ImageWidth[] {
  return format === "avif" ? avifWidths : imageWidths;
}

/** A `srcset` value listing every width written in `format`. */
export function getProductImageSrcSet(key: string, format: ImageFormat): string {
  return getImageWidthsFor(format)
    .map((width) => `${getProductImageUrl(key, width, format)} ${width}w`)
    .join(", ");
}

/** A product's manual (a PDF the staff uploaded), by its key in the media store ("manuals/..."). */
export function getManualUrl(key: string): string {
  return `/media/${key}`;
}
