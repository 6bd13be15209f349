import { onTestFinished, expect, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { brands, categories, productBrands, productImages, products } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { getHomeProducts } from "./home.service";

const now = new Date("2026-03-10T10:00:00Z");

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const [category] = await handle.db.insert(categories).values({ slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about" }).returning();
  return { db: handle.db, categoryId: category!.id };
}

type ProductOverrides = Partial<typeof products.$inferInsert>;

async function insertProduct(db: Db, categoryId: number, overrides: ProductOverrides = {}) {
  const id = overrides.id ?? Math.floor(Math.random() * 1_000_000) + 1000;
  const [row] = await db
    .insert(products)
    .values({
      id,
      sku: `SKU-${id}`,
      nameIt: `Passeggino ${id}`,
      nameEn: `Stroller ${id}`,
      priceCents: 10000,
      primaryCategoryId: categoryId,
      ...overrides,
    })
    .returning();
  return row!;
}

test("new arrivals show at most 8 products, newest first, named in the page's language", async () => {
  const { db, categoryId } = await openDb();
  for (let day = 1; day <= 10; day++) {
    await insertProduct(db, categoryId, { id: day, isNew: true, createdAt: new Date(Date.UTC(2026, 2, day)) });
  }
  await insertProduct(db, categoryId, { id: 99, isNew: false });

  const home = await getHomeProducts(db, "en", now);

  expect(home.newArrivals).toHaveLength(8);
  expect(home.newArrivals.map((tile) => tile.id)).not.toContain(99);
  expect(home.newArrivals[0]).toMatchObject({ id: 10, name: "Stroller 10", isNew: true });
});

test("a running offer lowers the price; an ended offer does not apply", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1, priceCents: 1999, discountPercent: 15, offerEndsAt: new Date("2026-04-01T00:00:00Z"), saleCount: 5 });
  await insertProduct(db, categoryId, { id: 2, priceCents: 5000, discountPercent: 30, offerEndsAt: new Date("2020-10-31T00:00:00Z"), saleCount: 3 });
  await insertProduct(db, categoryId, { id: 3, priceCents: 2500, discountPercent: 10, offerEndsAt: null });

  const home = await getHomeProducts(db, "it", now);

  // 1999 × 85 / 100 = 1699.15 -> 1699
  expect(home.bestSellers.map((tile) => [tile.id, tile.effectivePriceCents, tile.discountPercent])).toEqual([
    [1, 1699, 15],
    [2, 5000, 0],
  ]);
  // largest discount first; the ended offer is not among them
  expect(home.offers.map((tile) => tile.id)).toEqual([1, 3]);
  expect(home.offers[1]).toMatchObject({ priceCents: 2500, effectivePriceCents: 2250, discountPercent: 10, name: "Passeggino 3" });
});

test("tiles carry the first picture by position, or none", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1, isNew: true });
  await insertProduct(db, categoryId, { id: 2, isNew: true });
  await db.insert(productImages).values([
    { productId: 1, storageKey: "products/1/b.jpg", width: 800, height: 800, altIt: "Retro", altEn: "Back", position: 2 },
    { productId: 1, storageKey: "products/1/a.jpg", width: 800, height: 600, altIt: "Fronte", altEn: "Front", position: 1 },
  ]);

  const home = await getHomeProducts(db, "it", now);

  const byId = new Map(home.newArrivals.map((tile) => [tile.id, tile]));
  expect(byId.get(1)?.image).toEqual({ storageKey: "products/1/a.jpg", width: 800, height: 600, alt: "Fronte" });
  expect(byId.get(2)?.image).toBeNull();
});

test("on-request products (by flag or brand tag) are marked and left out of the offers", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1, isNew: true, discountPercent: 20 });
  await insertProduct(db, categoryId, { id: 2, isNew: true, discountPercent: 20 });
  await insertProduct(db, categoryId, { id: 3, isNew: true, isOnRequest: true });
  const [brand] = await db.insert(brands).values({ slug: "chicco-edition", name: "Chicco edition", marksOnRequest: true }).returning();
  await db.insert(productBrands).values({ productId: 2, brandId: brand!.id });

  const home = await getHomeProducts(db, "it", now);

  expect(Object.fromEntries(home.newArrivals.map((tile) => [tile.id, tile.isOnRequest]))).toEqual({ 1: false, 2: true, 3: true });
  expect(home.offers.map((tile) => tile.id)).toEqual([1]);
});

test("unpublished products are not shown", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1, isNew: true, isPublished: false });
  const home = await getHomeProducts(db, "it", now);
  expect(home.newArrivals).toEqual([]);
});
