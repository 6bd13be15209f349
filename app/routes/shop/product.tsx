import { useMemo, useState, type ComponentProps } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, useLoaderData, useLocation, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { useNonce } from "#app/lib/nonce.tsx";
import { productShareImage, sharingMeta } from "#app/lib/open-graph.ts";
import { PersonalRegion, useRootData } from "#app/lib/root-data.ts";
import { breadcrumbJsonLd, productJsonLd, serializeJsonLd, type JsonLd, type ProductAvailability } from "#app/lib/structured-data.ts";
import {
  findVariant,
  getAvailability,
  getInitialSelection,
  getSelectionSearch,
  stockAlertIntent,
  takesStockAlert,
  type Availability,
  type VariantSelection,
} from "#common/variant-selection.ts";
import { GiftListSelector } from "#app/ui/gift-list-selector.tsx";
import { MailIcon, WhatsAppIcon } from "#app/ui/icons.tsx";
import { categoryHref } from "#app/ui/mega-menu.tsx";
import { Price } from "#app/ui/price.tsx";
import { ProductCard } from "#app/ui/product-card.tsx";
import { ProductGallery } from "#app/ui/product-gallery.tsx";
import { ProductReviews, ProductReviewSummary, ShopRatingDetail } from "#app/ui/product-reviews.tsx";
import { AvailabilityLabel } from "#app/ui/saved-items.tsx";
import { whatsappHref } from "#common/shop-contacts.ts";
import { TechnicalSheet } from "#app/ui/technical-sheet.tsx";
import { ProductSpecsTable } from "#app/ui/product-specs-table.tsx";
import { specTableOf } from "#server/catalog/product-specs-text.ts";
import { ProductSafetySection, RecallNotices } from "#app/ui/product-safety.tsx";
import { ProductPurchase, ProductSideActions } from "#app/ui/variant-picker.tsx";
import { StockAlertForm } from "#app/ui/stock-alert-form.tsx";
import { handleStockAlertRequest } from "./stock-alert-action.server";
import { parseProductId } from "#server/catalog/product.ts";
import { lowestPriceOfLast30Days } from "#server/admin/price-history.service.ts";
import { getProductPage, type ProductPageData } from "#server/catalog/product.service.ts";
import { getProductCards } from "#server/catalog/product-card.ts";
import { getBundleView } from "#server/bundles/bundle.service.ts";
import { BundleParts } from "#app/ui/bundle-parts.tsx";
import { getProductReviews } from "#server/reviews/review-display.service.ts";
import { giftListSelectorIntent, handleGiftListSelector } from "#app/routes/gift-lists/gift-list-selector-action.server.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { promiseDeliveryByLead } from "#server/checkout/delivery-estimate.ts";
import { getDeliveryCalendar } from "#server/checkout/delivery-estimate.service.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/product";
import { productCardMessages } from "#app/ui/ui-messages.ts";

/** Clothing's product pages link the size guide (docs/decisions/0101-product-specifications.md). */
const clothingCategorySlug = "abbigliamento";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    ...productCardMessages,
    "productPage",
    "bundles.page",
    "productSafety.section",
    "sizeGuide.link",
    "productSafety.recall",
    "giftLists.selector",
    "giftLists.errors.personalisation-missing",
    "admin.shopPrice.lowest30",
    "saved.stock",
    "reviews.product",
    "stockAlerts.form",
    // The action's refusals (the code is the key); the mail links' own error is on their pages.
    "stockAlerts.errors.emailRequired",
    "stockAlerts.errors.emailInvalid",
    "stockAlerts.errors.variantMissing",
    "stockAlerts.errors.available",
    "stockAlerts.errors.tooMany",
  ],
} satisfies MessagesHandle;

export async function loader({ params, url, request, context }: Route.LoaderArgs) {
  // Unknown, non-numeric, negative or huge ids are a missing product: the 404 page, never a 500.
  const id = parseProductId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const services = context.get(shopContext);
  const { db } = services;
  const locale = localeOfPath(url.pathname);
  const now = shopNowOf(services, request);
  // The promise's settings are read beside the product, not after it.
  const [product, calendar, reviews] = await Promise.all([getProductPage(db, id, locale, now), getDeliveryCalendar(db), getProductReviews(db, id)]);
  if (!product) throw data(null, { status: 404 });
  const [related, bundle] = await Promise.all([
    getProductCards(db, { productIds: product.relatedIds, locale, now }),
    getBundleView(db, { productId: id, bundleCents: product.effectivePriceCents, locale, now }),
  ]);
  // EU rule (Omnibus): a reduced price shows the lowest price of the 30 days before the reduction.
  const lowestPriceCents = product.discountPercent > 0 ? await lowestPriceOfLast30Days(db, id, now) : null;
  const deliveryPromises = promiseDeliveryByLead({ now, calendar, variants: product.variants });
  const specTable = specTableOf(product.specs, locale);
  return {
    product,
    specTable,
    deliveryPromises,
    related,
    bundle,
    lowestPriceCents,
    reviews,
    meta: { title: product.name, description: product.shortDescription || product.name },
  };
}

/** The page's actions: the gift-list selector and the back-in-stock alert (adding to the cart posts to /cart). */
export async function action({ params, url, request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const locale = localeOfPath(url.pathname);
  if (form.get("intent") === stockAlertIntent) return handleStockAlertRequest(context.get(shopContext), context, request, { locale, form });
  if (form.get("intent") !== giftListSelectorIntent) throw data(null, { status: 400 });
  return handleGiftListSelector(context.get(shopContext), context, request, {
    locale,
    form,
    fallbackPath: localizedHref(`/product/${params.id}`, locale),
  });
}

/** Choosing a colour or size only changes the query string: the product is already here. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

const schemaAvailability: Record<Availability, ProductAvailability> = {
  in_stock: "InStock",
  out_of_stock: "OutOfStock",
  preorder: "PreOrder",
};

function firstImageKeys(product: ProductPageData): string[] {
  const images = product.colours[0]?.images ?? product.images;
  return [...new Set([...images, ...product.colours.flatMap((colour) => colour.images)].map((image) => image.storageKey))];
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  // A missing product: the root's "page not found" title stands.
  if (!loaderData) return matches.find((match) => match?.id === "root")?.meta ?? [];
  const { product } = loaderData;
  const image = product.colours[0]?.images[0] ?? product.images[0];
  return sharingMeta({
    matches,
    location,
    meta: loaderData.meta,
    type: "product",
    image: image ? productShareImage(image.storageKey, image.alt) : undefined,
    priceCents: product.isOnRequest ? null : product.effectivePriceCents,
  });
};

export default function ProductRoute({ loaderData }: Route.ComponentProps) {
  // A new id is a new page: every piece of state (gallery, selection, quantity) starts again.
  return (
    <ProductPage
      key={loaderData.product.id}
      product={loaderData.product}
      related={loaderData.related}
      bundle={loaderData.bundle}
      deliveryPromises={loaderData.deliveryPromises}
      reviews={loaderData.reviews}
      specTable={loaderData.specTable}
    />
  );
}

/**
 * Colour and size come from the address (`?colour=blue&size=m`); the quantity restarts at 1 whenever
 * they change. A choice shows at once, while the navigation to its address is still under way.
 */
function useSelectionFromUrl(product: ProductPageData) {
  const location = useLocation();
  const navigation = useNavigation();
  const pending = navigation.location?.pathname === location.pathname ? navigation.location : null;
  const searchParams = new URLSearchParams((pending ?? location).search);
  const requestedColour = searchParams.get("colour");
  const requestedSize = searchParams.get("size");
  const fromUrl = useMemo(
    () => getInitialSelection(product.variants, { colour: requestedColour, size: requestedSize }),
    [product.variants, requestedColour, requestedSize],
  );
  const variantKey = `${fromUrl.colour}|${fromUrl.size}`;
  const [chosen, setChosen] = useState({ variantKey, quantity: fromUrl.quantity });
  const selection: VariantSelection = { ...fromUrl, quantity: chosen.variantKey === variantKey ? chosen.quantity : fromUrl.quantity };
  return { selection, setQuantity: (quantity: number) => setChosen({ variantKey, quantity }) };
}

function JsonLdScript({ blocks }: { blocks: readonly JsonLd[] }) {
  const nonce = useNonce();
  return (
    <>
      {blocks.map((block, index) => (
        <script key={index} type="application/ld+json" nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: serializeJsonLd(block) }} />
      ))}
    </>
  );
}

function Badges({ product }: { product: ProductPageData }) {
  const { t } = useTranslation();
  const discounted = !product.isOnRequest && product.discountPercent > 0;
  if (!discounted && !product.isNew && !product.isFreeShipping) return null;
  return (
    <ul className="flex flex-wrap gap-2 text-xs font-bold" aria-label={t("productPage.badges")}>
      {discounted && (
        <li className="rounded-full bg-coral-600 px-2.5 py-1 text-white">
          <span aria-hidden="true">-{product.discountPercent}%</span>
          <span className="sr-only">{t("productPage.discount", { percent: product.discountPercent })}</span>
        </li>
      )}
      {product.isNew && <li className="rounded-full bg-brand-700 px-2.5 py-1 text-white">{t("product.new")}</li>}
      {product.isFreeShipping && (
        <li className="rounded-full border border-brand-200 bg-white px-2.5 py-1 text-brand-800">{t("product.freeShipping")}</li>
      )}
    </ul>
  );
}

/**
 * The gift-list selector of a signed-in customer's open lists (docs/rules.md#accounts), in an element of no box that
 * a visitor's page has too: where a customer's kept page is filled in with it (app/lib/personal-fill.server.tsx).
 */
function ProductGiftLists(props: Omit<ComponentProps<typeof GiftListSelector>, "lists">) {
  const lists = useRootData()?.giftListChoices;
  return <div className="contents">{lists && <GiftListSelector lists={lists} {...props} />}</div>;
}

/** On-request products: no price, quantity or cart; a chat or an e-mail instead (docs/rules.md#product-page). */
function OnRequestContact({ product, pageUrl }: { product: ProductPageData; pageUrl: string }) {
  const { t } = useTranslation();
  const root = useRootData();
  if (!root) return null;
  const message = t("productPage.onRequest.message", { name: product.name, url: pageUrl });
  const subject = t("productPage.onRequest.emailSubject", { name: product.name });
  return (
    <section aria-labelledby="on-request-title" className="rounded-3xl bg-brand-50 p-5">
      <h2 id="on-request-title" className="text-lg font-bold">
        {t("productPage.onRequest.title")}
      </h2>
      <p className="mt-1 text-muted">{t("productPage.onRequest.text")}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={`${whatsappHref(root.shop.whatsapp)}?text=${encodeURIComponent(message)}`} className="btn-primary">
          <WhatsAppIcon size={20} />
          {t("productPage.onRequest.whatsapp")}
        </a>
        <a href={`mailto:${root.shop.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`} className="btn-secondary">
          <MailIcon size={20} />
          {t("productPage.onRequest.email")}
        </a>
      </div>
    </section>
  );
}

function Breadcrumbs({ items }: { items: { name: string; path: string }[] }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("productPage.breadcrumb")} className="text-sm">
      <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={item.path} className="flex items-center gap-2">
              {last ? (
                <span aria-current="page" className="font-semibold text-ink">
                  {item.name}
                </span>
              ) : (
                <>
                  <Link to={item.path} className="link">
                    {item.name}
                  </Link>
                  <span aria-hidden="true">/</span>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((paragraph) => paragraph.trim())
        .filter(Boolean)
        .map((paragraph, index) => (
          <p key={index} className="mb-4 last:mb-0">
            {paragraph}
          </p>
        ))}
    </>
  );
}

function ProductPage({
  product,
  related,
  bundle,
  deliveryPromises,
  reviews,
  specTable,
}: {
  product: ProductPageData;
  related: Route.ComponentProps["loaderData"]["related"];
  bundle: Route.ComponentProps["loaderData"]["bundle"];
  deliveryPromises: Route.ComponentProps["loaderData"]["deliveryPromises"];
  reviews: Route.ComponentProps["loaderData"]["reviews"];
  specTable: Route.ComponentProps["loaderData"]["specTable"];
}) {
  const { t } = useTranslation();
  const root = useRootData();
  const location = useLocation();
  const locale: Locale = localeOfPath(location.pathname);
  const { selection, setQuantity } = useSelectionFromUrl(product);
  const images = product.colours.find((colour) => colour.key === selection.colour)?.images ?? product.images;
  const variant = findVariant(product.variants, selection);
  const isRecalledChoice = Boolean(variant && product.variants.find((option) => option.id === variant.id)?.isRecalled);
  const publicUrl = root?.publicUrl ?? "";
  const productPath = localizedHref(`/product/${product.id}`, locale);
  const mainCategory = product.categories[0];

  const crumbs = [
    { name: t("productPage.home"), path: localizedHref("/", locale) },
    ...(mainCategory ? [{ name: mainCategory.name, path: categoryHref(mainCategory.slug, locale) }] : []),
    { name: product.name, path: productPath },
  ];
  const jsonLd = [
    productJsonLd({
      publicUrl,
      path: productPath,
      name: product.name,
      description: product.shortDescription,
      sku: product.sku,
      imageKeys: firstImageKeys(product),
      brand: product.brands[0]?.name,
      category: mainCategory?.name,
      priceCents: product.isOnRequest ? null : product.effectivePriceCents,
      availability: schemaAvailability[product.availability],
      offerEndsAt: product.offerEndsAt,
      shopName: root?.shop.name ?? "",
      // A product of several barcodes has one per variant: schema.org's gtin names one product, so only a single one is marked up.
      safety: { ...product.safety, gtin: product.safety.gtins.length === 1 ? product.safety.gtins[0]! : null },
      reviews: { summary: reviews.summary, shown: reviews.reviews },
      specs: specTable?.rows.map((row) => ({ name: row.label, value: row.value })) ?? [],
    }),
    breadcrumbJsonLd(publicUrl, crumbs),
  ];
  const hrefFor = (next: VariantSelection) => `${location.pathname}${getSelectionSearch(product.variants, next)}`;

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8 lg:py-10">
      <JsonLdScript blocks={jsonLd} />
      <Breadcrumbs items={crumbs} />
      <RecallNotices
        recalls={product.recalls}
        variants={product.variants}
        locale={locale}
        contact={root ? { email: root.shop.email, phone: root.shop.phone } : null}
      />

      {/*
        On phones the name, price and availability come first, the picture after them: the first screen shows
        what the product is, what it costs and whether it is there. Side by side on a large screen.
      */}
      <div className="mt-4 grid gap-4 lg:mt-6 lg:grid-cols-2 lg:grid-rows-[auto_1fr] lg:gap-x-12 lg:gap-y-5">
        <div className="flex flex-col gap-3 lg:col-start-2 lg:row-start-1 lg:gap-5">
          <Badges product={product} />
          <div>
            <h1 className="text-2xl font-extrabold tracking-tight sm:text-4xl">{product.name}</h1>
            {product.brands.length > 0 && <p className="mt-1 font-semibold text-brand-800">{product.brands[0]!.name}</p>}
          </div>
          {reviews.summary && <ProductReviewSummary summary={reviews.summary} locale={locale} />}
          {product.isOnRequest ? (
            <p className="text-xl font-bold text-brand-800">{t("product.onRequest")}</p>
          ) : (
            <div>
              <Price cents={product.effectivePriceCents} originalCents={product.discountPercent > 0 ? product.priceCents : null} size="lg" />
              {/* The large layout shows the stock beside the add button, on the first screen already. */}
              <span className="ml-3 desktop:hidden">
                <AvailabilityLabel product={{ availability: getAvailability(variant), isOnRequest: false }} />
              </span>
              <LowestPriceNote />
              <p className="text-sm text-muted">{t("productPage.vatIncluded")}</p>
            </div>
          )}
        </div>

        <div className="lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <ProductGallery key={selection.colour ?? "all"} images={images} productName={product.name} />
        </div>

        <div className="flex flex-col gap-5 lg:col-start-2 lg:row-start-2">
          {product.shortDescription && <p className="text-lg text-muted">{product.shortDescription}</p>}

          {bundle && <BundleParts bundle={bundle} bundleVariantId={variant?.id ?? null} />}

          {product.isOnRequest ? (
            <OnRequestContact product={product} pageUrl={`${publicUrl}${productPath}`} />
          ) : (
            <PersonalRegion name="purchase">
              <ProductPurchase
                product={product}
                selection={selection}
                picker={{ hrefFor }}
                onQuantityChange={setQuantity}
                idPrefix="product"
                soldOutLabel={t("productPage.notAvailable")}
                deliveryPromises={deliveryPromises}
                stickyBar={{
                  productName: product.name,
                  priceCents: product.effectivePriceCents,
                  originalCents: product.discountPercent > 0 ? product.priceCents : null,
                }}
              />
            </PersonalRegion>
          )}

          {product.categories.some((category) => category.slug === clothingCategorySlug) && product.variants.some((option) => !option.isOneSize) && (
            <p>
              <Link to={localizedHref("/guida-alle-taglie", locale)} className="link">
                {t("sizeGuide.link")}
              </Link>
            </p>
          )}

          {isRecalledChoice && <p className="font-semibold text-coral-700">{t("productSafety.recall.notForSale")}</p>}

          {!product.isOnRequest && variant && !isRecalledChoice && takesStockAlert(variant) && (
            <PersonalRegion name="stock-alert">
              <StockAlertForm key={variant.id} variantId={variant.id} />
            </PersonalRegion>
          )}

          <ProductSideActions product={product} buyNowClassName="link text-sm" />

          {!product.isOnRequest && (
            <PersonalRegion name="gift-list-selector">
              <ProductGiftLists variant={variant} personalisation={product.personalisation} />
            </PersonalRegion>
          )}

          <dl className="grid gap-2 border-t border-brand-100 pt-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-semibold">{t("productPage.sku")}</dt>
            <dd className="text-muted">{product.sku}</dd>
            {product.rating > 0 && <ShopRatingDetail rating={product.rating} />}
            {product.categories.length > 0 && (
              <>
                <dt className="font-semibold">{t("productPage.categories")}</dt>
                <dd>
                  <ul className="flex flex-wrap gap-x-3 gap-y-1">
                    {product.categories.map((category) => (
                      <li key={category.slug}>
                        <Link to={categoryHref(category.slug, locale)} className="link">
                          {category.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            {product.brands.length > 0 && (
              <>
                <dt className="font-semibold">{t("productPage.brands")}</dt>
                <dd>
                  <ul className="flex flex-wrap gap-2">
                    {product.brands.map((brand) => (
                      <li key={brand.slug}>
                        <Link
                          to={localizedHref(`/marchi/${brand.slug}`, locale)}
                          className="inline-block rounded-full bg-lilac-soft px-3 py-0.5 text-ink hover:bg-brand-100 hover:underline"
                        >
                          {brand.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
          </dl>
        </div>
      </div>

      <div className="mt-12 grid gap-10 lg:grid-cols-[3fr_2fr]">
        {product.fullDescription && (
          <section aria-labelledby="product-description">
            <h2 id="product-description" className="mb-3 text-2xl font-bold">
              {t("productPage.description")}
            </h2>
            <div className="max-w-prose text-ink">
              <Paragraphs text={product.fullDescription} />
            </div>
          </section>
        )}
        {product.technicalSheet && (
          <section aria-labelledby="product-sheet">
            <h2 id="product-sheet" className="mb-3 text-2xl font-bold">
              {t("productPage.sheet.title")}
            </h2>
            <TechnicalSheet sheet={product.technicalSheet} locale={locale} headingId="product-sheet" />
          </section>
        )}
        {specTable && (
          <section aria-labelledby="product-specs" className="lg:col-start-2">
            <h2 id="product-specs" className="mb-3 text-2xl font-bold">
              {specTable.title}
            </h2>
            <ProductSpecsTable rows={specTable.rows} headingId="product-specs" />
          </section>
        )}
      </div>

      <ProductSafetySection safety={product.safety} sku={product.sku} />

      <ProductReviews summary={reviews.summary} reviews={reviews.reviews} locale={locale} />

      {related.length > 0 && (
        <section aria-labelledby="product-related" className="mt-14">
          <h2 id="product-related" className="mb-6 text-2xl font-bold">
            {t("productPage.related")}
          </h2>
          <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 lg:gap-6">
            {related.map((card) => (
              <li key={card.id}>
                <ProductCard product={card} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The lowest price of the 30 days before a reduction (EU rule), under a discounted price. */
function LowestPriceNote() {
  const { t } = useTranslation();
  const { lowestPriceCents } = useLoaderData<typeof loader>();
  if (lowestPriceCents === null) return null;
  return (
    <p className="text-sm text-muted">
      {t("admin.shopPrice.lowest30")} <Price cents={lowestPriceCents} size="sm" />
    </p>
  );
}
