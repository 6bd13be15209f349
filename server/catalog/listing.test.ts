import { expect, test } from "vitest";
import {
  clampPage,
  compareColours,
  compareSizes,
  listingHref,
  listingRouteOf,
  pageCountOf,
  paginationItems,
  parseExpandedFacets,
  parseListingQuery,
  shortlistFacetOptions,
  withGroup,
  withoutFilters,
  withoutFilterValue,
  withoutSpecFilter,
  hasFilters,
  withPage,
} from "./listing";

const parse = (query: string) => parseListingQuery(new URLSearchParams(query));

test("the path tells which listing it is, in both languages", () => {
  expect(listingRouteOf("/shop")).toEqual({ kind: "shop", layout: "grid" });
  expect(listingRouteOf("/en/shop-grid-standard")).toEqual({ kind: "shop", layout: "list" });
  expect(listingRouteOf("/categoria/A-spasso")).toEqual({ kind: "category", slug: "A-spasso" });
  expect(listingRouteOf("/en/sottocategoria/passeggini-leggeri")).toEqual({ kind: "subcategory", slug: "passeggini-leggeri" });
  expect(listingRouteOf("/marchi")).toEqual({ kind: "brands" });
  expect(listingRouteOf("/marchi/peg-perego")).toEqual({ kind: "brand", slug: "peg-perego" });
  expect(listingRouteOf("/categoria/%E0%A4%A")).toBeNull();
  expect(listingRouteOf("/cart")).toBeNull();
});

test("an empty query is the default listing", () => {
  expect(parse("")).toEqual({
    sort: "default",
    group: null,
    page: 1,
    search: "",
    searchTruncated: false,
    fromSearch: false,
    categories: [],
    tags: [],
    colours: [],
    sizes: [],
    specs: { heightCm: null, ageMonths: null, isofix: false, rotation: false },
  });
});

test("sort, group, filters, search and page are read", () => {
  const query = parse(
    "fromsearch=true&search=%20passeggino%20&category=A-spasso&category=pappa&tag=chicco&color=black&size=0-6%20mesi&group=saleItems&sort=priceLowToHigh&page=3",
  );
  expect(query).toEqual({
    sort: "priceLowToHigh",
    group: "saleItems",
    page: 3,
    search: "passeggino",
    searchTruncated: false,
    fromSearch: true,
    categories: ["A-spasso", "pappa"],
    tags: ["chicco"],
    colours: ["black"],
    sizes: ["0-6 mesi"],
    specs: { heightCm: null, ageMonths: null, isofix: false, rotation: false },
  });
});

test("the car-seat filters are read, kept in the URL in one order, and bad values dropped", () => {
  const query = parse("rotation=true&age=18&height=95&isofix=true");
  expect(query.specs).toEqual({ heightCm: 95, ageMonths: 18, isofix: true, rotation: true });
  expect(listingHref("/categoria/sicurezza", { ...query, page: 2 })).toBe("/categoria/sicurezza?height=95&age=18&isofix=true&rotation=true&page=2");
  expect(parse("height=39&age=145&isofix=yes&rotation=1").specs).toEqual({ heightCm: null, ageMonths: null, isofix: false, rotation: false });
  expect(parse("height=9.5&age=-1").specs).toMatchObject({ heightCm: null, ageMonths: null });
  expect(parse("height=150&age=0").specs).toMatchObject({ heightCm: 150, ageMonths: 0 });
  expect(withoutFilters(query).specs).toEqual({ heightCm: null, ageMonths: null, isofix: false, rotation: false });
  expect(hasFilters(parse("isofix=true"))).toBe(true);
  expect(withoutSpecFilter(query, "heightCm").specs).toEqual({ heightCm: null, ageMonths: 18, isofix: true, rotation: true });
});

test("unknown sorts and groups, bad pages and malformed values are dropped", () => {
  const query = parse("sort=cheapest&group=all&page=-1&category=../etc&tag=%3Cscript%3E&color=Black!&size=&category=pappa&category=pappa");
  expect(query).toMatchObject({ sort: "default", group: null, page: 1, categories: ["pappa"], tags: [], colours: [], sizes: [] });
  expect(parse("page=abc").page).toBe(1);
  expect(parse("page=2.5").page).toBe(1);
  expect(parse("page=0").page).toBe(1);
  expect(parse("page=99999").page).toBe(99999);
  expect(parse("page=1e400").page).toBe(1);
});

test("a 2,000-character search is truncated and said so", () => {
  const query = parse(`search=${"x".repeat(2000)}`);
  expect(query.search).toHaveLength(100);
  expect(query.searchTruncated).toBe(true);
});

test("links are canonical: fixed order, defaults left out", () => {
  const query = parse("page=2&sort=priceHighToLow&color=blue&tag=cam&category=pappa&search=culla&fromsearch=true&group=new");
  expect(listingHref("/shop", query)).toBe(
    "/shop?fromsearch=true&search=culla&category=pappa&tag=cam&color=blue&group=new&sort=priceHighToLow&page=2",
  );
  expect(listingHref("/en/shop", parse("sort=default&page=1"))).toBe("/en/shop");
  expect(listingHref("/shop", parse("search=a%26b%3Dc"))).toBe("/shop?search=a%26b%3Dc");
});

test("a canonical link reads back as the same query", () => {
  const query = parse("search=culla legno&size=0-6 mesi&size=M&color=white&sort=priceLowToHigh&page=4");
  const href = listingHref("/shop", query);
  expect(parse(href.split("?")[1]!)).toEqual(query);
});

test("changing the group or removing a filter goes back to page 1; paging keeps everything", () => {
  const query = parse("tag=chicco&tag=cam&color=black&sort=priceLowToHigh&page=3");
  expect(listingHref("/shop", withPage(query, 4))).toBe("/shop?tag=chicco&tag=cam&color=black&sort=priceLowToHigh&page=4");
  expect(listingHref("/shop", withGroup(query, "new"))).toBe("/shop?tag=chicco&tag=cam&color=black&group=new&sort=priceLowToHigh");
  expect(listingHref("/shop", withoutFilterValue(query, "tags", "chicco"))).toBe("/shop?tag=cam&color=black&sort=priceLowToHigh");
  expect(listingHref("/shop", withoutFilters({ ...query, search: "culla" }))).toBe("/shop?search=culla&sort=priceLowToHigh");
});

test("pages are clamped to those there are", () => {
  expect(pageCountOf(0)).toBe(1);
  expect(pageCountOf(24)).toBe(1);
  expect(pageCountOf(25)).toBe(2);
  expect(clampPage(99999, 3)).toBe(3);
  expect(clampPage(-1, 3)).toBe(1);
  expect(clampPage(5, 1)).toBe(1);
});

test("pagination shows first, last and neighbours, with gaps only for two or more pages", () => {
  const show = (current: number, count: number) =>
    paginationItems(current, count)
      .map((item) => (item.kind === "gap" ? "…" : String(item.page)))
      .join(" ");
  expect(show(1, 1)).toBe("1");
  expect(show(1, 3)).toBe("1 2 3");
  expect(show(1, 10)).toBe("1 2 … 10");
  expect(show(4, 10)).toBe("1 2 3 4 5 … 10");
  expect(show(5, 10)).toBe("1 … 4 5 6 … 10");
  expect(show(10, 10)).toBe("1 … 9 10");
  expect(show(8, 10)).toBe("1 … 7 8 9 10");
});

test("sizes sort as a shop assistant would", () => {
  const sizes = ["XL", "250ml", "S", "18mesi +", "0-6 mesi", "0 mesi", "M", "Large", "75ml", "12 mesi", "6-18 mesi", "Small", "XS"];
  expect([...sizes].sort(compareSizes)).toEqual([
    "XS",
    "S",
    "Small",
    "M",
    "Large",
    "XL",
    "0 mesi",
    "0-6 mesi",
    "6-18 mesi",
    "12 mesi",
    "18mesi +",
    "75ml",
    "250ml",
  ]);
  expect(["blue", "pink", "white", "black"].sort(compareColours)).toEqual(["white", "black", "blue", "pink"]);
});

test("a long filter first shows its 8 most used options in its own order, and every chosen one", () => {
  // Brand i has 30 - i products: brand-0 .. brand-7 are the most used; brand-20 is chosen with 10.
  const brands = Array.from({ length: 30 }, (_, i) => ({ value: `brand-${i}`, label: `Brand ${i}`, count: 30 - i, selected: i === 20 }));
  const shortlist = shortlistFacetOptions([...brands].reverse());
  expect(shortlist.map((option) => option.value)).toEqual([
    "brand-20",
    "brand-7",
    "brand-6",
    "brand-5",
    "brand-4",
    "brand-3",
    "brand-2",
    "brand-1",
    "brand-0",
  ]);
  // Ten options fit: "show all" would only reveal one or two.
  expect(shortlistFacetOptions(brands.slice(0, 10))).toHaveLength(10);
  expect(shortlistFacetOptions(brands.slice(0, 11))).toHaveLength(8);
});

test("the filters opened to every option are read from the URL; unknown names are dropped", () => {
  expect(parseExpandedFacets(new URLSearchParams("all=tag&all=size&all=price&all=tag"))).toEqual(["tags", "sizes"]);
  expect(parseExpandedFacets(new URLSearchParams("tag=chicco"))).toEqual([]);
});
