import { PGlite } from "@electric-sql/pglite";
import { and, count, eq } from "drizzle-orm";
import { afterAll, expect, onTestFinished, test, vi } from "vitest";
import { sampleCatalogue } from "#server/db/sample-catalogue.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { pgliteExtensions, wrapPglite, type Db } from "./client";
import { migrateDatabase } from "./migrate";
import {
  brands,
  categories,
  exchangeRates,
  productBrands,
  productCategories,
  productColours,
  productImages,
  productPriceHistory,
  productRelations,
  products,
  productVariants,
  shopSettings,
  subcategories,
} from "./schema";
import { seedSampleCatalogue } from "./seed";

// Each test migrates a fresh database and seeds the whole catalogue (178 products): 7 s alone, 15 s and
// more while other suites share the 2 cores.
vi.setConfig({ testTimeout: 60_000 });

/** Seeding is judged at a fixed moment, so offers ending in 2027 still run. */
const now = new Date("2026-12-01T10:00:00Z");

async function openMigratedDb() {
  const handle = wrapPglite(new PGlite({ extensions: pgliteExtensions }));
  onTestFinished(() => handle.close());
  await migrateDatabase(handle);
  return handle.db;
}

/** One seeded catalogue for the tests that only read it: a seeding is most of this file's time. */
let readOnlyCatalogue: Promise<{ db: Db; close: () => Promise<void> }> | undefined;
function seededCatalogueToRead(): Promise<Db> {
  readOnlyCatalogue ??= (async () => {
    const handle = wrapPglite(new PGlite({ extensions: pgliteExtensions }));
    await migrateDatabase(handle);
    await seedSampleCatalogue(handle.db, seedOptions);
    return { db: handle.db, close: () => handle.close() };
  })();
  return readOnlyCatalogue.then(({ db }) => db);
}
afterAll(async () => {
  await (await readOnlyCatalogue)?.close();
});

const countedTables = {
  categories,
  subcategories,
  brands,
  products,
  productCategories,
  productBrands,
  productColours,
  productVariants,
  productImages,
  productRelations,
  productPriceHistory,
  shopSettings,
  exchangeRates,
};

async function countRows(db: Db) {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(countedTables)) {
    const [row] = await db.select({ value: count() }).from(table);
    counts[name] = row?.value ?? 0;
  }
  return counts;
}

const seedOptions = { now };

test("an empty database gets the whole sample catalogue, and seeding again changes nothing", { timeout: 60_000 }, async () => {
  const db = await openMigratedDb();
  const lines: string[] = [];

  const first = await seedSampleCatalogue(db, { ...seedOptions, log: (line) => lines.push(line) });
  expect(first).toEqual({ inserted: true, products: sampleCatalogue.length });
  expect(lines.at(-1)).toMatch(/sample catalogue seeded/);

  const counts = await countRows(db);
  const variantCount = sampleCatalogue.reduce((total, product) => total + product.variants.length, 0);
  expect(counts).toMatchObject({
    categories: 8,
    subcategories: 45,
    products: sampleCatalogue.length,
    productVariants: variantCount,
    productImages: sampleCatalogue.length * 5,
    productPriceHistory: sampleCatalogue.length,
    shopSettings: Object.keys(defaultSettings).length,
    exchangeRates: 2,
  });
  expect(counts.productCategories).toBeGreaterThan(sampleCatalogue.length);
  expect(counts.productRelations).toBeGreaterThanOrEqual(sampleCatalogue.length * 3);

  expect(await seedSampleCatalogue(db, seedOptions)).toEqual({ inserted: false, products: sampleCatalogue.length });
  expect(await countRows(db)).toEqual(counts);
});

test("on-request products carry their tag after the main brand", async () => {
  const db = await seededCatalogueToRead();
  const rows = await db
    .select({ productId: products.id, tag: brands.name, position: productBrands.position })
    .from(products)
    .innerJoin(productBrands, eq(productBrands.productId, products.id))
    .innerJoin(brands, eq(brands.id, productBrands.brandId))
    .where(and(eq(products.isOnRequest, true), eq(brands.marksOnRequest, true)));
  expect(new Set(rows.map((row) => row.tag))).toEqual(new Set(["Chicco edition", "Cam - linea solo per te"]));
  expect(rows.every((row) => row.position > 0)).toBe(true);
});

test("running offers are listed under offerte with the discounted price recorded; ended ones are not", async () => {
  const db = await seededCatalogueToRead();
  const [offers] = await db.select().from(categories).where(eq(categories.slug, "offerte"));
  const offerIds = (await db.select().from(productCategories).where(eq(productCategories.categoryId, offers!.id))).map((row) => row.productId);
  const running = sampleCatalogue.find((product) => product.discountPercent > 0 && product.offerEndsAt && product.offerEndsAt > now)!;
  const ended = sampleCatalogue.find((product) => product.discountPercent > 0 && product.offerEndsAt && product.offerEndsAt < now)!;
  expect(offerIds).toContain(running.id);
  expect(offerIds).not.toContain(ended.id);

  const [history] = await db.select().from(productPriceHistory).where(eq(productPriceHistory.productId, running.id));
  expect(history?.effectivePriceCents).toBe(Math.round((running.priceCents * (100 - running.discountPercent)) / 100));
  const [endedHistory] = await db.select().from(productPriceHistory).where(eq(productPriceHistory.productId, ended.id));
  expect(endedHistory?.effectivePriceCents).toBe(ended.priceCents);
});

test("simple products have one colourless one-size variant, and stock can never go below zero", async () => {
  const db = await seededCatalogueToRead();
  const simple = sampleCatalogue.find((product) => product.colours.length === 0)!;
  const variants = await db.select().from(productVariants).where(eq(productVariants.productId, simple.id));
  expect(variants).toEqual([expect.objectContaining({ colourId: null, size: "TAGLIA_UNICA", sku: simple.sku })]);

  await expect(setStockTo(db, { variantId: variants[0]!.id, stock: -1 }, { reason: "Conteggio sbagliato" })).rejects.toThrow();
  const [after] = await db.select().from(productVariants).where(eq(productVariants.id, variants[0]!.id));
  expect(after?.stock).toBe(variants[0]!.stock);
});

test("categories the back office created before the first seed are kept, not duplicated", async () => {
  const db = await openMigratedDb();
  await db.insert(categories).values({ slug: "pappa", nameIt: "Pappa e merende", nameEn: "Feeding", position: 9 });
  await seedSampleCatalogue(db, seedOptions);
  const rows = await db.select().from(categories).where(eq(categories.slug, "pappa"));
  expect(rows).toEqual([expect.objectContaining({ nameIt: "Pappa e merende" })]);
  const [linked] = await db.select({ value: count() }).from(products).where(eq(products.primaryCategoryId, rows[0]!.id));
  expect(linked?.value).toBe(sampleCatalogue.filter((product) => product.categorySlug === "pappa").length);
});
