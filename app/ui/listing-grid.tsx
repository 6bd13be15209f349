import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { ProductCardData } from "#server/catalog/product-card.ts";
import { ProductCard, type ProductCardLayout } from "./product-card";

/** Cards of the first row load their pictures first: they are what a visitor sees on arrival. */
const eagerCards = 4;

/**
 * The products of a listing page: 2 per row on phones, 3 on tablets and small laptops, 4 on large
 * screens (beside the filters); or one per row in the list layout (/shop-grid-standard).
 */
export function ListingGrid({
  products,
  layout,
  clearFiltersHref,
  locale,
}: {
  products: readonly ProductCardData[];
  layout: ProductCardLayout;
  clearFiltersHref: string | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  if (products.length === 0) {
    return (
      <div className="mt-8 rounded-2xl bg-white p-8 text-center shadow-card">
        <p className="text-lg font-bold">{t("listing.empty")}</p>
        <p className="mt-2 text-muted">{t("listing.emptyHint")}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {clearFiltersHref && (
            <Link to={clearFiltersHref} className="btn-primary">
              {t("listing.clearFilters")}
            </Link>
          )}
          <Link to={localizedHref("/shop", locale)} className="btn-secondary">
            {t("listing.allProducts")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ul className={layout === "list" ? "mt-6 flex flex-col gap-4" : "mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-4 xl:gap-5"}>
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} layout={layout} priority={index < eagerCards} />
        </li>
      ))}
    </ul>
  );
}
