import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import type { ProductTileData } from "#server/catalog/home.service.ts";
import { StarIcon } from "./icons";
import { Price } from "./price";
import { ProductImage } from "./product-image";

/** The light card data of server/catalog/home.service.ts (the catalogue's product card replaces this tile). */
export type ProductTileProps = ProductTileData;

const imageSizes = "(min-width: 1024px) 280px, (min-width: 640px) 33vw, 50vw";

function Rating({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <p className="flex items-center gap-0.5 text-amber-700">
      {[1, 2, 3, 4, 5].map((star) => (
        <StarIcon key={star} filled={star <= rating} size={14} />
      ))}
      <span className="sr-only">{t("product.rating", { rating })}</span>
    </p>
  );
}

export function ProductTile({ product, locale }: { product: ProductTileProps; locale: Locale }) {
  const { t } = useTranslation();
  const discounted = !product.isOnRequest && product.effectivePriceCents < product.priceCents;
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl bg-white shadow-card transition-shadow hover:shadow-lg">
      <div className="relative aspect-square bg-sky-soft">
        <ProductImage
          image={product.image}
          sizes={imageSizes}
          className="size-full object-contain p-3 transition-transform group-hover:scale-105"
        />
        <ul className="absolute top-2 left-2 flex flex-col items-start gap-1 text-xs font-bold">
          {discounted && product.discountPercent > 0 && (
            <li className="rounded-full bg-coral-600 px-2 py-0.5 text-white">-{product.discountPercent}%</li>
          )}
          {product.isNew && <li className="rounded-full bg-brand-700 px-2 py-0.5 text-white">{t("product.new")}</li>}
          {product.isFreeShipping && <li className="rounded-full bg-white px-2 py-0.5 text-brand-800 shadow-sm">{t("product.freeShipping")}</li>}
        </ul>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-4">
        <h3 className="leading-snug font-semibold">
          <Link to={localizedHref(`/product/${product.id}`, locale)} className="after:absolute after:inset-0 hover:text-brand-800">
            {product.name}
          </Link>
        </h3>
        {product.rating > 0 && <Rating rating={product.rating} />}
        <p className="mt-auto flex flex-wrap items-baseline gap-x-2 pt-1">
          {product.isOnRequest ? (
            <span className="font-semibold text-brand-800">{t("product.onRequest")}</span>
          ) : (
            <Price cents={product.effectivePriceCents} originalCents={discounted ? product.priceCents : null} />
          )}
        </p>
      </div>
    </article>
  );
}
