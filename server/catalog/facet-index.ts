/**
 * The listing's total and filter counts, from an index of every published product's filter values kept in
 * this process (docs/decisions/0028-facet-index.md).
 *
 * Why: each filter's counts are "the products matching every other filter, per value". In SQL that is one
 * scan and unnest per filter over the matching listing rows; on 100,000 products a filtered listing read
 * 6,000-15,000 rows per filter, 15-60 ms each, five at once on two cores. Here each value is a bitset over the
 * published products, so a count is a few intersections and one pass over the matching products: about a
 * millisecond, whatever the filters.
 *
 * Freshness: the index is rebuilt when the database's catalogue_version has moved on (any change to products,
 * their links, categories or brands, by any process: migration 0008), so counts are never older than the
 * catalogue; what depends on the clock (an offer that ends) is worked out at each request from `now`.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { productListing } from "#server/db/schema.ts";
import { readCatalogueVersion } from "./catalogue-cache";
import type { ListingGroup } from "./listing.inputs";
import { listingFacets, type FacetCounts, type ListingFacet } from "./listing";
import { intersectionOf, ProductSet, unionOf } from "./product-set";

/** The filters as chosen, resolved to the catalogue's ids; unknown values already dropped. */
export type ResolvedFilters = {
  categoryIds: number[];
  /** The "offerte" category is chosen: it holds whatever is in offer today. */
  offers: boolean;
  brandIds: number[];
  colours: string[];
  sizes: string[];
};

/** The products a listing page is about, before its filters. */
export type ListingSubjectMembers =
  | { kind: "all" }
  | { kind: "category"; categoryId: number }
  | { kind: "offers" }
  | { kind: "subcategory"; subcategoryId: number }
  | { kind: "brand"; brandId: number };

export type ListingSelection = {
  subject: ListingSubjectMembers;
  group: ListingGroup | null;
  /** The products a search matched (any order); null without a search. */
  searchMatches: readonly number[] | null;
  filters: ResolvedFilters;
  /** The filters the page shows, in order: one FacetCounts each in the answer. */
  shownFacets: readonly ListingFacet[];
  /** The "offerte" category's id, counted as whatever is in offer at `now` rather than by its links. */
  offersCategoryId: number | undefined;
  now: Date;
};

/** One filter's values: a set of products per value, and each product's values (compressed rows) to count with. */
type FacetColumn = {
  keys: string[];
  keyIndex: Map<string, number>;
  sets: ProductSet[];
  /** Product at position p holds the values values[starts[p]] .. values[starts[p + 1] - 1] (indexes into keys). */
  starts: Uint32Array;
  values: Uint32Array;
  /** Products holding each value, in the whole catalogue. */
  totals: Uint32Array;
};

export type FacetIndex = {
  size: number;
  positionOf: Map<number, number>;
  facets: Record<ListingFacet, FacetColumn>;
  subcategories: Map<number, ProductSet>;
  isNew: ProductSet;
  bestSeller: ProductSet;
  /** Discounted products with a price to show; whether the offer runs depends on the hour asked. */
  discounted: { position: number; endsAt: number | null }[];
};

type ListingRow = {
  productId: number;
  subcategoryId: number | null;
  isNew: boolean;
  saleCount: number;
  isOnRequest: boolean;
  discountPercent: number;
  offerEndsAt: Date | null;
  categoryIds: number[];
  brandIds: number[];
  colours: string[];
  sizes: string[];
};

function facetValuesOf(row: ListingRow, facet: ListingFacet): readonly (number | string)[] {
  if (facet === "categories") return row.categoryIds;
  if (facet === "tags") return row.brandIds;
  if (facet === "colours") return row.colours;
  return row.sizes;
}

function buildFacetColumn(rows: readonly ListingRow[], facet: ListingFacet): FacetColumn {
  const keyIndex = new Map<string, number>();
  const keys: string[] = [];
  const sets: ProductSet[] = [];
  const starts = new Uint32Array(rows.length + 1);
  const values: number[] = [];
  rows.forEach((row, position) => {
    starts[position] = values.length;
    for (const value of new Set(facetValuesOf(row, facet))) {
      const key = String(value);
      let index = keyIndex.get(key);
      if (index === undefined) {
        index = keys.length;
        keyIndex.set(key, index);
        keys.push(key);
        sets.push(new ProductSet(rows.length));
      }
      sets[index]!.add(position);
      values.push(index);
    }
  });
  starts[rows.length] = values.length;
  return { keys, keyIndex, sets, starts, values: Uint32Array.from(values), totals: Uint32Array.from(sets, (set) => set.count()) };
}

async function buildFacetIndex(db: Db): Promise<FacetIndex> {
  const rows: ListingRow[] = await db
    .select({
      productId: productListing.productId,
      subcategoryId: productListing.subcategoryId,
      isNew: productListing.isNew,
      saleCount: productListing.saleCount,
      isOnRequest: productListing.isOnRequest,
      discountPercent: productListing.discountPercent,
      offerEndsAt: productListing.offerEndsAt,
      categoryIds: productListing.categoryIds,
      brandIds: productListing.brandIds,
      colours: productListing.colours,
      sizes: productListing.sizes,
    })
    .from(productListing)
    .where(eq(productListing.isPublished, true))
    .orderBy(asc(productListing.productId));
  const size = rows.length;
  const subcategories = new Map<number, ProductSet>();
  const isNew = new ProductSet(size);
  const bestSeller = new ProductSet(size);
  const discounted: FacetIndex["discounted"] = [];
  rows.forEach((row, position) => {
    if (row.subcategoryId !== null) {
      let set = subcategories.get(row.subcategoryId);
      if (!set) subcategories.set(row.subcategoryId, (set = new ProductSet(size)));
      set.add(position);
    }
    if (row.isNew) isNew.add(position);
    if (row.saleCount > 0) bestSeller.add(position);
    // On-request products show no price, so they are never "in offer" (listing.service.ts saleItems).
    if (row.discountPercent > 0 && !row.isOnRequest) discounted.push({ position, endsAt: row.offerEndsAt?.getTime() ?? null });
  });
  return {
    size,
    positionOf: new Map(rows.map((row, position) => [row.productId, position])),
    facets: Object.fromEntries(listingFacets.map((facet) => [facet, buildFacetColumn(rows, facet)])) as Record<ListingFacet, FacetColumn>,
    subcategories,
    isNew,
    bestSeller,
    discounted,
  };
}

/** One index per database (tests open many in one process), with the catalogue version it was built at. */
const indexes = new WeakMap<Db, { version: string; index: Promise<FacetIndex> }>();

/**
 * The index as of the catalogue's current version, built now if the catalogue has changed since. The app also
 * calls this at start and every few seconds, so a visitor seldom waits for a build (about a second on 100,000
 * products).
 */
export async function currentFacetIndex(db: Db): Promise<FacetIndex> {
  // Read before building: a change committed meanwhile leaves this index under the older number.
  const version = await readCatalogueVersion(db);
  const kept = indexes.get(db);
  if (kept?.version === version) return kept.index;
  // Concurrent requests after a change share one build.
  const index = buildFacetIndex(db);
  indexes.set(db, { version, index });
  index.catch(() => {
    if (indexes.get(db)?.index === index) indexes.delete(db);
  });
  return index;
}

/** How many published products each subcategory has (a category page's links to its subcategories). */
export async function countSubcategoryProducts(db: Db, subcategoryIds: readonly number[]): Promise<Map<number, number>> {
  const index = await currentFacetIndex(db);
  return new Map(subcategoryIds.map((id) => [id, index.subcategories.get(id)?.count() ?? 0]));
}

/** Products in offer at `now`: a running discount and a price to show. */
function inOfferAt(index: FacetIndex, now: Date): ProductSet {
  const set = new ProductSet(index.size);
  for (const { position, endsAt } of index.discounted) if (endsAt === null || endsAt > now.getTime()) set.add(position);
  return set;
}

function valueSet(column: FacetColumn, value: number | string): ProductSet | undefined {
  const at = column.keyIndex.get(String(value));
  return at === undefined ? undefined : column.sets[at];
}

/** Products holding any of `values` in a filter. */
function holdingAny(index: FacetIndex, facet: ListingFacet, values: readonly (number | string)[]): ProductSet {
  const column = index.facets[facet];
  return unionOf(
    index.size,
    values.flatMap((value) => valueSet(column, value) ?? []),
  );
}

/** Each chosen filter as the set of products it lets through (null: not chosen). */
function filterSets(index: FacetIndex, filters: ResolvedFilters, inOffer: () => ProductSet): Record<ListingFacet, ProductSet | null> {
  const categories =
    filters.categoryIds.length > 0 || filters.offers
      ? unionOf(index.size, [holdingAny(index, "categories", filters.categoryIds), ...(filters.offers ? [inOffer()] : [])])
      : null;
  return {
    categories,
    tags: filters.brandIds.length > 0 ? holdingAny(index, "tags", filters.brandIds) : null,
    colours: filters.colours.length > 0 ? holdingAny(index, "colours", filters.colours) : null,
    sizes: filters.sizes.length > 0 ? holdingAny(index, "sizes", filters.sizes) : null,
  };
}

function subjectSet(index: FacetIndex, subject: ListingSubjectMembers, inOffer: () => ProductSet): ProductSet | null {
  const none = new ProductSet(index.size);
  if (subject.kind === "all") return null;
  if (subject.kind === "offers") return inOffer();
  if (subject.kind === "category") return valueSet(index.facets.categories, subject.categoryId) ?? none;
  if (subject.kind === "brand") return valueSet(index.facets.tags, subject.brandId) ?? none;
  return index.subcategories.get(subject.subcategoryId) ?? none;
}

function groupSet(index: FacetIndex, group: ListingGroup | null, inOffer: () => ProductSet): ProductSet | null {
  if (group === "new") return index.isNew;
  if (group === "bestSeller") return index.bestSeller;
  if (group === "saleItems") return inOffer();
  return null;
}

/**
 * value -> products among `members`, for every value some member holds. Each member's values are added up;
 * when most products are members, the others' values are taken from the catalogue's totals instead, so the
 * unfiltered shop counts no product at all.
 */
function tally(column: FacetColumn, members: ProductSet, skipKey: string | undefined): FacetCounts {
  const mostly = members.count() * 2 > members.size;
  const perValue = mostly ? Uint32Array.from(column.totals) : new Uint32Array(column.keys.length);
  const step = mostly ? -1 : 1;
  (mostly ? members.complement() : members).forEach((position) => {
    for (let at = column.starts[position]!; at < column.starts[position + 1]!; at++) perValue[column.values[at]!]! += step;
  });
  const counts: FacetCounts = new Map();
  perValue.forEach((count, valueIndex) => {
    const key = column.keys[valueIndex]!;
    if (count > 0 && key !== skipKey) counts.set(key, count);
  });
  return counts;
}

/**
 * How many products the listing shows, and for each shown filter how many each value would show given the
 * other filters (a product counts once per value it holds). "Offerte" counts whatever is in offer at `now`,
 * not the products linked to it.
 */
export type CountedListing = {
  total: number;
  facetCounts: FacetCounts[];
  /** The listed products among `orderedIds`, in that order, from `offset`, at most `limit` (a search's page in rank order). */
  pageOf: (orderedIds: readonly number[], offset: number, limit: number) => number[];
};

export async function countListing(db: Db, selection: ListingSelection): Promise<CountedListing> {
  const index = await currentFacetIndex(db);
  let inOfferNow: ProductSet | undefined;
  const inOffer = () => (inOfferNow ??= inOfferAt(index, selection.now));

  const searchSet = selection.searchMatches ? new ProductSet(index.size) : null;
  for (const productId of selection.searchMatches ?? []) {
    const position = index.positionOf.get(productId);
    if (position !== undefined) searchSet!.add(position);
  }
  const base = [subjectSet(index, selection.subject, inOffer), groupSet(index, selection.group, inOffer), searchSet].filter((set) => set !== null);
  const chosen = filterSets(index, selection.filters, inOffer);
  const chosenExcept = (except: ListingFacet | null) =>
    listingFacets.flatMap((facet) => (facet === except ? [] : chosen[facet] ? [chosen[facet]] : []));

  const listed = intersectionOf(index.size, [...base, ...chosenExcept(null)]);
  const total = listed.count();
  const facetCounts = selection.shownFacets.map((facet) => {
    const members = intersectionOf(index.size, [...base, ...chosenExcept(facet)]);
    const offersKey = facet === "categories" && selection.offersCategoryId !== undefined ? String(selection.offersCategoryId) : undefined;
    const counts = tally(index.facets[facet], members, offersKey);
    if (offersKey) {
      const inOfferCount = members.countShared(inOffer());
      if (inOfferCount > 0) counts.set(offersKey, inOfferCount);
    }
    return counts;
  });
  const pageOf = (orderedIds: readonly number[], offset: number, limit: number) => {
    const page: number[] = [];
    let skipped = 0;
    for (const productId of orderedIds) {
      const position = index.positionOf.get(productId);
      if (position === undefined || !listed.has(position)) continue;
      if (skipped < offset) skipped++;
      else if (page.push(productId) === limit) break;
    }
    return page;
  };
  return { total, facetCounts, pageOf };
}
