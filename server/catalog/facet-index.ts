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
import { and, asc, eq } from "drizzle-orm";
import { coversAge, coversStature } from "#common/product-specs.ts";
import type { Db } from "#server/db/client.ts";
import { productListing, productSpecs } from "#server/db/schema.ts";
import { readCatalogueVersion } from "./catalogue-cache";
import type { ListingGroup } from "./listing.inputs";
import { hasSpecFilters, listingFacets, type FacetCounts, type ListingFacet, type SpecFilters } from "./listing";
import { intersectionOf, ProductSet, unionOf } from "./product-set";

/** The filters as chosen, resolved to the catalogue's ids; unknown values already dropped. */
export type ResolvedFilters = {
  categoryIds: number[];
  /** The "offerte" category is chosen: it holds whatever is in offer today. */
  offers: boolean;
  brandIds: number[];
  colours: string[];
  sizes: string[];
  specs: SpecFilters;
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
  specs: SpecIndex;
};

/** Car seats' and strollers' specifications (docs/decisions/0101-product-specifications.md). */
type SpecIndex = {
  /** Products with specifications: the filters on them are offered where the listing holds some. */
  described: ProductSet;
  isofix: ProductSet;
  rotation: ProductSet;
  ranges: { position: number; statureMinCm: number | null; statureMaxCm: number | null; ageMinMonths: number | null; ageMaxMonths: number | null }[];
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
  const positionOf = new Map(rows.map((row, position) => [row.productId, position]));
  return {
    size,
    positionOf,
    specs: await buildSpecIndex(db, size, positionOf),
    facets: Object.fromEntries(listingFacets.map((facet) => [facet, buildFacetColumn(rows, facet)])) as Record<ListingFacet, FacetColumn>,
    subcategories,
    isNew,
    bestSeller,
    discounted,
  };
}

async function buildSpecIndex(db: Db, size: number, positionOf: ReadonlyMap<number, number>): Promise<SpecIndex> {
  const rows = await db
    .select({
      productId: productSpecs.productId,
      hasIsofix: productSpecs.hasIsofix,
      rotates360: productSpecs.rotates360,
      statureMinCm: productSpecs.statureMinCm,
      statureMaxCm: productSpecs.statureMaxCm,
      ageMinMonths: productSpecs.ageMinMonths,
      ageMaxMonths: productSpecs.ageMaxMonths,
    })
    .from(productSpecs)
    .innerJoin(productListing, and(eq(productListing.productId, productSpecs.productId), eq(productListing.isPublished, true)));
  const specs: SpecIndex = { described: new ProductSet(size), isofix: new ProductSet(size), rotation: new ProductSet(size), ranges: [] };
  for (const { productId, hasIsofix, rotates360, ...range } of rows) {
    const position = positionOf.get(productId);
    if (position === undefined) continue;
    specs.described.add(position);
    if (hasIsofix) specs.isofix.add(position);
    if (rotates360) specs.rotation.add(position);
    specs.ranges.push({ position, ...range });
  }
  return specs;
}

/** The products the specification filters let through, leaving out `except`; null when none of them is chosen. */
function specFilterSet(index: FacetIndex, filters: SpecFilters, except?: "isofix" | "rotation"): ProductSet | null {
  const chosen: SpecFilters = { ...filters, ...(except ? { [except]: false } : {}) };
  if (!hasSpecFilters(chosen)) return null;
  const sets: ProductSet[] = [];
  if (chosen.isofix) sets.push(index.specs.isofix);
  if (chosen.rotation) sets.push(index.specs.rotation);
  if (chosen.heightCm !== null || chosen.ageMonths !== null) {
    const { heightCm, ageMonths } = chosen;
    const fitting = new ProductSet(index.size);
    for (const range of index.specs.ranges) {
      if ((heightCm === null || coversStature(range, heightCm)) && (ageMonths === null || coversAge(range, ageMonths))) fitting.add(range.position);
    }
    sets.push(fitting);
  }
  return intersectionOf(index.size, sets);
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
  /**
   * The specification filters' counts given every other filter: products with specifications, and those
   * with ISOFIX and with rotation. No products with specifications: the filters are not offered.
   */
  specCounts: { described: number; isofix: number; rotation: number };
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

  const specSet = specFilterSet(index, selection.filters.specs);
  if (specSet) base.push(specSet);
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
  const withoutSpecs = base.filter((set) => set !== specSet);
  const specCount = (except: "isofix" | "rotation", set: ProductSet) =>
    intersectionOf(index.size, [
      ...withoutSpecs,
      ...chosenExcept(null),
      ...[specFilterSet(index, selection.filters.specs, except)].filter((other) => other !== null),
    ]).countShared(set);
  const specCounts = {
    described: intersectionOf(index.size, [...withoutSpecs, ...chosenExcept(null)]).countShared(index.specs.described),
    isofix: specCount("isofix", index.specs.isofix),
    rotation: specCount("rotation", index.specs.rotation),
  };
  return { total, facetCounts, specCounts, pageOf };
}
