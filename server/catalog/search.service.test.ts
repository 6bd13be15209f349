import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { brands, categories, productBrands, products } from "#server/db/schema.ts";
import { seedSampleCatalogue } from "#server/db/seed.ts";
import { createTestDb } from "#tests/db.ts";
import { listingPageSize, parseListingQuery, type ListingScope } from "./listing";
import { getListing } from "./listing.service";
import { getSearchSuggestions, matchSearch, refreshProductSearch } from "./search.service";

const now = new Date("2026-03-10T10:00:00Z");
const shop: ListingScope = { kind: "shop", layout: "grid" };

type Spec = { id: number; it: [string, string]; en: [string, string]; brands?: string[]; isPublished?: boolean; saleCount?: number };

const catalogue: Spec[] = [
  {
    id: 1,
    it: ["Passeggino leggero Goody", "Si chiude con una mano sola"],
    en: ["Goody lightweight stroller", "Folds with one hand"],
    brands: ["Chicco", "Cam"],
  },
  {
    id: 2,
    it: ["Culla in legno di faggio", "Già montata: perché aspettare?"],
    en: ["Beech wood crib", "Ready assembled"],
    brands: ["Foppapedretti"],
  },
  { id: 3, it: ["Seggiolino auto Bébé Confort", "Omologato i-Size"], en: ["Bébé Confort car seat", "i-Size approved"], brands: ["Bébé Confort"] },
  {
    id: 4,
    it: ["Parapioggia universale per passeggino", "Si adatta a tutti i passeggini"],
    en: ["Universal stroller rain cover", "Fits every stroller"],
    brands: ["Brevi"],
    saleCount: 90,
  },
  { id: 5, it: ["Tazza 100% bambù <b>", "Set pappa con O'Brien"], en: ["100% bamboo cup", "Feeding set"], brands: ["Nuvita"] },
  { id: 6, it: ["Passeggino nascosto", "Non ancora in vendita"], en: ["Hidden stroller", "Not on sale yet"], brands: ["Chicco"], isPublished: false },
];

async function insertCatalogue(db: Db) {
  const [category] = await db.insert(categories).values({ slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about" }).returning();
  const brandNames = [...new Set(catalogue.flatMap((spec) => spec.brands ?? []))];
  const brandRows = await db
    .insert(brands)
    .values(brandNames.map((name) => ({ name, slug: name.toLowerCase().replace(/[^a-z]+/g, "-") })))
    .returning();
  await db.insert(products).values(
    catalogue.map((spec) => ({
      id: spec.id,
      sku: `SKU-${spec.id}`,
      nameIt: spec.it[0],
      shortDescriptionIt: spec.it[1],
      nameEn: spec.en[0],
      shortDescriptionEn: spec.en[1],
      priceCents: 1000,
      saleCount: spec.saleCount ?? 0,
      isPublished: spec.isPublished ?? true,
      primaryCategoryId: category!.id,
    })),
  );
  await db
    .insert(productBrands)
    .values(
      catalogue.flatMap((spec) =>
        (spec.brands ?? []).map((name, position) => ({ productId: spec.id, brandId: brandRows.find((row) => row.name === name)!.id, position })),
      ),
    );
  expect(await refreshProductSearch(db)).toBe(catalogue.length);
}

/** A fresh shop for a test that changes it. */
async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await insertCatalogue(handle.db);
  return handle.db;
}

/** One shop shared by the tests that only read (opening a database is the slow part on PGlite). */
let shared: { db: Db; close: () => Promise<void> } | undefined;
beforeAll(async () => {
  const handle = await createTestDb();
  await insertCatalogue(handle.db);
  shared = handle;
});
afterAll(async () => {
  await shared?.close();
});
function readOnlyShop() {
  if (!shared) throw new Error("the shared shop is not open");
  return shared.db;
}

async function search(db: Db, text: string, locale: "it" | "en" = "it", extra = "") {
  const query = parseListingQuery(new URLSearchParams(`fromsearch=true&search=${encodeURIComponent(text)}${extra}`));
  const listing = await getListing(db, { scope: shop, query, locale, now });
  return { ids: listing!.products.map((product) => product.id), mode: listing!.searchMode, listing: listing! };
}

test("every word must match the name, the short description or the first brand, in any case", async () => {
  const db = readOnlyShop();
  expect(await search(db, "passeggino goody")).toEqual(expect.objectContaining({ ids: [1], mode: "exact" }));
  expect((await search(db, "PASSEGGINO Chicco")).ids).toEqual([1]);
  // words may come from different places: name + short description + brand
  expect((await search(db, "faggio montata foppapedretti")).ids).toEqual([2]);
  // a word nothing has: no exact result
  expect((await search(db, "passeggino zanzariera")).mode).not.toBe("exact");
});

test("only the first brand counts", async () => {
  const db = readOnlyShop();
  expect((await search(db, "chicco")).ids).toEqual([1]);
  expect((await search(db, "goody cam")).ids).not.toContain(1);
});

test("stemming: 'passeggini' finds 'passeggino'; English words find English names", async () => {
  const db = readOnlyShop();
  const plural = await search(db, "passeggini");
  expect(plural.mode).toBe("exact");
  // ranked: a name that starts with the word comes first
  expect(plural.ids).toEqual([1, 4]);
  expect((await search(db, "strollers", "en")).ids.sort()).toEqual([1, 4]);
  expect((await search(db, "cribs", "en")).ids).toEqual([2]);
  expect((await search(db, "culle")).ids).toEqual([2]);
});

test("accents do not matter, either way round", async () => {
  const db = readOnlyShop();
  expect((await search(db, "bebe confort")).ids).toEqual([3]);
  expect((await search(db, "gia perche")).ids).toEqual([2]);
  expect((await search(db, "bambu")).ids).toEqual([5]);
  expect((await search(db, "Bébé")).ids).toEqual([3]);
});

test("stop words of the page's language are left out", async () => {
  const db = readOnlyShop();
  expect((await search(db, "parapioggia per il passeggino")).ids).toEqual([4]);
  expect((await search(db, "the rain cover", "en")).ids).toEqual([4]);
});

test("a misspelt search finds the nearest words when nothing matches exactly ('pasegino')", async () => {
  const db = readOnlyShop();
  const typo = await search(db, "pasegino");
  expect(typo.mode).toBe("similar");
  expect(typo.listing.searchCorrectedText).toBe("passeggino");
  expect(typo.ids).toEqual([1, 4]);
  const twoWords = await search(db, "culla fagio");
  expect(twoWords).toMatchObject({ ids: [2], mode: "similar" });
  expect(twoWords.listing.searchCorrectedText).toBe("culla faggio");
  // every word must still match: a misspelt word with nothing like it matches nothing
  expect((await search(db, "pasegino xyzzyq")).mode).toBe("none");
  expect((await search(db, "strolers", "en")).ids.sort()).toEqual([1, 4]);
  expect(await search(db, "xyzzyq")).toEqual(expect.objectContaining({ ids: [], mode: "none" }));
});

test("SQL and HTML in a search are plain words: nothing breaks, nothing is injected", async () => {
  const db = readOnlyShop();
  for (const text of ["'; DROP TABLE products; --", "<script>alert(1)</script>", "\\' OR 1=1 --", "passeggino:* | !culla & (", "%_%"]) {
    const result = await search(db, text);
    expect(result.listing.query.search, text).toBe(text);
  }
  expect((await search(db, "'; DROP TABLE products; --")).ids).toEqual([]);
  expect((await search(db, "passeggino:* | !culla & (")).ids).toEqual([]);
  // the words inside still match literally
  expect((await search(db, "<b>tazza</b> 100%")).ids).toEqual([5]);
  expect((await search(db, "O'Brien")).ids).toEqual([5]);
  const [row] = await db.select({ value: count() }).from(products);
  expect(row!.value).toBe(catalogue.length);
});

test("a 2,000-character search is cut to 100 characters and answered", async () => {
  const db = readOnlyShop();
  const long = await search(db, `passeggino ${"x".repeat(2000)}`);
  expect(long.listing.query.search).toHaveLength(100);
  expect(long.listing.query.searchTruncated).toBe(true);
  expect(long.ids).toEqual([]);
  const manyWords = await search(db, Array.from({ length: 400 }, () => "passeggino").join(" "));
  expect(manyWords.ids).toEqual([1, 4]);
});

test("a search combines with filters and sort", async () => {
  const db = readOnlyShop();
  expect((await search(db, "passeggino", "it", "&tag=brevi")).ids).toEqual([4]);
  const listing = (await search(db, "passeggino")).listing;
  // every brand tag of the matching products is offered, the second ones too
  expect(Object.fromEntries(listing.facets.tags!.map((option) => [option.value, option.count]))).toEqual({ brevi: 1, cam: 1, chicco: 1 });
  expect((await search(db, "passeggino", "it", "&sort=priceHighToLow&tag=chicco")).ids).toEqual([1]);
});

test("suggestions match an unfinished last word and come ranked", async () => {
  const db = readOnlyShop();
  const suggestions = await getSearchSuggestions(db, { text: "passegg", locale: "it", now });
  expect(suggestions.mode).toBe("exact");
  expect(suggestions.products.map((product) => product.id)).toEqual([1, 4]);
  expect((await getSearchSuggestions(db, { text: "culla fag", locale: "it", now })).products.map((product) => product.id)).toEqual([2]);
  expect((await getSearchSuggestions(db, { text: "stroll", locale: "en", now })).products.map((product) => product.name).sort()).toEqual([
    "Goody lightweight stroller",
    "Universal stroller rain cover",
  ]);
  expect((await getSearchSuggestions(db, { text: "pasegino", locale: "it", now })).mode).toBe("similar");
  expect((await getSearchSuggestions(db, { text: "!!", locale: "it", now })).products).toEqual([]);
});

test("the search index follows product and brand changes once refreshed", async () => {
  const db = await openShop();
  await db.update(products).set({ nameIt: "Lettino da campeggio" }).where(eq(products.id, 2));
  expect((await search(db, "lettino")).mode).not.toBe("exact");
  expect(await refreshProductSearch(db, [2])).toBe(1);
  expect((await search(db, "lettino")).ids).toEqual([2]);

  await db.update(brands).set({ name: "Foppa" }).where(eq(brands.slug, "foppapedretti"));
  expect(await refreshProductSearch(db, [2])).toBe(1);
  expect((await search(db, "foppa")).ids).toEqual([2]);
  expect(await refreshProductSearch(db, [])).toBe(0);
});

test("matchSearch without words matches nothing", async () => {
  const db = readOnlyShop();
  expect((await matchSearch(db, { text: "   ", locale: "it" })).mode).toBe("none");
  expect((await matchSearch(db, { text: "per il", locale: "it" })).mode).toBe("none");
});

test("the sample catalogue is searchable as soon as it is seeded", { timeout: 60_000 }, async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await seedSampleCatalogue(handle.db, { now });
  const strollers = await search(handle.db, "passeggini");
  expect(strollers.mode).toBe("exact");
  expect(strollers.listing.products[0]!.name).toMatch(/^Passeggino/);
  const typo = await search(handle.db, "pasegino");
  expect(typo.mode).toBe("similar");
  expect(typo.listing.products.some((product) => product.name.startsWith("Passeggino"))).toBe(true);
  expect((await search(handle.db, "strollers", "en")).listing.total).toBeGreaterThan(5);
});

test("a search's pages follow its rank, with filters and across a change of catalogue", async () => {
  const db = await openShop();
  const [category] = await db.select().from(categories);
  const [brevi] = await db.select().from(brands).where(eq(brands.slug, "brevi"));
  // 90 more strollers and stroller accessories, ids 101-190: every third one by Brevi.
  const more = Array.from({ length: 90 }, (_, at) => ({
    id: 101 + at,
    sku: `SKU-${101 + at}`,
    nameIt: at % 2 === 0 ? `Passeggino modello ${at}` : `Copertina per passeggino ${at}`,
    nameEn: `Stroller item ${at}`,
    priceCents: 1000 + at,
    primaryCategoryId: category!.id,
  }));
  await db.insert(products).values(more);
  await db
    .insert(productBrands)
    .values(more.filter((_, at) => at % 3 === 0).map((product) => ({ productId: product.id, brandId: brevi!.id, position: 0 })));
  await refreshProductSearch(db);

  for (const extra of ["", "&tag=brevi"]) {
    const first = await search(db, "passeggino", "it", extra);
    expect(first.listing.pageCount).toBeGreaterThan(1);
    const pages = [first.listing.products];
    for (let page = 2; page <= first.listing.pageCount; page++)
      pages.push((await search(db, "passeggino", "it", `${extra}&page=${page}`)).listing.products);
    const names = pages.flat().map((product) => product.name);
    // each product once, as many as the total; names that start with the word come first
    expect(names).toHaveLength(first.listing.total);
    expect(new Set(names).size).toBe(names.length);
    const leading = names.filter((name) => name.startsWith("Passeggino")).length;
    expect(leading).toBeGreaterThan(listingPageSize / 2);
    expect(names.slice(0, leading).every((name) => name.startsWith("Passeggino"))).toBe(true);
  }
  expect((await search(db, "passeggino", "it", "&tag=brevi")).listing.total).toBe(1 + 30);

  // A product renamed is found under its new name and no longer under the old one at the next search.
  await db.update(products).set({ nameIt: "Lettino modello zero" }).where(eq(products.id, 101));
  await refreshProductSearch(db, [101]);
  const after = await search(db, "passeggino");
  expect(after.listing.total).toBe(2 + 89);
  expect(after.ids).not.toContain(101);
  expect((await search(db, "lettino")).ids).toContain(101);
});
