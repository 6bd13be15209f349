/**
 * Pure rules of the catalogue listing: which listing a path is, the normalised query a URL asks for,
 * and the canonical URL of any listing state (links keep sort, group, filters and search; changing
 * what is shown goes back to page 1). No db, env or clock.
 */
import { localeOfPath } from "#common/locale.ts";
import { formatSize, isOneSize } from "#common/sizes.ts";
import { ListingParams, type ListingGroup, type ListingSort } from "./listing.inputs";
import { normaliseSearchText } from "./search";

/** docs/rules.md#listing-and-search: 24 per page, 6 rows of 4 on large screens. */
export const listingPageSize = 24;

export type ListingScope =
  | { kind: "shop"; layout: "grid" | "list" }
  | { kind: "category"; slug: string }
  | { kind: "subcategory"; slug: string }
  | { kind: "brand"; slug: string };

/** The pages served by app/routes/shop/listing.tsx: a product listing, or the brand index /marchi. */
export type ListingRoute = ListingScope | { kind: "brands" };

export type ListingFilters = {
  /** Category slugs (the `category` parameter). */
  categories: string[];
  /** Brand slugs (the `tag` parameter: the client form's tag[] are brands). */
  tags: string[];
  /** Colour keys (the `color` parameter). */
  colours: string[];
  /** Size names (the `size` parameter). */
  sizes: string[];
};
export type ListingFacet = keyof ListingFilters;
export const listingFacets: readonly ListingFacet[] = ["categories", "tags", "colours", "sizes"];

/** URL parameter of each filter, as docs/rules.md#listing-and-search names the filters (category, tag, color, size). */
export const facetParam: Record<ListingFacet, string> = { categories: "category", tags: "tag", colours: "color", sizes: "size" };

/**
 * Filters on car seats' and strollers' specifications: a child's height (seats whose i-Size range covers it),
 * age in months (products whose age range covers it), ISOFIX, 360° rotation.
 */
export type SpecFilters = { heightCm: number | null; ageMonths: number | null; isofix: boolean; rotation: boolean };
export type SpecFilter = keyof SpecFilters;
export const noSpecFilters: SpecFilters = { heightCm: null, ageMonths: null, isofix: false, rotation: false };

/** URL parameter of each specification filter. */
export const specFilterParam: Record<SpecFilter, string> = { heightCm: "height", ageMonths: "age", isofix: "isofix", rotation: "rotation" };

export function hasSpecFilters(specs: SpecFilters): boolean {
  return specs.heightCm !== null || specs.ageMonths !== null || specs.isofix || specs.rotation;
}

export type ListingQuery = ListingFilters & {
  specs: SpecFilters;
  sort: ListingSort;
  group: ListingGroup | null;
  /** As asked; the service clamps it to the pages there are. */
  page: number;
  /** Normalised search text ("" for none). */
  search: string;
  /** The search was longer than the shop accepts and was cut. */
  searchTruncated: boolean;
  /** `fromsearch=true`: the header's search box sent the visitor (docs/rules.md#storefront). */
  fromSearch: boolean;
};

/** Which listing a pathname is ("/en/categoria/pappa" -> category "pappa"); null for any other page. */
export function listingRouteOf(pathname: string): ListingRoute | null {
  const bare = localeOfPath(pathname) === "en" ? pathname.slice(3) : pathname;
  const segments = bare.split("/").filter(Boolean).map(decodeSegment);
  const [first, second, ...rest] = segments;
  if (rest.length > 0 || segments.some((segment) => segment === null)) return null;
  if (second === undefined) {
    if (first === "shop") return { kind: "shop", layout: "grid" };
    if (first === "shop-grid-standard") return { kind: "shop", layout: "list" };
    if (first === "marchi") return { kind: "brands" };
    return null;
  }
  if (first === "categoria") return { kind: "category", slug: second! };
  if (first === "sottocategoria") return { kind: "subcategory", slug: second! };
  if (first === "marchi") return { kind: "brand", slug: second! };
  return null;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The listing state a URL's query string asks for; anything unknown or malformed is dropped. */
export function parseListingQuery(params: URLSearchParams): ListingQuery {
  const parsed = ListingParams.parse({
    sort: params.get("sort") ?? undefined,
    group: params.get("group"),
    page: params.get("page") ?? undefined,
    search: params.get("search") ?? "",
    fromSearch: params.get("fromsearch") === "true",
    categories: params.getAll(facetParam.categories),
    tags: params.getAll(facetParam.tags),
    colours: params.getAll(facetParam.colours),
    sizes: params.getAll(facetParam.sizes),
    specs: {
      heightCm: params.get(specFilterParam.heightCm),
      ageMonths: params.get(specFilterParam.ageMonths),
      isofix: params.get(specFilterParam.isofix) === "true",
      rotation: params.get(specFilterParam.rotation) === "true",
    },
  });
  const search = normaliseSearchText(parsed.search);
  return { ...parsed, search: search.text, searchTruncated: search.truncated };
}

/** The query string of a listing state, in one canonical order, defaults left out. */
export function listingSearchParams(query: ListingQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.fromSearch) params.set("fromsearch", "true");
  if (query.search) params.set("search", query.search);
  for (const facet of listingFacets) for (const value of query[facet]) params.append(facetParam[facet], value);
  if (query.specs.heightCm !== null) params.set(specFilterParam.heightCm, String(query.specs.heightCm));
  if (query.specs.ageMonths !== null) params.set(specFilterParam.ageMonths, String(query.specs.ageMonths));
  if (query.specs.isofix) params.set(specFilterParam.isofix, "true");
  if (query.specs.rotation) params.set(specFilterParam.rotation, "true");
  if (query.group) params.set("group", query.group);
  if (query.sort !== "default") params.set("sort", query.sort);
  if (query.page > 1) params.set("page", String(query.page));
  return params;
}

/** `path` with the canonical query string of `query` ("/shop?tag=chicco&sort=priceLowToHigh"). */
export function listingHref(path: string, query: ListingQuery): string {
  const search = listingSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

export function withPage(query: ListingQuery, page: number): ListingQuery {
  return { ...query, page };
}

/** Another group (or all products): filters, sort and search stay, the page goes back to 1. */
export function withGroup(query: ListingQuery, group: ListingGroup | null): ListingQuery {
  return { ...query, group, page: 1 };
}

export function withoutFilterValue(query: ListingQuery, facet: ListingFacet, value: string): ListingQuery {
  return { ...query, [facet]: query[facet].filter((candidate) => candidate !== value), page: 1 };
}

export function withoutSpecFilter(query: ListingQuery, filter: SpecFilter): ListingQuery {
  return { ...query, specs: { ...query.specs, [filter]: noSpecFilters[filter] }, page: 1 };
}

/** Every filter and group removed; the search stays. */
export function withoutFilters(query: ListingQuery): ListingQuery {
  return { ...query, categories: [], tags: [], colours: [], sizes: [], specs: noSpecFilters, group: null, page: 1 };
}

export function hasFilters(query: ListingQuery): boolean {
  return listingFacets.some((facet) => query[facet].length > 0) || hasSpecFilters(query.specs);
}

/** The page actually shown: 1 when there is nothing, the last page when asked for more. */
export function clampPage(page: number, pageCount: number): number {
  return Math.min(Math.max(1, page), Math.max(1, pageCount));
}

export function pageCountOf(total: number): number {
  return Math.max(1, Math.ceil(total / listingPageSize));
}

export type PaginationItem = { kind: "page"; page: number } | { kind: "gap" };

/**
 * First, last, and the pages around the current one. A gap stands for two or more hidden pages:
 * a single hidden page is shown instead ("1 2 3", not "1 … 3").
 */
export function paginationItems(current: number, pageCount: number): PaginationItem[] {
  const pages = [...new Set([1, current - 1, current, current + 1, pageCount])]
    .filter((page) => page >= 1 && page <= pageCount)
    .sort((a, b) => a - b);
  const items: PaginationItem[] = [];
  for (const [index, page] of pages.entries()) {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous === 2) items.push({ kind: "page", page: previous + 1 });
    else if (previous !== undefined && page - previous > 2) items.push({ kind: "gap" });
    items.push({ kind: "page", page });
  }
  return items;
}

export type FacetOption = { value: string; label: string; count: number; selected: boolean };

/** Options of each filter; null where the page itself is that filter (a category page has no category filter). */
export type ListingFacetOptions = Record<ListingFacet, FacetOption[] | null>;

/** Products per filter value, keyed by the value (colours, sizes) or the category's or brand's id. */
export type FacetCounts = Map<string, number>;

type FacetCandidate = { value: string; key: string; label: string };

/** Options worth showing: those with products, and any chosen one (with its count, maybe 0). */
function toOptions(candidates: readonly FacetCandidate[], counts: FacetCounts, selected: readonly string[]): FacetOption[] {
  return candidates
    .map(({ value, key, label }) => ({ value, label, count: counts.get(key) ?? 0, selected: selected.includes(value) }))
    .filter((option) => option.count > 0 || option.selected);
}

/**
 * The options of the filters a page shows: categories and brands in the catalogue's order, colours
 * and sizes in the shop's (compareColours, compareSizes), one-size never among them.
 */
export function buildFacetOptions({
  shownFacets,
  counts,
  categories,
  brands,
  applied,
}: {
  shownFacets: readonly ListingFacet[];
  counts: ReadonlyMap<ListingFacet, FacetCounts>;
  categories: readonly FacetCandidate[];
  brands: readonly FacetCandidate[];
  applied: ListingFilters;
}): ListingFacetOptions {
  const facets: ListingFacetOptions = { categories: null, tags: null, colours: null, sizes: null };
  const byValue = (values: Iterable<string>) => [...values].map((value) => ({ value, key: value, label: value }));
  for (const facet of shownFacets) {
    const facetCounts = counts.get(facet) ?? new Map<string, number>();
    if (facet === "categories") facets.categories = toOptions(categories, facetCounts, applied.categories);
    else if (facet === "tags") facets.tags = toOptions(brands, facetCounts, applied.tags);
    else if (facet === "colours") {
      const values = [...new Set([...facetCounts.keys(), ...applied.colours])].sort(compareColours);
      facets.colours = toOptions(byValue(values), facetCounts, applied.colours);
    } else {
      const values = [...new Set([...facetCounts.keys(), ...applied.sizes])].filter((size) => !isOneSize(size)).sort(compareSizes);
      // Labelled as the product page prints them ("XL", not the stored "xl"); the value stays as stored.
      facets.sizes = toOptions(
        values.map((value) => ({ value, key: value, label: formatSize(value) })),
        facetCounts,
        applied.sizes,
      );
    }
  }
  return facets;
}

/**
 * A filter with more options than this (plus a little slack, so "show all" never reveals one or two)
 * first shows only its most used ones: 200 brands made the listing's HTML mostly filter options.
 */
export const facetShortlistLength = 8;
const facetShortlistSlack = 2;

/** Whether a filter's options are too many to show before "show all". */
export function isLongFacet(options: readonly FacetOption[]): boolean {
  return options.length > facetShortlistLength + facetShortlistSlack;
}

/**
 * The options a long filter shows before "show all": the ones with most products (ties in the filter's
 * order) and every chosen one, kept in the filter's own order so a list of sizes still reads in order.
 */
export function shortlistFacetOptions(options: readonly FacetOption[]): FacetOption[] {
  if (!isLongFacet(options)) return [...options];
  const mostUsed = new Set([...options].sort((a, b) => b.count - a.count).slice(0, facetShortlistLength));
  return options.filter((option) => option.selected || mostUsed.has(option));
}

/** `all=tag&all=size`: the filters a visitor opened to every option (a link, so it works without JavaScript). */
export const expandedFacetsParam = "all";

/** The filters the URL opens to every option; an unknown name is dropped like any bad listing parameter. */
export function parseExpandedFacets(params: URLSearchParams): ListingFacet[] {
  const names = params.getAll(expandedFacetsParam);
  return listingFacets.filter((facet) => names.includes(facetParam[facet]));
}

/** Colours in the order the sample data names them, then any other alphabetically. */
const colourOrder = ["white", "black", "brown", "blue"];

export function compareColours(a: string, b: string): number {
  const rank = (colour: string) => (colourOrder.includes(colour) ? colourOrder.indexOf(colour) : colourOrder.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

const letterSizes = ["xxs", "xs", "s", "small", "m", "medium", "l", "large", "xl", "xxl", "xxxl"];

/** Sort key of a size name: letter sizes, then ages in months, then volumes, then anything else. */
function sizeKey(size: string): [group: number, value: number] {
  const lower = size.toLowerCase().trim();
  if (letterSizes.includes(lower)) return [0, letterSizes.indexOf(lower)];
  const months = /^(\d+)(?:\s*-\s*(\d+))?\s*mesi/.exec(lower);
  if (months) return [1, Number(months[1]) * 100 + Number(months[2] ?? 0) + (lower.includes("+") ? 99 : 0)];
  const volume = /^(\d+)\s*ml$/.exec(lower);
  if (volume) return [2, Number(volume[1])];
  return [3, 0];
}

// One collator for every comparison: `localeCompare` with a locale builds a new one at each call, which made
// sorting a listing's sizes about 1 % of a signed-in customer's listing request.
const italianNumericOrder = new Intl.Collator("it", { numeric: true });

/** XS < S < M ... ; "0 mesi" < "0-6 mesi" < "6 mesi" < "18mesi +"; "75ml" < "250ml"; others A-Z. */
export function compareSizes(a: string, b: string): number {
  const [groupA, valueA] = sizeKey(a);
  const [groupB, valueB] = sizeKey(b);
  return groupA - groupB || valueA - valueB || italianNumericOrder.compare(a, b);
}
