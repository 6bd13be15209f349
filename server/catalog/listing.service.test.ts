import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { brands, categories, productBrands, productCategories, productColours, products, productVariants, subcategories } from "#server/db/schema.ts";
import { effectivePriceCents } from "#server/money.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { listingPageSize, parseListingQuery, type ListingScope } from "./listing";
import { getBrandIndex, getListing } from "./listing.service";
import { refreshProductSearch } from "./search.service";

const now = new Date("2026-03-10T10:00:00Z");
const future = new Date("2026-12-31T00:00:00Z");
const past = new Date("2025-10-31T00:00:00Z");
const shop: ListingScope = { kind: "shop", layout: "grid" };

type ProductSpec = {
  id: number;
  name: string;
  priceCents: number;
  discountPercent?: number;
  offerEndsAt?: Date | null;
  category: "A-spasso" | "pappa";
  subcategory?: "passeggini-leggeri" | "seggiolini-pappa";
  brands?: string[];
  /** [colour or null, size, stock] */
  variants?: [string | null, string, number][];
  isNew?: boolean;
  saleCount?: number;
  isPublished?: boolean;
  /** Days after 2026-01-01: later is newer. */
  day?: number;
};

/**
 * A small shop: effective prices 1: 10000, 2: 15000 (50% running), 3: 12000 (offer ended),
 * 4: 8499 (15% of 9999 running), 5: on request (brand tag), 6: 501 (50% of 1001, half rounds up),
 * 7: unpublished.
 */
const specs: ProductSpec[] = [
  {
    id: 1,
    name: "Passeggino Alfa",
    priceCents: 10000,
    category: "A-spasso",
    subcategory: "passeggini-leggeri",
    brands: ["chicco"],
    variants: [
      ["black", "M", 3],
      ["blue", "L", 2],
    ],
    isNew: true,
    saleCount: 10,
    day: 1,
  },
  {
    id: 2,
    name: "Passeggino Beta",
    priceCents: 30000,
    discountPercent: 50,
    offerEndsAt: future,
    category: "A-spasso",
    subcategory: "passeggini-leggeri",
    brands: ["cam"],
    variants: [["black", "TAGLIA_UNICA", 1]],
    saleCount: 50,
    day: 2,
  },
  {
    id: 3,
    name: "Navicella Gamma",
    priceCents: 12000,
    discountPercent: 50,
    offerEndsAt: past,
    category: "A-spasso",
    brands: ["chicco", "cam"],
    variants: [[null, "TAGLIA_UNICA", 0]],
    day: 3,
  },
  {
    id: 4,
    name: "Seggiolone Delta",
    priceCents: 9999,
    discountPercent: 15,
    offerEndsAt: null,
    category: "pappa",
    subcategory: "seggiolini-pappa",
    brands: ["cam"],
    variants: [["white", "0-6 mesi", 4]],
    isNew: true,
    saleCount: 5,
    day: 4,
  },
  {
    id: 5,
    name: "Trio Epsilon edizione speciale",
    priceCents: 50000,
    discountPercent: 10,
    offerEndsAt: future,
    category: "A-spasso",
    brands: ["chicco-edition"],
    variants: [[null, "TAGLIA_UNICA", 5]],
    day: 5,
  },
  {
    id: 6,
    name: "Bavaglino Zeta",
    priceCents: 1001,
    discountPercent: 50,
    offerEndsAt: future,
    category: "pappa",
    brands: ["chicco"],
    variants: [[null, "M", 9]],
    day: 6,
  },
  {
    id: 7,
    name: "Passeggino nascosto",
    priceCents: 100,
    category: "A-spasso",
    brands: ["chicco"],
    variants: [["black", "M", 1]],
    isPublished: false,
    day: 7,
  },
];

async function insertProducts(db: Db, list: ProductSpec[]) {
  const categoryRows = await db
    .insert(categories)
    .values([
      { slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about", position: 0 },
      { slug: "offerte", nameIt: "Offerte", nameEn: "Special offers", position: 1 },
      { slug: "pappa", nameIt: "Pappa", nameEn: "Feeding", position: 2 },
    ])
    .returning();
  const categoryId = (slug: string) => categoryRows.find((row) => row.slug === slug)!.id;
  const subcategoryRows = await db
    .insert(subcategories)
    .values([
      { slug: "passeggini-leggeri", categoryId: categoryId("A-spasso"), nameIt: "Passeggini leggeri", nameEn: "Lightweight strollers" },
      { slug: "seggiolini-pappa", categoryId: categoryId("pappa"), nameIt: "Seggioloni pappa", nameEn: "High chairs" },
    ])
    .returning();
  const brandRows = await db
    .insert(brands)
    .values([
      { slug: "chicco", name: "Chicco" },
      { slug: "cam", name: "Cam" },
      { slug: "chicco-edition", name: "Chicco edition", marksOnRequest: true },
      { slug: "stokke", name: "Stokke" },
    ])
    .returning();
  await db.insert(products).values(
    list.map((spec) => ({
      id: spec.id,
      sku: `SKU-${spec.id}`,
      nameIt: spec.name,
      nameEn: `${spec.name} (en)`,
      priceCents: spec.priceCents,
      discountPercent: spec.discountPercent ?? 0,
      offerEndsAt: spec.offerEndsAt ?? null,
      isNew: spec.isNew ?? false,
      saleCount: spec.saleCount ?? 0,
      isPublished: spec.isPublished ?? true,
      primaryCategoryId: categoryId(spec.category),
      subcategoryId: spec.subcategory ? subcategoryRows.find((row) => row.slug === spec.subcategory)!.id : null,
      createdAt: new Date(Date.UTC(2026, 0, spec.day ?? 1)),
    })),
  );
  await db.insert(productCategories).values(list.map((spec) => ({ productId: spec.id, categoryId: categoryId(spec.category) })));
  const brandLinks = list.flatMap((spec) =>
    (spec.brands ?? []).map((slug, position) => ({ productId: spec.id, brandId: brandRows.find((row) => row.slug === slug)!.id, position })),
  );
  if (brandLinks.length > 0) await db.insert(productBrands).values(brandLinks);
  const colourRows = list.flatMap((spec) =>
    [...new Set((spec.variants ?? []).flatMap(([colour]) => (colour ? [colour] : [])))].map((colour, position) => ({
      productId: spec.id,
      colour,
      position,
    })),
  );
  const colourIds = new Map(
    (colourRows.length > 0 ? await db.insert(productColours).values(colourRows).returning() : []).map((row) => [
      `${row.productId}:${row.colour}`,
      row.id,
    ]),
  );
  const variantRows = list.flatMap((spec) =>
    (spec.variants ?? []).map(([colour, size, stock], position) => ({
      productId: spec.id,
      colourId: colour ? colourIds.get(`${spec.id}:${colour}`)! : null,
      size,
      sku: `SKU-${spec.id}-${position}`,
      stock,
      position,
    })),
  );
  if (variantRows.length > 0) await db.insert(productVariants).values(variantRows);
  await refreshProductSearch(db);
}

async function openShop(list: ProductSpec[] = specs) {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await insertProducts(handle.db, list);
  return handle.db;
}

/** One shop shared by the tests that only read (opening a database is the slow part on PGlite). */
let shared: { db: Db; close: () => Promise<void> } | undefined;
beforeAll(async () => {
  const handle = await createTestDb();
  await insertProducts(handle.db, specs);
  shared = handle;
});
afterAll(async () => {
  await shared?.close();
});
function readOnlyShop() {
  if (!shared) throw new Error("the shared shop is not open");
  return shared.db;
}

async function list(db: Db, query: string, scope: ListingScope = shop, locale: "it" | "en" = "it") {
  const listing = await getListing(db, { scope, query: parseListingQuery(new URLSearchParams(query)), locale, now });
  if (!listing) throw new Error("listing not found");
  return listing;
}

const ids = (listing: { products: { id: number }[] }) => listing.products.map((product) => product.id);
const options = (facet: { value: string; count: number; selected: boolean }[] | null) =>
  Object.fromEntries((facet ?? []).map((option) => [option.value, option.count]));

test("the default listing shows published products, newest first, with their count", async () => {
  const db = readOnlyShop();
  const listing = await list(db, "");
  expect(ids(listing)).toEqual([6, 5, 4, 3, 2, 1]);
  expect(listing.total).toBe(6);
  expect(listing.pageCount).toBe(1);
  expect(listing.searchMode).toBeNull();
});

test("price sorts use the price paid today; on-request products come last", async () => {
  const db = readOnlyShop();
  expect(ids(await list(db, "sort=priceLowToHigh"))).toEqual([6, 4, 1, 3, 2, 5]);
  expect(ids(await list(db, "sort=priceHighToLow"))).toEqual([2, 3, 1, 4, 6, 5]);
  const cheapest = (await list(db, "sort=priceLowToHigh")).products[0]!;
  // 1001 × 50 / 100 = 500.5 -> 501, as server/money.ts rounds
  expect(cheapest).toMatchObject({ id: 6, priceCents: 1001, effectivePriceCents: 501, discountPercent: 50 });
});

test("the SQL price order agrees with server/money.ts on awkward prices", async () => {
  const odd: ProductSpec[] = Array.from({ length: 40 }, (_, index) => ({
    id: 100 + index,
    name: `Prodotto ${index}`,
    priceCents: 995 + ((index * 7919) % 4000),
    discountPercent: [0, 5, 15, 33, 45, 50][index % 6],
    offerEndsAt: index % 5 === 0 ? past : future,
    category: "pappa",
    variants: [[null, "TAGLIA_UNICA", 1]],
  }));
  const db = await openShop(odd);
  const expected = [...odd]
    .map((spec) => ({
      id: spec.id,
      cents: effectivePriceCents(
        { priceCents: spec.priceCents, discountPercent: spec.discountPercent ?? 0, offerEndsAt: spec.offerEndsAt ?? null },
        now,
      ),
    }))
    .sort((a, b) => a.cents - b.cents || a.id - b.id);
  const listing = await list(db, "sort=priceLowToHigh");
  expect(listing.products.map((product) => [product.id, product.effectivePriceCents])).toEqual(
    expected.slice(0, listingPageSize).map((row) => [row.id, row.cents]),
  );
  const secondPage = await list(db, "sort=priceLowToHigh&page=2");
  expect(secondPage.products.map((product) => [product.id, product.effectivePriceCents])).toEqual(
    expected.slice(listingPageSize).map((row) => [row.id, row.cents]),
  );
  const highestFirst = [...expected].sort((a, b) => b.cents - a.cents || a.id - b.id);
  expect(ids(await list(db, "sort=priceHighToLow&page=2"))).toEqual(highestFirst.slice(listingPageSize).map((row) => row.id));
});

test("the listing follows later changes: colours, sizes, categories, publication, an on-request brand, a deletion", async () => {
  const db = await openShop();
  const [black] = await db.insert(productColours).values({ productId: 4, colour: "black", position: 1 }).returning();
  await db.insert(productVariants).values({ productId: 4, colourId: black!.id, size: "L", sku: "SKU-4-black-L", stock: 1 });
  const [outAndAbout] = await db.select().from(categories).where(eq(categories.slug, "A-spasso"));
  await db.insert(productCategories).values({ productId: 4, categoryId: outAndAbout!.id });
  expect(ids(await list(db, "color=black&size=L&category=A-spasso"))).toEqual([4, 1]);

  await db.update(products).set({ isPublished: false }).where(eq(products.id, 1));
  await db.delete(productVariants).where(eq(productVariants.productId, 2));
  const blackAfterwards = await list(db, "color=black");
  expect(ids(blackAfterwards)).toEqual([4, 2]);
  expect(options(blackAfterwards.facets.sizes)).toEqual({ "0-6 mesi": 1, L: 1 });

  // Cam now marks on request: its products (2, 3, 4) join Trio Epsilon (5) after the one still priced.
  await db.update(brands).set({ marksOnRequest: true }).where(eq(brands.slug, "cam"));
  expect(ids(await list(db, "sort=priceLowToHigh"))).toEqual([6, 4, 3, 2, 5]);
  expect(ids(await list(db, "group=saleItems"))).toEqual([6]);

  await db.delete(products).where(eq(products.id, 6));
  const remaining = await list(db, "sort=priceLowToHigh");
  expect(ids(remaining)).toEqual([4, 3, 2, 5]);
  expect(remaining.total).toBe(4);
});

testOnPostgres("two changes to one product's colours committed at once both reach the listing", async () => {
  const db = await openShop();
  let firstInserted!: () => void;
  const firstIsInside = new Promise<void>((resolve) => (firstInserted = resolve));
  const first = db.transaction(async (tx) => {
    await tx.insert(productColours).values({ productId: 4, colour: "brown", position: 5 });
    firstInserted();
    // Held open in real time while the second change starts and has to wait for this one: PostgreSQL
    // tells the client nothing when a statement starts waiting on a lock.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  await firstIsInside;
  const second = db.insert(productColours).values({ productId: 4, colour: "blue", position: 6 });
  await Promise.all([first, second]);
  expect(ids(await list(db, "color=brown"))).toEqual([4]);
  expect(ids(await list(db, "color=blue"))).toEqual([4, 1]);
});

test("each filter narrows the listing: category, brand tag, colour, size", async () => {
  const db = readOnlyShop();
  expect(ids(await list(db, "category=pappa"))).toEqual([6, 4]);
  expect(ids(await list(db, "tag=chicco"))).toEqual([6, 3, 1]);
  expect(ids(await list(db, "color=black"))).toEqual([2, 1]);
  expect(ids(await list(db, "size=M"))).toEqual([6, 1]);
  expect(ids(await list(db, "size=0-6%20mesi"))).toEqual([4]);
});

test("values of one filter add up; different filters combine; counts follow the other filters", async () => {
  const db = readOnlyShop();
  expect(ids(await list(db, "tag=chicco&tag=cam"))).toEqual([6, 4, 3, 2, 1]);

  const listing = await list(db, "tag=chicco&color=black");
  expect(ids(listing)).toEqual([1]);
  // each filter's counts apply every other filter but not itself
  expect(options(listing.facets.tags)).toEqual({ cam: 1, chicco: 1 });
  expect(options(listing.facets.colours)).toEqual({ black: 1, blue: 1 });
  expect(options(listing.facets.categories)).toEqual({ "A-spasso": 1 });
  expect(options(listing.facets.sizes)).toEqual({ M: 1, L: 1 });
  expect(listing.facets.tags!.find((option) => option.value === "chicco")!.selected).toBe(true);
});

test("unfiltered counts: every option with products, one-size left out, offers counted as running offers", async () => {
  const db = readOnlyShop();
  const listing = await list(db, "");
  expect(options(listing.facets.categories)).toEqual({ "A-spasso": 4, offerte: 3, pappa: 2 });
  expect(listing.facets.categories!.map((option) => option.label)).toEqual(["A spasso", "Offerte", "Pappa"]);
  expect(options(listing.facets.tags)).toEqual({ cam: 3, chicco: 3, "chicco-edition": 1 });
  expect(options(listing.facets.colours)).toEqual({ white: 1, black: 2, blue: 1 });
  expect(listing.facets.colours!.map((option) => option.value)).toEqual(["white", "black", "blue"]);
  expect(listing.facets.sizes!.map((option) => [option.value, option.count])).toEqual([
    ["M", 2],
    ["L", 1],
    ["0-6 mesi", 1],
  ]);
});

test("counts follow a catalogue change at once, and an offer that ends leaves the offers at the next request", async () => {
  const db = await openShop();
  expect(options((await list(db, "")).facets.colours)).toEqual({ white: 1, black: 2, blue: 1 });
  // Another process (the back office, an import) adds a colour: the catalogue version moves on at its commit.
  const [colour] = await db.insert(productColours).values({ productId: 6, colour: "blue", position: 0 }).returning();
  await db.update(productVariants).set({ colourId: colour!.id }).where(eq(productVariants.productId, 6));
  const listing = await list(db, "color=blue");
  expect(options(listing.facets.colours)).toEqual({ white: 1, black: 2, blue: 2 });
  expect(listing.total).toBe(2);
  expect(ids(listing)).toEqual([6, 1]);

  // Nothing changes in the catalogue, but the clock passes the end of product 2's offer.
  const afterOffer = await getListing(db, {
    scope: shop,
    query: parseListingQuery(new URLSearchParams("")),
    locale: "it",
    now: new Date(future.getTime() + 1),
  });
  expect(options(afterOffer!.facets.categories)).toEqual({ "A-spasso": 4, offerte: 1, pappa: 2 });
});

test("groups: new, best sellers (most sold first), items on sale (running offers with a price)", async () => {
  const db = readOnlyShop();
  expect(ids(await list(db, "group=new"))).toEqual([4, 1]);
  expect(ids(await list(db, "group=bestSeller"))).toEqual([2, 1, 4]);
  expect(ids(await list(db, "group=saleItems"))).toEqual([2, 6, 4]);
  expect(ids(await list(db, "group=saleItems&sort=priceLowToHigh"))).toEqual([6, 4, 2]);
  expect(ids(await list(db, "group=new&category=pappa"))).toEqual([4]);
});

test("category, subcategory and brand pages list their products and do not offer themselves as a filter", async () => {
  const db = readOnlyShop();
  const category = await list(db, "category=pappa", { kind: "category", slug: "A-spasso" });
  expect(ids(category)).toEqual([5, 3, 2, 1]);
  expect(category.facets.categories).toBeNull();
  expect(category.query.categories).toEqual([]);
  expect(category.subject).toMatchObject({ kind: "category", name: "A spasso", subcategories: [{ slug: "passeggini-leggeri", count: 2 }] });

  const offers = await list(db, "", { kind: "category", slug: "offerte" });
  expect(ids(offers).sort()).toEqual([2, 4, 6]);

  const subcategory = await list(db, "", { kind: "subcategory", slug: "passeggini-leggeri" }, "en");
  expect(ids(subcategory)).toEqual([2, 1]);
  expect(subcategory.subject).toEqual({
    kind: "subcategory",
    slug: "passeggini-leggeri",
    name: "Lightweight strollers",
    category: { slug: "A-spasso", name: "Out and about" },
  });

  const brand = await list(db, "tag=cam&color=black", { kind: "brand", slug: "chicco" });
  expect(ids(brand)).toEqual([1]);
  expect(brand.facets.tags).toBeNull();
  expect(brand.subject).toEqual({ kind: "brand", slug: "chicco", name: "Chicco" });
});

test("an unknown category, subcategory or brand is not a listing (the route answers 404)", async () => {
  const db = readOnlyShop();
  const query = parseListingQuery(new URLSearchParams(""));
  for (const scope of [
    { kind: "category", slug: "nope" },
    { kind: "category", slug: "a-spasso" },
    { kind: "subcategory", slug: "nope" },
    { kind: "brand", slug: "nope" },
  ] as const) {
    expect(await getListing(db, { scope, query, locale: "it", now }), scope.slug).toBeNull();
  }
});

test("unknown filter values and one-size are ignored instead of emptying the page", async () => {
  const db = readOnlyShop();
  const listing = await list(db, "tag=nope&color=pink&size=TAGLIA_UNICA&category=xyz&sort=cheapest&group=all");
  expect(listing.total).toBe(6);
  expect(listing.query).toMatchObject({ tags: [], colours: [], sizes: [], categories: [], sort: "default", group: null });
});

test("24 per page; a page past the last shows the last one, a bad page the first", async () => {
  const many: ProductSpec[] = Array.from({ length: 30 }, (_, index) => ({
    id: 200 + index,
    name: `Giocattolo ${index}`,
    priceCents: 1000 + index,
    category: "pappa",
    variants: [[null, "TAGLIA_UNICA", 1]],
    day: index + 1,
  }));
  const db = await openShop(many);
  const first = await list(db, "sort=priceLowToHigh");
  expect(first.products).toHaveLength(listingPageSize);
  expect(first).toMatchObject({ total: 30, pageCount: 2 });
  expect(first.products[0]!.id).toBe(200);

  const second = await list(db, "sort=priceLowToHigh&page=2");
  expect(ids(second)).toEqual([224, 225, 226, 227, 228, 229]);
  expect(second.query.page).toBe(2);

  const beyond = await list(db, "sort=priceLowToHigh&page=99999");
  expect(beyond.query.page).toBe(2);
  expect(ids(beyond)).toEqual(ids(second));

  for (const bad of ["page=-1", "page=0", "page=abc"]) {
    const listing = await list(db, `sort=priceLowToHigh&${bad}`);
    expect(listing.query.page, bad).toBe(1);
    expect(ids(listing)).toEqual(ids(first));
  }

  const empty = await list(db, "group=new&page=5");
  expect(empty).toMatchObject({ total: 0, pageCount: 1, products: [] });
  expect(empty.query.page).toBe(1);
});

test("the brand index lists brands with published products, A to Z, with their counts", async () => {
  const db = await openShop();
  expect(await getBrandIndex(db)).toEqual([
    { slug: "cam", name: "Cam", productCount: 3 },
    { slug: "chicco", name: "Chicco", productCount: 3 },
    { slug: "chicco-edition", name: "Chicco edition", productCount: 1 },
  ]);
  await db.update(products).set({ isPublished: false }).where(eq(products.id, 5));
  expect((await getBrandIndex(db)).map((brand) => brand.slug)).toEqual(["cam", "chicco"]);
});
