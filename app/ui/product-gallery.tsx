import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { getProductImageUrl } from "#common/media.ts";
import { ChevronDownIcon, CloseIcon, SearchIcon } from "./icons";
import { ProductImage, type ProductImageData } from "./product-image";
import { useHydrated } from "./use-hydrated";

const mainSizes = "(min-width: 1024px) 560px, (min-width: 640px) 24rem, 15rem";
const thumbSizes = "80px";

/**
 * The product's pictures: a large one, thumbnails to pick another, and a zoom that opens the picture
 * full size in a modal dialog (click, Enter or Space; Escape or the close button leave it).
 * Without JavaScript every thumbnail is shown and links to the full-size picture. Below the large layout the
 * picture is smaller (the name, price and add button share the first screen) and the thumbnails scroll in one row.
 */
export function ProductGallery({ images, productName }: { images: readonly ProductImageData[]; productName: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [zoomed, setZoomed] = useState(false);
  const current = images[Math.min(index, images.length - 1)] ?? null;
  const fullSize = (image: ProductImageData | null) => getProductImageUrl(image?.storageKey ?? "placeholder", 800);
  const count = images.length;

  const mainPicture = (
    <ProductImage image={current} sizes={mainSizes} fallbackWidth={800} priority className="aspect-square size-full object-contain p-4" />
  );

  return (
    <div className="flex flex-col gap-3" role="group" aria-label={t("productPage.gallery.label", { name: productName })}>
      <div className="relative mx-auto w-full max-w-60 overflow-hidden rounded-3xl bg-sky-soft sm:max-w-sm lg:max-w-none">
        {hydrated ? (
          <button type="button" onClick={() => setZoomed(true)} aria-haspopup="dialog" className="group block w-full cursor-zoom-in">
            {mainPicture}
            <span className="absolute right-3 bottom-3 flex items-center gap-1 rounded-full bg-white/90 px-3 py-1.5 text-sm font-semibold text-brand-800 shadow-sm group-hover:bg-white">
              <SearchIcon size={18} />
              {t("productPage.gallery.zoom")}
            </span>
          </button>
        ) : (
          <a href={fullSize(current)} className="block">
            {mainPicture}
            <span className="sr-only">{t("productPage.gallery.openFull")}</span>
          </a>
        )}
      </div>

      {count > 1 && (
        <ul
          className="flex snap-x snap-mandatory scroll-px-1 gap-2 overflow-x-auto p-1 max-lg:-m-1 lg:flex-wrap lg:overflow-visible lg:p-0"
          aria-label={t("productPage.gallery.thumbnails")}
        >
          {images.map((image, position) => {
            const selected = position === index;
            const label = t("productPage.gallery.showImage", { index: position + 1, count });
            const thumb = <ProductImage image={image} sizes={thumbSizes} fallbackWidth={160} className="size-16 object-contain sm:size-20" />;
            const frame = `block overflow-hidden rounded-xl border-2 bg-sky-soft p-1 ${selected ? "border-brand-700" : "border-transparent hover:border-brand-300"}`;
            return (
              <li key={`${image.storageKey}-${position}`} className="shrink-0 snap-start">
                {hydrated ? (
                  <button type="button" onClick={() => setIndex(position)} aria-label={label} aria-current={selected || undefined} className={frame}>
                    {thumb}
                  </button>
                ) : (
                  <a href={fullSize(image)} aria-label={label} className={frame}>
                    {thumb}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}

      {zoomed && (
        <ZoomDialog
          images={images}
          index={index}
          onIndexChange={setIndex}
          onClose={() => setZoomed(false)}
          title={t("productPage.gallery.zoomTitle", { name: productName })}
        />
      )}
    </div>
  );
}

function ZoomDialog({
  images,
  index,
  onIndexChange,
  onClose,
  title,
}: {
  images: readonly ProductImageData[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  title: string;
}) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const count = images.length;
  const image = images[index] ?? null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // The element that opened the dialog gets the focus back when it closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    return () => opener?.focus();
  }, []);

  const go = (step: number) => onIndexChange((index + step + count) % count);

  return (
    <dialog
      ref={dialogRef}
      aria-label={title}
      onClose={onClose}
      onKeyDown={(event) => {
        if (count < 2) return;
        if (event.key === "ArrowRight") go(1);
        else if (event.key === "ArrowLeft") go(-1);
      }}
      className="m-auto max-h-[95vh] w-[min(95vw,56rem)] overflow-hidden rounded-3xl bg-white p-0 shadow-card backdrop:bg-ink/70"
    >
      <div className="flex items-center justify-between gap-3 border-b border-brand-100 px-4 py-2">
        <p className="text-sm font-semibold text-muted" aria-live="polite">
          {count > 1 ? t("productPage.gallery.position", { index: index + 1, count }) : null}
        </p>
        <button
          type="button"
          onClick={() => dialogRef.current?.close()}
          className="grid size-11 place-items-center rounded-full hover:bg-brand-50"
          autoFocus
        >
          <CloseIcon />
          <span className="sr-only">{t("productPage.gallery.close")}</span>
        </button>
      </div>
      <div className="relative bg-sky-soft">
        <ProductImage
          image={image}
          sizes="(min-width: 56rem) 56rem, 95vw"
          fallbackWidth={800}
          className="mx-auto max-h-[80vh] w-auto object-contain"
        />
        {count > 1 && (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              className="absolute top-1/2 left-2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-white/90 shadow-sm hover:bg-white"
            >
              <ChevronDownIcon className="rotate-90" />
              <span className="sr-only">{t("productPage.gallery.previous")}</span>
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              className="absolute top-1/2 right-2 grid size-11 -translate-y-1/2 place-items-center rounded-full bg-white/90 shadow-sm hover:bg-white"
            >
              <ChevronDownIcon className="-rotate-90" />
              <span className="sr-only">{t("productPage.gallery.next")}</span>
            </button>
          </>
        )}
      </div>
    </dialog>
  );
}
