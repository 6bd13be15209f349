/**
 * What tells whether a kept visitor's page still holds besides the database's versions (read by
 * `readWatchedVersion`, server/catalog/catalogue-cache.ts, for every change made through any process): changes
 * by the clock alone, namely the end of an offer the page shows, the delivery promise's cut-off and day, the
 * footer's year.
 */
import { and, eq, gt, inArray, min, or, sql, type SQL } from "drizzle-orm";
import { addDays, italianDayOf, italianMidnight, italianTimeOf } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, productListing, productRelations, products, subcategories } from "#server/db/schema.ts";
import { listingRouteOf } from "#server/catalog/listing.ts";
import { slugPattern } from "#server/catalog/listing.inputs.ts";
import { offersCategorySlug } from "#server/catalog/taxonomy.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { productOfPath } from "./page-content-watch";

/**
 * Whose offers a kept page shows, by its route (decision 0096): a product page (its quick view, its `.data`)
 * shows the product and its related cards; a category's, subcategory's or brand's listing shows, sorts and
 * counts that subject's products; the texts show none; any other page (home, shop, search) any product.
 */
export type OfferScope =
  { kind: "none" } | { kind: "all" } | { kind: "product"; productId: number } | { kind: "category" | "subcategory" | "brand"; slug: string };

/** Kept routes that show no product's price. */
const textPatterns = new Set(["about", "contact", "centroassistenza", "privacy", "cookie-policy", "api/docs", "marchi"].map((page) => `en?/${page}`));
const listingPatterns = new Map<string, "category" | "subcategory" | "brand">([
  ["en?/categoria/:category", "category"],
  ["en?/sottocategoria/:subcategory", "subcategory"],
  ["en?/marchi/:brand", "brand"],
]);

/** The scope of the page at `pathname`, whose route pattern is `pattern` (null: not a page, the route manifest). */
export function offerScopeOf(pattern: string | null, pathname: string): OfferScope {
  if (pattern === null || textPatterns.has(pattern)) return { kind: "none" };
  const productId = productOfPath(pathname);
  if (productId !== null) return { kind: "product", productId };
  const listing = listingPatterns.get(pattern);
  if (!listing) return { kind: "all" };
  const route = listingRouteOf(pathname.replace(/\.data$/, ""));
  // A path no listing can have (a bad escape, odd characters) is a 404 page: scoped to everything, never read as a slug.
  const slug = route && "slug" in route && slugPattern.test(route.slug) ? route.slug : null;
  if (slug === null) return { kind: "all" };
  return listing === "category" && slug === offersCategorySlug ? { kind: "all" } : { kind: listing, slug };
}

/**
 * The first instant after `now` at which the page may show something else with no change in the database.
 * An offer ending drops only the pages that show its product; the settings' cut-off moves
 * `page_content_version` when it changes.
 */
export async function nextClockChange(db: Db, now: Date, scope: OfferScope = { kind: "all" }): Promise<number> {
  const [offerEndsAt, settings] = await Promise.all([firstOfferEnd(db, now, scope), getSettings(db, ["deliveryTimes"])]);
  const today = italianDayOf(now);
  const changes = [
    // The delivery promise counts from the next working day once the cut-off has passed, and from each new day.
    italianInstantAt(today, settings.deliveryTimes.cutoff),
    italianInstantAt(addDays(today, 1), settings.deliveryTimes.cutoff),
    italianMidnight(addDays(today, 1)),
    // The footer's copyright year, in the server's time zone.
    new Date(now.getFullYear() + 1, 0, 1),
    offerEndsAt,
  ];
  return Math.min(...changes.flatMap((instant) => (instant && instant.getTime() > now.getTime() ? [instant.getTime()] : [])));
}

/** The first end after `now` of a running offer among the scope's products. */
async function firstOfferEnd(db: Db, now: Date, scope: OfferScope): Promise<Date | null> {
  if (scope.kind === "none") return null;
  if (scope.kind === "all" || scope.kind === "product") {
    const related = db.select({ id: productRelations.relatedProductId }).from(productRelations);
    const ofPage: SQL | undefined =
      scope.kind === "product"
        ? or(eq(products.id, scope.productId), inArray(products.id, related.where(eq(productRelations.productId, scope.productId))))
        : undefined;
    const [offer] = await db
      .select({ endsAt: min(products.offerEndsAt) })
      .from(products)
      .where(and(gt(products.discountPercent, 0), gt(products.offerEndsAt, now), ofPage));
    return offer?.endsAt ?? null;
  }
  // The listing's own subject, as listing.service.ts reads it: product_listing, by the subject's id.
  const subject =
    scope.kind === "category"
      ? sql`${productListing.categoryIds} && array[(select ${categories.id} from ${categories} where ${categories.slug} = ${scope.slug})]::integer[]`
      : scope.kind === "subcategory"
        ? sql`${productListing.subcategoryId} = (select ${subcategories.id} from ${subcategories} where ${subcategories.slug} = ${scope.slug})`
        : sql`${productListing.brandIds} && array[(select ${brands.id} from ${brands} where ${brands.slug} = ${scope.slug})]::integer[]`;
  const [offer] = await db
    .select({ endsAt: min(productListing.offerEndsAt) })
    .from(productListing)
    .where(and(gt(productListing.discountPercent, 0), gt(productListing.offerEndsAt, now), subject));
  return offer?.endsAt ?? null;
}

/** The instant an Italian calendar day reads `time` ("HH:MM"); null on the hour a clock change skips. */
function italianInstantAt(isoDate: string, time: string): Date | null {
  for (const offset of ["+01:00", "+02:00"]) {
    const candidate = new Date(`${isoDate}T${time}:00${offset}`);
    if (italianDayOf(candidate) === isoDate && italianTimeOf(candidate) === time) return candidate;
  }
  return null;
}
