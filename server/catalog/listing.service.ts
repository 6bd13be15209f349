/**
 * The catalogue listing: /shop, /shop-grid-standard, /categoria/{category},
 * /sottocategoria/{subcategory}, /marchi/{brand}, and the search (/shop?search=...).
 * Filters combine (any value within one filter, every filter together) and each option carries
 * the number of products it would show given the other filters. Prices sort on what a customer
 * pays today, computed in SQL with the same rounding as server/money.ts. The products shown are read
 * from product_listing, the narrow copy the triggers keep of what a listing needs (categories, brands,
 * colours and sizes as arrays with GIN indexes), not from the wide products rows
 * (docs/decisions/0025-catalogue-caches-and-scale.md); the total and the filter counts come from the
 * process's index of those rows (facet-index.ts, docs/decisions/0028-facet-index.md).
 */
import { and, asc, count, desc, eq, gt, isNull, not, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productBrands,
  productColours,
  productListing,
  products,
  productSpecs,
  productVariants,
  subcategories,
} from "#server/db/schema.ts";
import { isOneSize } from "#common/sizes.ts";
import { createCatalogueCache } from "./catalogue-cache";
import { getTaxonomy, type Taxonomy } from "./navigation.service";
import { countListing, countSubcategoryProducts, type ListingSubjectMembers, type ResolvedFilters } from "./facet-index";
import type { ListingGroup } from "./listing.inputs";
import {
  buildFacetOptions,
  clampPage,
  listingFacets,
  listingPageSize,
  pageCountOf,
  type ListingFacet,
  type ListingFacetOptions,
  type ListingFilters,
  type ListingQuery,
  type ListingScope,
  type SpecFilters,
} from "./listing";
import { getProductCards, type ProductCardData } from "./product-card";
import { exactSearchMatch, listingSearch, noSearchMatch, similarSearchMatch, textArray, type SearchMatch, type SearchMode } from "./search.service";
import { offersCategorySlug } from "./taxonomy";

type NamedLink = { slug: string; name: string };

/** The listing's own subject, named in the page's language. */
export type ListingSubject =
  | { kind: "shop"; layout: "grid" | "list" }
  | { kind: "category"; slug: string; name: string; subcategories: (NamedLink & { count: number })[] }
  | { kind: "subcategory"; slug: string; name: string; category: NamedLink }
  | { kind: "brand"; slug: string; name: string };

export type Listing = {
  subject: ListingSubject;
  /** The query as applied: unknown filter values dropped, the page clamped to the pages there are. */
  query: ListingQuery;
  products: ProductCardData[];
  total: number;
  pageCount: number;
  facets: ListingFacetOptions;
  /** The car-seat and stroller filters' counts; `described` 0: the listing holds no product they apply to. */
  specCounts: { described: number; isofix: number; rotation: number };
  /** How the search matched; null without a search. */
  searchMode: SearchMode | null;
  /** When typos were allowed: the search as it was understood ("pasegino" -> "passeggino"). */
  searchCorrectedText: string | null;
};

type Condition = SQL | undefined;

const nameIn = (locale: Locale) => (row: { nameIt: string; nameEn: string }) => (locale === "en" ? row.nameEn : row.nameIt);

/**
 * A discount that applies at `now` (docs/rules.md#money: none once the offer has ended). The 0 is written out,
 * not a parameter, so that the planner knows the discounted-price index (discount > 0) applies.
 */
function offerRunning(now: Date): SQL {
  return and(sql`${productListing.discountPercent} > 0`, or(isNull(productListing.offerEndsAt), gt(productListing.offerEndsAt, now)))!;
}

/** round(price × (100 − discount) / 100), half away from zero; the expression of product_listing_discounted_price_idx. */
function discountedPriceSql(): SQL<number> {
  return sql<number>`round(${productListing.priceCents} * (100 - ${productListing.discountPercent}) / 100.0)`;
}

/** The price a customer pays today, in cents. */
function effectivePriceSql(now: Date): SQL<number> {
  return sql<number>`case when ${offerRunning(now)} then ${discountedPriceSql()} else ${productListing.priceCents} end`;
}

/** On request, with no price shown: the product's own flag or an on-request brand tag, kept in the listing row. */
const onRequest = sql<boolean>`${productListing.isOnRequest}`;

/** Products "in offer": a running discount, and a price to show (on-request products have none). */
function saleItems(now: Date): SQL {
  return and(offerRunning(now), not(onRequest))!;
}

function groupCondition(group: ListingGroup | null, now: Date): Condition {
  if (group === "new") return eq(productListing.isNew, true);
  if (group === "bestSeller") return gt(productListing.saleCount, 0);
  if (group === "saleItems") return saleItems(now);
  return undefined;
}

/** The listing row holds any of `values` in an array column (overlap, served by the column's GIN index). */
function holdsAny(column: PgColumn, values: readonly (number | string)[]): SQL {
  const items = sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
  return sql`${column} && array[${items}]::${sql.raw(column.getSQLType())}`;
}

function inCategories(categoryIds: number[], offers: boolean, now: Date): Condition {
  const linked = categoryIds.length > 0 ? holdsAny(productListing.categoryIds, categoryIds) : undefined;
  if (!offers) return linked;
  return linked ? or(linked, saleItems(now)) : saleItems(now);
}

function filterConditions(filters: ResolvedFilters, now: Date, except?: ListingFacet): Condition[] {
  const conditions: Condition[] = [];
  if (except !== "categories" && (filters.categoryIds.length > 0 || filters.offers)) {
    conditions.push(inCategories(filters.categoryIds, filters.offers, now));
  }
  if (except !== "tags" && filters.brandIds.length > 0) conditions.push(holdsAny(productListing.brandIds, filters.brandIds));
  if (except !== "colours" && filters.colours.length > 0) conditions.push(holdsAny(productListing.colours, filters.colours));
  if (except !== "sizes" && filters.sizes.length > 0) conditions.push(holdsAny(productListing.sizes, filters.sizes));
  return conditions;
}

/** Products whose specifications pass the car-seat and stroller filters (the rule of common/product-specs.ts, in SQL). */
function specCondition(specs: SpecFilters): Condition {
  const conditions: SQL[] = [];
  if (specs.isofix) conditions.push(sql`${productSpecs.hasIsofix}`);
  if (specs.rotation) conditions.push(sql`${productSpecs.rotates360}`);
  if (specs.heightCm !== null)
    conditions.push(sql`${productSpecs.statureMinCm} <= ${specs.heightCm} and ${productSpecs.statureMaxCm} >= ${specs.heightCm}`);
  if (specs.ageMonths !== null) {
    conditions.push(
      sql`(${productSpecs.ageMinMonths} is not null or ${productSpecs.ageMaxMonths} is not null) and coalesce(${productSpecs.ageMinMonths}, 0) <= ${specs.ageMonths} and coalesce(${productSpecs.ageMaxMonths}, ${specs.ageMonths}) >= ${specs.ageMonths}`,
    );
  }
  if (conditions.length === 0) return undefined;
  return sql`exists (select 1 from ${productSpecs} where ${productSpecs.productId} = ${productListing.productId} and ${and(...conditions)})`;
}

/** The page's subject and the condition it puts on products; null when the slug is unknown. */
async function resolveSubject(
  db: Db,
  scope: ListingScope,
  catalogue: Taxonomy,
  locale: Locale,
  now: Date,
): Promise<{ subject: ListingSubject; condition: Condition; members: ListingSubjectMembers } | null> {
  const name = nameIn(locale);
  if (scope.kind === "shop") return { subject: { kind: "shop", layout: scope.layout }, condition: undefined, members: { kind: "all" } };
  if (scope.kind === "category") {
    const category = catalogue.categories.find((candidate) => candidate.slug === scope.slug);
    if (!category) return null;
    const subcategoryRows = catalogue.subcategories.filter((row) => row.categoryId === category.id);
    const productCounts = await countSubcategoryProducts(
      db,
      subcategoryRows.map((row) => row.id),
    );
    return {
      subject: {
        kind: "category",
        slug: category.slug,
        name: name(category),
        subcategories: subcategoryRows.map((row) => ({ slug: row.slug, name: name(row), count: productCounts.get(row.id)! })),
      },
      condition: inCategories(category.slug === offersCategorySlug ? [] : [category.id], category.slug === offersCategorySlug, now),
      members: category.slug === offersCategorySlug ? { kind: "offers" } : { kind: "category", categoryId: category.id },
    };
  }
  if (scope.kind === "subcategory") {
    const [row] = await db
      .select({ subcategory: subcategories, category: categories })
      .from(subcategories)
      .innerJoin(categories, eq(categories.id, subcategories.categoryId))
      .where(eq(subcategories.slug, scope.slug));
    if (!row) return null;
    return {
      subject: {
        kind: "subcategory",
        slug: row.subcategory.slug,
        name: name(row.subcategory),
        category: { slug: row.category.slug, name: name(row.category) },
      },
      condition: eq(productListing.subcategoryId, row.subcategory.id),
      members: { kind: "subcategory", subcategoryId: row.subcategory.id },
    };
  }
  const brand = catalogue.brands.find((candidate) => candidate.slug === scope.slug);
  if (!brand) return null;
  return {
    subject: { kind: "brand", slug: brand.slug, name: brand.name },
    condition: holdsAny(productListing.brandIds, [brand.id]),
    members: { kind: "brand", brandId: brand.id },
  };
}

/** Those of `values` that some row of `table` holds in `column`. */
async function knownValues(db: Db, values: readonly string[], table: PgTable, column: PgColumn): Promise<{ value: string }[]> {
  if (values.length === 0) return [];
  return db
    .select({ value: sql<string>`chosen.value` })
    .from(sql`unnest(${textArray(values)}) as chosen(value)`)
    .where(sql`exists (select 1 from ${table} where ${column} = chosen.value)`);
}

/** Filter values that name nothing in the catalogue are dropped, so they never empty the page. */
async function resolveFilters(
  db: Db,
  query: ListingFilters & { specs: SpecFilters },
  catalogue: Taxonomy,
): Promise<{ applied: ListingFilters; resolved: ResolvedFilters }> {
  const chosenCategories = catalogue.categories.filter((category) => query.categories.includes(category.slug));
  const chosenBrands = catalogue.brands.filter((brand) => query.tags.includes(brand.slug));
  // One index probe per chosen value (a distinct over the matches would read every product of a colour).
  const [colourRows, sizeRows] = await Promise.all([
    knownValues(db, query.colours, productColours, productColours.colour),
    knownValues(db, query.sizes, productVariants, productVariants.size),
  ]);
  const known = (values: string[], rows: { value: string }[]) => values.filter((value) => rows.some((row) => row.value === value));
  const applied: ListingFilters = {
    categories: query.categories.filter((slug) => chosenCategories.some((category) => category.slug === slug)),
    tags: query.tags.filter((slug) => chosenBrands.some((brand) => brand.slug === slug)),
    colours: known(query.colours, colourRows),
    sizes: known(query.sizes, sizeRows).filter((size) => !isOneSize(size)),
  };
  return {
    applied,
    resolved: {
      categoryIds: chosenCategories.filter((category) => category.slug !== offersCategorySlug).map((category) => category.id),
      offers: chosenCategories.some((category) => category.slug === offersCategorySlug),
      brandIds: chosenBrands.map((brand) => brand.id),
      colours: applied.colours,
      sizes: applied.sizes,
      specs: query.specs,
    },
  };
}

/** The order of a listing without a search (a search's page follows its ranked matches). */
function orderOf(query: ListingQuery): SQL[] {
  if (query.group === "bestSeller") return [desc(productListing.saleCount)];
  if (query.group === "saleItems") return [desc(productListing.discountPercent)];
  return [desc(productListing.createdAt)];
}

/**
 * A page of a price sort (the price paid today, then id), without computing every matching product's
 * price: products without a running offer follow the list-price index, those with one the discounted-price
 * index, each read only as far as the page reaches; on-request products, which show no price, come after
 * every priced one (docs/rules.md#money). The offer's end is checked at `now`, so an ended offer needs no rewrite.
 */
async function priceOrderedIds(
  db: Db,
  where: SQL | undefined,
  { descending, now, offset }: { descending: boolean; now: Date; offset: number },
): Promise<number[]> {
  const direction = sql.raw(descending ? "desc" : "asc");
  const branches = [
    { condition: and(not(onRequest), not(offerRunning(now))), price: sql<number>`${productListing.priceCents}`, isOnRequest: false },
    { condition: and(not(onRequest), offerRunning(now)), price: discountedPriceSql(), isOnRequest: false },
    { condition: onRequest, price: effectivePriceSql(now), isOnRequest: true },
  ];
  const reach = offset + listingPageSize;
  const pages = branches.map(
    ({ condition, price, isOnRequest }) =>
      sql`(select ${productListing.productId} as id, ${sql.raw(String(isOnRequest))} as on_request, ${price} as price from ${productListing} where ${and(where, condition)} order by ${price} ${direction}, ${productListing.productId} limit ${reach})`,
  );
  const rows = await db
    .select({ id: sql<number>`priced.id` })
    .from(sql`(${sql.join(pages, sql` union all `)}) as priced`)
    .orderBy(sql`priced.on_request`, sql`priced.price ${direction}`, sql`priced.id`)
    .limit(listingPageSize)
    .offset(offset);
  return rows.map((row) => row.id);
}

/** A search on the listing: how it matches, and every published product it matches, best first. */
type RankedSearch = { match: SearchMatch; rankedIds: number[] };

/**
 * A search's matches in rank order (then id), kept while the catalogue stays the same: a shop's searches
 * repeat, and matching and ranking read every product holding the words (about 30 ms for a common word on
 * 100,000 products). The counts need the matches as ids; a page of a search in relevance order is then the
 * listed ones among them, with no ranking per request. How a search matches and ranks depends only on the
 * catalogue, never on the hour.
 */
const rankedSearchCache = createCatalogueCache<RankedSearch>({ maxAgeMs: 60_000, maxEntries: 100 });

function rankedSearch(db: Db, { text, locale }: { text: string; locale: Locale }): Promise<RankedSearch> {
  return rankedSearchCache.get(db, JSON.stringify([locale, text]), async () => {
    // Most searches match as typed: their ranked matches also say so, with no probe of whether any does.
    const exact = exactSearchMatch({ text, locale });
    if (!exact) return { match: noSearchMatch, rankedIds: [] };
    const exactIds = await rankedMatchIds(db, exact, locale);
    if (exactIds.length > 0) return { match: exact, rankedIds: exactIds };
    const similar = await similarSearchMatch(db, { text, locale });
    return { match: similar, rankedIds: similar.mode === "similar" ? await rankedMatchIds(db, similar, locale) : [] };
  });
}

/** The published products a search matches, best first, then by id. */
async function rankedMatchIds(db: Db, match: SearchMatch, locale: Locale): Promise<number[]> {
  const searched = listingSearch(match, locale);
  const [row] = await db
    .select({
      ids: sql<number[]>`coalesce(array_agg(${productListing.productId} order by ${searched.rank} desc, ${productListing.productId}), '{}')`,
    })
    .from(productListing)
    .where(and(eq(productListing.isPublished, true), searched.where));
  return row?.ids ?? [];
}

/** A page of the listing with its filters; null when the category, subcategory or brand is unknown (404). */
export async function getListing(
  db: Db,
  { scope, query, locale, now }: { scope: ListingScope; query: ListingQuery; locale: Locale; now: Date },
): Promise<Listing | null> {
  const catalogue = await getTaxonomy(db);
  const [resolvedSubject, filters, search] = await Promise.all([
    resolveSubject(db, scope, catalogue, locale, now),
    resolveFilters(db, query, catalogue),
    query.search ? rankedSearch(db, { text: query.search, locale }) : null,
  ]);
  if (!resolvedSubject) return null;
  const { subject, condition: subjectCondition, members } = resolvedSubject;

  // The page's own subject is not offered as a filter, and a filter of it is ignored.
  const shownFacets = listingFacets.filter(
    (facet) =>
      !(facet === "categories" && (subject.kind === "category" || subject.kind === "subcategory")) && !(facet === "tags" && subject.kind === "brand"),
  );
  const showsCategories = shownFacets.includes("categories");
  const showsTags = shownFacets.includes("tags");
  const applied: ListingFilters = {
    ...filters.applied,
    categories: showsCategories ? filters.applied.categories : [],
    tags: showsTags ? filters.applied.tags : [],
  };
  const resolved: ResolvedFilters = {
    ...filters.resolved,
    categoryIds: showsCategories ? filters.resolved.categoryIds : [],
    offers: showsCategories && filters.resolved.offers,
    brandIds: showsTags ? filters.resolved.brandIds : [],
  };

  const searched = search ? listingSearch(search.match, locale) : null;
  const base = [
    eq(productListing.isPublished, true),
    subjectCondition,
    groupCondition(query.group, now),
    searched?.where,
    specCondition(query.specs),
  ];
  const where = and(...base, ...filterConditions(resolved, now));
  const { total, facetCounts, specCounts, pageOf } = await countListing(db, {
    subject: members,
    group: query.group,
    searchMatches: search?.rankedIds ?? null,
    filters: resolved,
    shownFacets,
    offersCategoryId: catalogue.categories.find((category) => category.slug === offersCategorySlug)?.id,
    now,
  });
  const pageCount = pageCountOf(total);
  const page = clampPage(query.page, pageCount);

  const offset = (page - 1) * listingPageSize;
  const pageIds =
    total === 0
      ? []
      : query.sort === "priceHighToLow" || query.sort === "priceLowToHigh"
        ? await priceOrderedIds(db, where, { descending: query.sort === "priceHighToLow", now, offset })
        : search
          ? pageOf(search.rankedIds, offset, listingPageSize)
          : (
              await db
                .select({ id: productListing.productId })
                .from(productListing)
                .where(where)
                .orderBy(...orderOf(query), asc(productListing.productId))
                .limit(listingPageSize)
                .offset(offset)
            ).map((row) => row.id);
  const cards = await getProductCards(db, { productIds: pageIds, locale, now });

  const name = nameIn(locale);
  const facets = buildFacetOptions({
    shownFacets,
    counts: new Map(shownFacets.map((facet, index) => [facet, facetCounts[index]!])),
    categories: catalogue.categories.map((category) => ({ value: category.slug, key: String(category.id), label: name(category) })),
    brands: catalogue.brands.map((brand) => ({ value: brand.slug, key: String(brand.id), label: brand.name })),
    applied,
  });

  return {
    subject,
    query: { ...query, ...applied, page },
    products: cards,
    total,
    pageCount,
    facets,
    specCounts,
    // Typo matching that finds nothing either is simply no result.
    searchMode: search ? (search.match.mode === "similar" && total === 0 ? "none" : search.match.mode) : null,
    searchCorrectedText: search?.match.mode === "similar" && total > 0 ? search.match.correctedText : null,
  };
}

const brandNameOrder = new Intl.Collator("it", { sensitivity: "base" });

export type BrandIndexEntry = { slug: string; name: string; productCount: number };

/** /marchi: every brand with published products, A to Z, with how many it has. */
export async function getBrandIndex(db: Db): Promise<BrandIndexEntry[]> {
  const rows = await db
    .select({ slug: brands.slug, name: brands.name, productCount: count(products.id) })
    .from(brands)
    .innerJoin(productBrands, eq(productBrands.brandId, brands.id))
    .innerJoin(products, and(eq(products.id, productBrands.productId), eq(products.isPublished, true)))
    .groupBy(brands.id)
    .orderBy(asc(brands.name));
  return rows.sort((a, b) => brandNameOrder.compare(a.name, b.name));
}

/**
 * Every published product of a category, subcategory or brand (or the whole shop), newest first as
 * the listing's default order: the API's getListaProdotti, getCategoria and getSottocategoria.
 * Null when the slug is unknown.
 */
export async function getListingProductIds(db: Db, { scope, now }: { scope: ListingScope; now: Date }): Promise<number[] | null> {
  const resolved = await resolveSubject(db, scope, await getTaxonomy(db), "it", now);
  if (!resolved) return null;
  const rows = await db
    .select({ id: productListing.productId })
    .from(productListing)
    .where(and(eq(productListing.isPublished, true), resolved.condition))
    .orderBy(desc(productListing.createdAt), asc(productListing.productId));
  return rows.map((row) => row.id);
}
