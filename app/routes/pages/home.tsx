import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { sharingMeta } from "#app/lib/open-graph.ts";
import { CategoryIcon } from "#app/ui/category-icon.tsx";
import { ChatIcon, GiftIcon, StoreIcon, TruckIcon } from "#app/ui/icons.tsx";
import { categoryHref } from "#app/ui/mega-menu.tsx";
import { ProductCard } from "#app/ui/product-card.tsx";
import { getHomeProducts } from "#server/catalog/home.service.ts";
import type { ProductCardData } from "#server/catalog/product-card.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/home";
import { productCardMessages } from "#app/ui/ui-messages.ts";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: [...productCardMessages, "home"] } satisfies MessagesHandle;

export async function loader({ url, request, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const products = await getHomeProducts(db, locale, shopNowOf(context.get(shopContext), request));
  return { ...products, meta: getPageMetaTexts(locale, "home") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) =>
  sharingMeta({ matches, location, meta: loaderData?.meta, includeShop: true });

/** Soft backgrounds for the category tiles, in turn. */
const tileColours = ["bg-sky-soft", "bg-coral-50", "bg-sun-50", "bg-lilac-soft", "bg-brand-50", "bg-rose-soft"];

function ProductRow({ id, title, products, action }: { id: string; title: string; products: ProductCardData[]; action?: ReactNode }) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mx-auto mt-16 max-w-7xl px-4 sm:px-6 lg:px-8">
      <div className="mb-6 flex items-end justify-between gap-4">
        <h2 id={id} className="text-2xl font-bold sm:text-3xl">
          {title}
        </h2>
        {action}
      </div>
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 lg:gap-6">
        {products.map((product) => (
          <li key={product.id}>
            <ProductCard product={product} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ShopPromise({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <li className="flex gap-3">
      <span className="grid size-11 shrink-0 place-items-center rounded-full bg-white text-brand-700 shadow-sm">{icon}</span>
      <span>
        <span className="block font-bold">{title}</span>
        <span className="block text-sm text-muted">{text}</span>
      </span>
    </li>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const { locale, categories, shop } = root;
  const { newArrivals, bestSellers, offers } = loaderData;
  return (
    <>
      <section className="bg-linear-to-br from-brand-50 via-cream to-coral-50">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1.2fr_1fr] lg:px-8 lg:py-20">
          <div>
            <p className="mb-3 inline-block rounded-2xl bg-white px-3 py-1 text-sm font-semibold text-brand-800 shadow-sm">
              {t("home.eyebrow", { city: shop.city })}
            </p>
            <h1 className="text-4xl leading-tight font-extrabold tracking-tight text-ink sm:text-5xl">{t("home.title")}</h1>
            <p className="mt-5 max-w-xl text-lg text-muted">{t("home.intro")}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={localizedHref("/shop", locale)} className="btn-primary px-6 py-3 text-base">
                {t("home.ctaShop")}
              </Link>
              <Link to={localizedHref("/lista-nascita", locale)} className="btn-secondary px-6 py-3 text-base">
                {t("home.ctaGiftList")}
              </Link>
            </div>
          </div>
          <ul className="grid gap-5 rounded-3xl bg-white/70 p-6 shadow-card sm:grid-cols-2 lg:grid-cols-1">
            <ShopPromise icon={<TruckIcon />} title={t("home.promiseDeliveryTitle", { city: shop.city })} text={t("home.promiseDeliveryText")} />
            <ShopPromise icon={<StoreIcon />} title={t("home.promiseCollectionTitle")} text={t("home.promiseCollectionText")} />
            <ShopPromise icon={<ChatIcon />} title={t("home.promiseAdviceTitle")} text={t("home.promiseAdviceText")} />
            <ShopPromise icon={<GiftIcon />} title={t("home.promiseGiftListTitle")} text={t("home.promiseGiftListText")} />
          </ul>
        </div>
      </section>

      <section aria-labelledby="home-categories" className="mx-auto mt-14 max-w-7xl px-4 sm:px-6 lg:px-8">
        <h2 id="home-categories" className="mb-6 text-2xl font-bold sm:text-3xl">
          {t("home.categoriesTitle")}
        </h2>
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {categories.map((category, index) => (
            <li key={category.slug}>
              <Link
                to={categoryHref(category.slug, locale)}
                className={`flex h-full flex-col items-center gap-3 rounded-2xl p-5 text-center font-bold text-ink transition-transform hover:-translate-y-0.5 hover:shadow-card ${tileColours[index % tileColours.length]}`}
              >
                <span className="grid size-16 place-items-center rounded-full bg-white text-brand-700 shadow-sm">
                  <CategoryIcon slug={category.slug} size={32} />
                </span>
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <ProductRow id="home-new" title={t("home.newArrivals")} products={newArrivals} />
      <ProductRow id="home-best" title={t("home.bestSellers")} products={bestSellers} />
      <ProductRow
        id="home-offers"
        title={t("home.offers")}
        products={offers}
        action={
          <Link to={categoryHref("offerte", locale)} className="link shrink-0 text-sm">
            {t("home.allOffers")}
          </Link>
        }
      />

      <section aria-labelledby="home-gift-list" className="mx-auto mt-16 max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="grid items-center gap-6 rounded-3xl bg-coral-50 p-8 md:grid-cols-[1fr_auto] md:p-12">
          <div>
            <h2 id="home-gift-list" className="text-2xl font-bold sm:text-3xl">
              {t("home.giftListTitle")}
            </h2>
            <p className="mt-3 max-w-2xl text-muted">{t("home.giftListText")}</p>
          </div>
          <Link to={localizedHref("/lista-nascita", locale)} className="btn-coral px-6 py-3 text-base">
            {t("home.giftListCta")}
          </Link>
        </div>
      </section>
    </>
  );
}
