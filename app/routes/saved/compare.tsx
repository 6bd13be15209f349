import { useId, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { savedListLimits } from "#common/saved-items.ts";
import { colourName } from "#common/variant-label.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { Price } from "#app/ui/price.tsx";
import { ProductImage } from "#app/ui/product-image.tsx";
import { ScrollRegion } from "#app/ui/scroll-region.tsx";
import {
  AvailabilityLabel,
  ClearSavedListButton,
  EmptySavedList,
  RatingStars,
  RemoveSavedItemButton,
  SavedProductPurchase,
  useSavedListPage,
} from "#app/ui/saved-items.tsx";
import { formatMeasure } from "#common/format.ts";
import { WishlistButton } from "#app/ui/wishlist-button.tsx";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { loadSavedListPage, submitSavedListForm } from "./saved-items-request.server";
import type { SavedProduct } from "#server/saved-items/saved-items.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/compare";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["product", "productPage.sheet", "saved", "reviews.product.shopRating"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const page = await loadSavedListPage(context.get(shopContext), request, url, "compare");
  return {
    ...page,
    meta: getPageMetaTexts(localeOfPath(url.pathname), "saved.compare"),
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const user = await getSessionUser(context, request);
  return submitSavedListForm(context.get(shopContext), request, url, "compare", user?.id ?? null);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageMeta(matches, loaderData?.meta),
  // A visitor's own comparison: nothing for search engines.
  { name: "robots", content: "noindex" },
];

/** Row headers stay in view while the products scroll sideways (phones). */
const rowHeaderClass =
  "sticky left-0 z-10 w-28 min-w-28 border-r border-brand-100 bg-white px-3 py-3 align-top text-sm font-semibold sm:w-44 sm:min-w-44";
const cellClass = "min-w-44 px-3 py-3 align-top sm:min-w-52";

function CompareRow({ label, products, cell }: { label: string; products: SavedProduct[]; cell: (product: SavedProduct) => ReactNode }) {
  return (
    <tr className="border-t border-brand-100">
      <th scope="row" className={rowHeaderClass}>
        {label}
      </th>
      {products.map((product) => (
        <td key={product.id} className={cellClass}>
          {cell(product)}
        </td>
      ))}
    </tr>
  );
}

function RowGroupHeading({ label, span }: { label: string; span: number }) {
  return (
    <tr className="border-t border-brand-100 bg-brand-50">
      <th scope="rowgroup" colSpan={span} className="px-3 py-2 text-left text-sm font-bold text-brand-900">
        <span className="sticky left-3">{label}</span>
      </th>
    </tr>
  );
}

export default function ComparePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData()?.locale ?? "it";
  const captionId = useId();
  const { products, loading } = useSavedListPage("compare", loaderData);
  const notStated = <span className="text-muted">{t("saved.compare.notStated")}</span>;
  const measure = (value: number | null, unit: "mm" | "g") => (value === null ? notStated : formatMeasure(value, unit, locale));

  return (
    <>
      <PageHeader title={t("saved.compare.title")}>{t("saved.compare.intro", { max: savedListLimits.compare })}</PageHeader>
      <div className="mx-auto max-w-7xl px-4 py-10">
        {products.length === 0 ? (
          !loading && <EmptySavedList text={t("saved.compare.empty")} hint={t("saved.compare.emptyHint")} locale={locale} />
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted sm:hidden">{t("saved.compare.scrollHint")}</p>
              <div className="ml-auto flex flex-wrap gap-2">
                <Link to={localizedHref("/wishlist", locale)} className="btn px-3 text-brand-800 underline underline-offset-2">
                  {t("saved.goToWishlist")}
                </Link>
                <ClearSavedListButton list="compare" />
              </div>
            </div>
            <ScrollRegion labelledBy={captionId} className="relative mt-6 rounded-2xl bg-white shadow-card">
              <table className="w-full border-collapse text-left">
                <caption id={captionId} className="sr-only">
                  {t("saved.compare.caption")}
                </caption>
                <thead>
                  <tr>
                    <td className={rowHeaderClass} />
                    {products.map((product) => (
                      <th key={product.id} scope="col" className={`${cellClass} font-normal`}>
                        <div className="aspect-square w-full max-w-44 overflow-hidden rounded-xl bg-sky-soft">
                          <ProductImage image={product.image} sizes="176px" className="size-full object-contain p-2" />
                        </div>
                        <Link
                          to={localizedHref(`/product/${product.id}`, locale)}
                          className="mt-2 block leading-snug font-semibold hover:text-brand-800 hover:underline"
                        >
                          {product.name}
                        </Link>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  <CompareRow
                    label={t("saved.compare.rows.price")}
                    products={products}
                    cell={(product) =>
                      product.isOnRequest ? (
                        <span className="font-semibold text-brand-800">{t("product.onRequest")}</span>
                      ) : (
                        <Price
                          cents={product.effectivePriceCents}
                          originalCents={product.effectivePriceCents < product.priceCents ? product.priceCents : null}
                          size="sm"
                        />
                      )
                    }
                  />
                  <CompareRow
                    label={t("reviews.product.shopRating")}
                    products={products}
                    cell={(product) => (product.rating > 0 ? <RatingStars rating={product.rating} /> : notStated)}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.colours")}
                    products={products}
                    cell={(product) => (product.colours.length > 0 ? product.colours.map((colour) => colourName(t, colour)).join(", ") : notStated)}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.sizes")}
                    products={products}
                    cell={(product) => (product.sizes.length > 0 ? product.sizes.join(", ") : t("saved.compare.oneSize"))}
                  />
                  <CompareRow label={t("saved.compare.rows.stock")} products={products} cell={(product) => <AvailabilityLabel product={product} />} />
                </tbody>
                <tbody>
                  <RowGroupHeading label={t("saved.compare.technicalSheet")} span={products.length + 1} />
                  <CompareRow
                    label={t("saved.compare.rows.length")}
                    products={products}
                    cell={(product) => measure(product.technicalSheet.lengthMm, "mm")}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.width")}
                    products={products}
                    cell={(product) => measure(product.technicalSheet.widthMm, "mm")}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.height")}
                    products={products}
                    cell={(product) => measure(product.technicalSheet.heightMm, "mm")}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.weight")}
                    products={products}
                    cell={(product) => measure(product.technicalSheet.weightGrams, "g")}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.material")}
                    products={products}
                    cell={(product) => product.technicalSheet.material ?? notStated}
                  />
                </tbody>
                <tbody>
                  <CompareRow
                    label={t("saved.compare.rows.cart")}
                    products={products}
                    cell={(product) => <SavedProductPurchase product={product} />}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.wishlist")}
                    products={products}
                    cell={(product) => <WishlistButton productId={product.id} productName={product.name} />}
                  />
                  <CompareRow
                    label={t("saved.compare.rows.remove")}
                    products={products}
                    cell={(product) => <RemoveSavedItemButton list="compare" product={product} className="-ml-3" />}
                  />
                </tbody>
              </table>
            </ScrollRegion>
          </>
        )}
      </div>
    </>
  );
}
