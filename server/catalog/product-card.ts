/**
 * The product card's data (app/ui/product-card.tsx): one shape for the listings, the search,
 * the home page rows and suggestions, loaded for a page of products in five queries and kept between requests.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { brands, productBrands, productImages, productListing, productRecallVariants, products, productVariants } from "#server/db/schema.ts";
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";
import { isOneSize } from "#common/sizes.ts";
import { getReviewSummaries, type ReviewSummary } from "#server/reviews/review-display.service.ts";
import { createCatalogueCache } from "./catalogue-cache";

export type ProductCardImage = { storageKey: string; width: number; height: number; alt: string };

/** What the card's buying button does. */
export type ProductCardPurchase =
  /** A simple product in stock: added from the card. */
  | { kind: "add"; variantId: number; stock: number; isPreorder: boolean }
  /** Colour, size or personalisation to choose first: a 'select option' link to the product page. */
  | { kind: "choose" }
  /** Nothing in stock: a disabled 'not available' button. */
  | { kind: "unavailable" }
  /** "On request" products have no price and no cart (docs/rules.md#product-page). */
  | { kind: "onRequest" };

export type ProductCardData = {
  id: number;
  name: string;
  shortDescription: string;
  /** The first brand tag. */
  brand: { slug: string; name: string } | null;
  priceCents: number;
  /** What a customer pays today: the discount applied unless its offer has ended. */
  effectivePriceCents: number;
  /** The discount that applies now (0 when none or ended). */
  discountPercent: number;
  isNew: boolean;
  isFreeShipping: boolean;
  isOnRequest: boolean;
  /** The shop's own 0 to 5 stars (never customers'): the product page shows it, labelled as the shop's. */
  rating: number;
  /** Customers' published reviews: average and count; null when there are none. */
  reviews: ReviewSummary | null;
  image: ProductCardImage | null;
  purchase: ProductCardPurchase;
};

export type CardVariant = { id: number; colourId: number | null; size: string; stock: number; isPreorder: boolean };

/** The card's buying button (docs/rules.md#storefront). */
export function getCardPurchase(product: {
  isOnRequest: boolean;
  hasPersonalisation: boolean;
  variants: readonly CardVariant[];
}): ProductCardPurchase {
  if (product.isOnRequest) return { kind: "onRequest" };
  if (!product.variants.some((variant) => variant.stock > 0)) return { kind: "unavailable" };
  const [only, ...others] = product.variants;
  if (!only || others.length > 0 || only.colourId !== null || !isOneSize(only.size) || product.hasPersonalisation) return { kind: "choose" };
  return { kind: "add", variantId: only.id, stock: only.stock, isPreorder: only.isPreorder };
}

/**
 * On request: flagged on the product, or implied by an on-request brand tag (docs/rules.md#product-page), for
 * queries on `products` (cards, cart, gift lists). The rule itself is written once, in SQL:
 * refresh_product_listing (migration 0011) keeps it in the product's listing row whenever the product, its
 * brands or a brand's flag change, in the same transaction, so this reads that row.
 */
export function isOnRequestSql(): SQL<boolean> {
  return sql<boolean>`(select ${productListing.isOnRequest} from ${productListing} where ${productListing.productId} = ${products.id})`.mapWith(
    Boolean,
  );
}

/** Whether the variant of the outer query is recalled (GPSR article 36): no longer sold, whatever its stock. */
export function isRecalledSql(): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${productRecallVariants} where ${productRecallVariants.variantId} = ${productVariants.id})`.mapWith(
    Boolean,
  );
}

/**
 * The units of the outer query's variant on the shelf: its own stock, or for a bundle's combination what its
 * parts allow (bundle_variant_stock, migration 0026_bundles_sql; docs/decisions/0100-bundles.md).
 */
export function variantStockSql(): SQL<number> {
  return sql<number>`coalesce(bundle_variant_stock(${productVariants.id}), ${productVariants.stock})`.mapWith(Number);
}

/** The units a page offers: none of a recalled variant (it is shown as not available). */
export function offeredStockSql(): SQL<number> {
  return sql<number>`case when ${isRecalledSql()} then 0 else ${variantStockSql()} end`.mapWith(Number);
}

/** The product columns `effectivePriceCents` (server/money.ts) reads: every query that shows or charges a price selects these. */
export const effectivePriceColumns = {
  priceCents: products.priceCents,
  discountPercent: products.discountPercent,
  offerEndsAt: products.offerEndsAt,
};

/** The card's own product columns, both languages, for `ids` among the published products. */
function selectCardRows(db: Db, ids: readonly number[]) {
  return db
    .select({
      id: products.id,
      nameIt: products.nameIt,
      nameEn: products.nameEn,
      shortDescriptionIt: products.shortDescriptionIt,
      shortDescriptionEn: products.shortDescriptionEn,
      ...effectivePriceColumns,
      isNew: products.isNew,
      isFreeShipping: products.isFreeShipping,
      rating: products.rating,
      hasPersonalisation:
        sql<boolean>`case when jsonb_typeof(${products.personalisationFields}) = 'array' then jsonb_array_length(${products.personalisationFields}) > 0 else false end`.mapWith(
          Boolean,
        ),
      isOnRequest: isOnRequestSql(),
    })
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.isPublished, true)));
}

/** One product's card as kept between requests: both languages, and the offer before `now` decides it. */
type StoredCard = {
  row: Awaited<ReturnType<typeof selectCardRows>>[number];
  brand: { slug: string; name: string } | null;
  image: { storageKey: string; width: number; height: number; altIt: string; altEn: string } | null;
  variants: CardVariant[];
  reviews: ReviewSummary | null;
};

/**
 * Cards kept while neither the catalogue nor stock changes (server/catalog/catalogue-cache.ts): a listing's
 * 24 cards cost five queries when read, none when kept. A minute at most, and a few thousand products.
 */
const storedCards = createCatalogueCache<StoredCard>({ maxAgeMs: 60_000, maxEntries: 5_000, watches: "catalogue and page content" });

/** The stored cards of published products among `ids`, by id as text. */
async function readStoredCards(db: Db, ids: readonly number[]): Promise<Map<string, StoredCard>> {
  const [rows, brandRows, imageRows, variantRows, reviewSummaries] = await Promise.all([
    selectCardRows(db, ids),
    db
      .selectDistinctOn([productBrands.productId], { productId: productBrands.productId, slug: brands.slug, name: brands.name })
      .from(productBrands)
      .innerJoin(brands, eq(brands.id, productBrands.brandId))
      .where(inArray(productBrands.productId, ids))
      .orderBy(productBrands.productId, asc(productBrands.position), asc(productBrands.brandId)),
    db
      .selectDistinctOn([productImages.productId], {
        productId: productImages.productId,
        storageKey: productImages.storageKey,
        width: productImages.width,
        height: productImages.height,
        altIt: productImages.altIt,
        altEn: productImages.altEn,
      })
      .from(productImages)
      .where(inArray(productImages.productId, ids))
      .orderBy(productImages.productId, asc(productImages.position), asc(productImages.id)),
    db
      .select({
        productId: productVariants.productId,
        id: productVariants.id,
        colourId: productVariants.colourId,
        size: productVariants.size,
        stock: offeredStockSql(),
        isPreorder: productVariants.isPreorder,
      })
      .from(productVariants)
      .where(inArray(productVariants.productId, ids))
      .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id)),
    getReviewSummaries(db, ids),
  ]);

  const brandOf = new Map(brandRows.map(({ productId, ...brand }) => [productId, brand]));
  const imageOf = new Map(imageRows.map(({ productId, ...image }) => [productId, image]));
  const variantsOf = new Map<number, CardVariant[]>();
  for (const { productId, ...variant } of variantRows) {
    const list = variantsOf.get(productId) ?? [];
    list.push(variant);
    variantsOf.set(productId, list);
  }
  return new Map(
    rows.map((row) => [
      String(row.id),
      {
        row,
        brand: brandOf.get(row.id) ?? null,
        image: imageOf.get(row.id) ?? null,
        variants: variantsOf.get(row.id) ?? [],
        reviews: reviewSummaries.get(row.id) ?? null,
      },
    ]),
  );
}

/**
 * Cards for `productIds`, in that order; ids of missing or unpublished products are left out.
 * `now` decides whether an offer is still running.
 */
export async function getProductCards(
  db: Db,
  { productIds, locale, now }: { productIds: readonly number[]; locale: Locale; now: Date },
): Promise<ProductCardData[]> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return [];
  const stored = await storedCards.getMany(
    db,
    ids.map((id) => String(id)),
    (missing) => readStoredCards(db, missing.map(Number)),
  );
  return stored.flatMap((card) => {
    if (!card) return [];
    const { row, image } = card;
    return {
      id: row.id,
      name: locale === "en" ? row.nameEn : row.nameIt,
      shortDescription: locale === "en" ? row.shortDescriptionEn : row.shortDescriptionIt,
      brand: card.brand,
      priceCents: row.priceCents,
      effectivePriceCents: effectivePriceCents(row, now),
      discountPercent: activeDiscountPercent(row.discountPercent, row.offerEndsAt, now),
      isNew: row.isNew,
      isFreeShipping: row.isFreeShipping,
      isOnRequest: row.isOnRequest,
      rating: row.rating,
      reviews: card.reviews,
      image: image && { storageKey: image.storageKey, width: image.width, height: image.height, alt: locale === "en" ? image.altEn : image.altIt },
      purchase: getCardPurchase({ isOnRequest: row.isOnRequest, hasPersonalisation: row.hasPersonalisation, variants: card.variants }),
    };
  });
}
