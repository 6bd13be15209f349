import { preload } from "react-dom";
import { getProductImageSrcSet, getProductImageUrl, placeholderImageKey, type ImageWidth } from "#common/media.ts";

export type ProductImageData = { storageKey: string; width: number; height: number; alt: string };

/**
 * A product picture as a responsive <picture>: AVIF where written, WebP at every width.
 * Below the fold it loads lazily; the page's main image passes `priority` (eager, fetchpriority high), and is
 * preloaded from the document's head: found only in the body, it waited behind the page's script preloads for
 * one of the six connections a browser opens over HTTP/1.1 (decision 0063).
 */
export function ProductImage({
  image,
  sizes,
  fallbackWidth = 320,
  priority = false,
  className = "",
}: {
  image: ProductImageData | null;
  /** The `sizes` attribute: how wide the picture is drawn at each breakpoint. */
  sizes: string;
  fallbackWidth?: ImageWidth;
  priority?: boolean;
  className?: string;
}) {
  const key = image?.storageKey ?? placeholderImageKey;
  if (priority) {
    // AVIF only: a browser without it skips a preload of that type and finds the WebP <source> as before.
    preload(getProductImageUrl(key, 480, "avif"), {
      as: "image",
      type: "image/avif",
      imageSrcSet: getProductImageSrcSet(key, "avif"),
      imageSizes: sizes,
      fetchPriority: "high",
    });
  }
  return (
    <picture>
      <source type="image/avif" srcSet={getProductImageSrcSet(key, "avif")} sizes={sizes} />
      <source type="image/webp" srcSet={getProductImageSrcSet(key, "webp")} sizes={sizes} />
      <img
        src={getProductImageUrl(key, fallbackWidth)}
        alt={image?.alt ?? ""}
        width={image?.width ?? 800}
        height={image?.height ?? 800}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        decoding={priority ? "sync" : "async"}
        className={className}
      />
    </picture>
  );
}
