/**
 * What a listing URL may carry (`/shop?category=...&tag=...&color=...&size=...&height=...&age=...&isofix=true&rotation=true&group=...&sort=...&page=...`).
 * Nothing here ever fails: an unknown sort or group, a bad page number or a malformed filter value
 * is dropped and the listing shows its default, so bad input never becomes an error page.
 */
import { z } from "zod";

export const listingSorts = ["default", "priceHighToLow", "priceLowToHigh"] as const;
export type ListingSort = (typeof listingSorts)[number];

export const listingGroups = ["new", "bestSeller", "saleItems"] as const;
export type ListingGroup = (typeof listingGroups)[number];

/** Values per filter beyond this are ignored (no real shopper ticks more). */
export const maxFilterValues = 20;

/** Category, subcategory and brand slugs keep their original case ("A-spasso", "Tutine-Body"). */
export const slugPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;
/** Colour keys: "white", "black", "light-blue". */
const colourPattern = /^[a-z][a-z-]{0,29}$/;
/** Size names: "M", "0-6 mesi", "18mesi +", "250ml". */
const sizePattern = /^[\p{L}\p{N}][\p{L}\p{N} +.,/-]{0,29}$/u;

function filterValues(pattern: RegExp) {
  return z
    .array(z.string())
    .catch([])
    .transform((values) => [...new Set(values.map((value) => value.trim()).filter((value) => pattern.test(value)))].slice(0, maxFilterValues));
}

/** A whole number within bounds, or null when absent or not one (a bad value is dropped like any other). */
function optionalWhole(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,3}$/)
    .transform(Number)
    .pipe(z.number().min(min).max(max))
    .nullable()
    .catch(null);
}

/** The child's height and age the car-seat and stroller filters take (docs/decisions/0101-product-specifications.md). */
export const specFilterBounds = { heightCm: [40, 150], ageMonths: [0, 144] } as const;

export const ListingParams = z.object({
  sort: z.enum(listingSorts).catch("default"),
  group: z.enum(listingGroups).nullable().catch(null),
  /** 1-based; a page past the last is clamped by the service (docs/decisions/0011-listing-and-search.md). */
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
  search: z.string().catch(""),
  fromSearch: z.boolean().catch(false),
  categories: filterValues(slugPattern),
  tags: filterValues(slugPattern),
  colours: filterValues(colourPattern),
  sizes: filterValues(sizePattern),
  specs: z.object({
    heightCm: optionalWhole(...specFilterBounds.heightCm),
    ageMonths: optionalWhole(...specFilterBounds.ageMonths),
    isofix: z.boolean().catch(false),
    rotation: z.boolean().catch(false),
  }),
});
export type ListingParams = z.infer<typeof ListingParams>;

/** `GET /search/suggest?q=`: the text typed so far. */
export const SuggestParams = z.object({ q: z.string().catch("") });
export type SuggestParams = z.infer<typeof SuggestParams>;
