import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath, type Locale } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { CompareButton } from "#app/ui/compare-button.tsx";
import { HeartIcon } from "#app/ui/icons.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { Price } from "#app/ui/price.tsx";
import { ProductImage } from "#app/ui/product-image.tsx";
import {
  AvailabilityLabel,
  ClearSavedListButton,
  EmptySavedList,
  RemoveSavedItemButton,
  SavedProductPurchase,
  useSavedListPage,
} from "#app/ui/saved-items.tsx";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { loadSavedListPage, submitSavedListForm } from "./saved-items-request.server";
import type { SavedProduct } from "#server/saved-items/saved-items.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/wishlist";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["product", "saved"] } satisfies MessagesHandle;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const page = await loadSavedListPage(context.get(shopContext), request, url, "wishlist");
  return {
    ...page,
    meta: getPageMetaTexts(localeOfPath(url.pathname), "saved.wishlist"),
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const user = await getSessionUser(context, request);
  return submitSavedListForm(context.get(shopContext), request, url, "wishlist", user?.id ?? null);
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  ...pageMeta(matches, loaderData?.meta),
  // A visitor's own list: nothing for search engines.
  { name: "robots", content: "noindex" },
];

function WishlistRow({ product, locale }: { product: SavedProduct; locale: Locale }) {
  const { t } = useTranslation();
  const discounted = !product.isOnRequest && product.effectivePriceCents < product.priceCents;
  return (
    <article className="grid grid-cols-[5.5rem_1fr] items-center gap-x-4 gap-y-3 rounded-2xl bg-white p-4 shadow-card sm:grid-cols-[7rem_1fr_auto]">
      <div className="aspect-square overflow-hidden rounded-xl bg-sky-soft">
        <ProductImage image={product.image} sizes="112px" fallbackWidth={160} className="size-full object-contain p-1.5" />
      </div>
      <div className="min-w-0 space-y-1.5">
        <h2 className="leading-snug font-semibold">
          <Link to={localizedHref(`/product/${product.id}`, locale)} className="hover:text-brand-800 hover:underline">
            {product.name}
          </Link>
        </h2>
        <p>
          {product.isOnRequest ? (
            <span className="font-semibold text-brand-800">{t("product.onRequest")}</span>
          ) : (
            <Price cents={product.effectivePriceCents} originalCents={discounted ? product.priceCents : null} />
          )}
        </p>
        <p>
          <AvailabilityLabel product={product} />
        </p>
      </div>
      <div className="col-span-2 flex flex-wrap items-center gap-2 sm:col-span-1 sm:justify-end">
        <SavedProductPurchase product={product} />
        <CompareButton productId={product.id} productName={product.name} />
        <RemoveSavedItemButton list="wishlist" product={product} />
      </div>
    </article>
  );
}

export default function WishlistPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const locale = useRootData()?.locale ?? "it";
  const { products, loading } = useSavedListPage("wishlist", loaderData);
  return (
    <>
      <PageHeader title={t("saved.wishlist.title")}>{t("saved.wishlist.intro")}</PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-10">
        {products.length === 0 ? (
          !loading && <EmptySavedList text={t("saved.wishlist.empty")} hint={t("saved.wishlist.emptyHint")} locale={locale} />
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="flex items-center gap-2 font-semibold">
                <HeartIcon size={20} className="text-coral-600" />
                {t("saved.wishlist.count", { count: products.length })}
              </p>
              <div className="flex flex-wrap gap-2">
                <Link to={localizedHref("/compare", locale)} className="btn px-3 text-brand-800 underline underline-offset-2">
                  {t("saved.goToCompare")}
                </Link>
                <ClearSavedListButton list="wishlist" />
              </div>
            </div>
            <ul aria-label={t("saved.wishlist.listLabel")} className="mt-6 space-y-4">
              {products.map((product) => (
                <li key={product.id}>
                  <WishlistRow product={product} locale={locale} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  );
}
