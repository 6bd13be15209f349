import { onTestFinished, expect, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productBrands,
  productCategories,
  productColours,
  productImages,
  productRelations,
  products,
  productVariants,
  subcategories,
} from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { getProductPage } from "./product.service";

const now = new Date("2026-03-10T10:00:00Z");

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const db = handle.db;
  const [stroll, offers] = await db
    .insert(categories)
    .values([
      { slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about", position: 0 },
      { slug: "offerte", nameIt: "Offerte", nameEn: "Offers", position: 6 },
    ])
    .returning();
  const [light] = await db
    .insert(subcategories)
    .values({ categoryId: stroll!.id, slug: "passeggini-leggeri", nameIt: "Passeggini leggeri", nameEn: "Lightweight strollers" })
    .returning();
  const [chicco, edition] = await db
    .insert(brands)
    .values([
      { slug: "chicco", name: "Chicco" },
      { slug: "chicco-edition", name: "Chicco edition", marksOnRequest: true },
    ])
    .returning();
  return { db, strollId: stroll!.id, offersId: offers!.id, subcategoryId: light!.id, chiccoId: chicco!.id, editionId: edition!.id };
}

async function insertProduct(db: Db, categoryId: number, overrides: Partial<typeof products.$inferInsert> = {}) {
  const id = overrides.id ?? 500;
  const [row] = await db
    .insert(products)
    .values({
      id,
      sku: `SKU-${id}`,
      nameIt: `Passeggino ${id}`,
      nameEn: `Stroller ${id}`,
      shortDescriptionIt: "Leggero e compatto",
      shortDescriptionEn: "Light and compact",
      fullDescriptionIt: "Descrizione completa",
      fullDescriptionEn: "Full description",
      priceCents: 19900,
      primaryCategoryId: categoryId,
      ...overrides,
    })
    .returning();
  return row!;
}

async function insertVariant(db: Db, productId: number, values: Partial<typeof productVariants.$inferInsert> & { sku: string }) {
  const [row] = await db
    .insert(productVariants)
    .values({ productId, ...values })
    .returning();
  return row!;
}

test("an unknown or unpublished product is null", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 7, isPublished: false });

  expect(await getProductPage(db, 404, "it", now)).toBeNull();
  expect(await getProductPage(db, 7, "it", now)).toBeNull();
});

test("the page names the product in its language with price, running discount, badges and categories", async () => {
  const { db, strollId, offersId, subcategoryId, chiccoId } = await openDb();
  await insertProduct(db, strollId, {
    id: 24,
    subcategoryId,
    priceCents: 1999,
    discountPercent: 15,
    offerEndsAt: new Date("2026-04-01T00:00:00Z"),
    isNew: true,
    isFreeShipping: true,
    rating: 4,
  });
  await db.insert(productCategories).values([
    { productId: 24, categoryId: offersId, position: 1 },
    { productId: 24, categoryId: strollId, position: 0 },
  ]);
  await db.insert(productBrands).values({ productId: 24, brandId: chiccoId });
  await insertVariant(db, 24, { sku: "SKU-24", stock: 5 });

  const page = await getProductPage(db, 24, "en", now);

  expect(page).toMatchObject({
    id: 24,
    name: "Stroller 24",
    shortDescription: "Light and compact",
    fullDescription: "Full description",
    priceCents: 1999,
    effectivePriceCents: 1699,
    discountPercent: 15,
    offerEndsAt: "2026-04-01T00:00:00.000Z",
    isNew: true,
    isFreeShipping: true,
    rating: 4,
    isOnRequest: false,
    categories: [
      { slug: "A-spasso", name: "Out and about" },
      { slug: "offerte", name: "Offers" },
    ],
    subcategory: { slug: "passeggini-leggeri", name: "Lightweight strollers" },
    brands: [{ slug: "chicco", name: "Chicco" }],
    availability: "in_stock",
  });
});

test("an ended offer no longer lowers the price", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 25, priceCents: 5000, discountPercent: 30, offerEndsAt: new Date("2020-10-31T00:00:00Z") });

  const page = await getProductPage(db, 25, "it", now);

  expect(page).toMatchObject({ priceCents: 5000, effectivePriceCents: 5000, discountPercent: 0, offerEndsAt: null });
});

test("colours come with their own pictures, else the product's general ones, else the placeholder", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 30 });
  const [white] = await db
    .insert(productColours)
    .values([
      { productId: 30, colour: "white", position: 0 },
      { productId: 30, colour: "blue", position: 1 },
    ])
    .returning();
  await db.insert(productImages).values([
    { productId: 30, colourId: white!.id, storageKey: "white-2", width: 800, height: 800, altIt: "bianco 2", altEn: "white 2", position: 1 },
    { productId: 30, colourId: white!.id, storageKey: "white-1", width: 800, height: 800, altIt: "bianco 1", altEn: "white 1", position: 0 },
  ]);

  const withoutGeneral = await getProductPage(db, 30, "it", now);
  expect(withoutGeneral!.colours).toEqual([
    {
      key: "white",
      images: [
        { storageKey: "white-1", width: 800, height: 800, alt: "bianco 1" },
        { storageKey: "white-2", width: 800, height: 800, alt: "bianco 2" },
      ],
    },
    { key: "blue", images: [{ storageKey: "placeholder", width: 800, height: 800, alt: "Passeggino 30" }] },
  ]);

  await db.insert(productImages).values({ productId: 30, colourId: null, storageKey: "general-1", width: 800, height: 600, altEn: "general" });
  const withGeneral = await getProductPage(db, 30, "en", now);
  expect(withGeneral!.colours[1]).toEqual({ key: "blue", images: [{ storageKey: "general-1", width: 800, height: 600, alt: "general" }] });
});

test("a product without colours or pictures shows the placeholder", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 31 });

  const page = await getProductPage(db, 31, "it", now);

  expect(page!.colours).toEqual([]);
  expect(page!.images).toEqual([{ storageKey: "placeholder", width: 800, height: 800, alt: "Passeggino 31" }]);
});

test("variants carry colour, size, one-size flag, stock and pre-order days, in the shop's order", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 40 });
  const [white] = await db.insert(productColours).values({ productId: 40, colour: "white" }).returning();
  await insertVariant(db, 40, { sku: "V-XL", colourId: white!.id, size: "xl", stock: 0, position: 1 });
  await insertVariant(db, 40, { sku: "V-M", colourId: white!.id, size: "m", stock: 4, isPreorder: true, preorderDays: 30, position: 0 });
  await insertProduct(db, strollId, { id: 41, sku: "SKU-41" });
  await insertVariant(db, 41, { sku: "V-TU", size: "tagliau", stock: 0 });

  const page = await getProductPage(db, 40, "it", now);
  const oneSize = await getProductPage(db, 41, "it", now);

  expect(page!.variants).toEqual([
    {
      id: expect.any(Number),
      sku: "V-M",
      colour: "white",
      size: "m",
      isOneSize: false,
      stock: 4,
      isPreorder: true,
      preorderDays: 30,
      gtin: null,
      isRecalled: false,
    },
    {
      id: expect.any(Number),
      sku: "V-XL",
      colour: "white",
      size: "xl",
      isOneSize: false,
      stock: 0,
      isPreorder: false,
      preorderDays: null,
      gtin: null,
      isRecalled: false,
    },
  ]);
  expect(page!.availability).toBe("preorder");
  expect(oneSize!.variants).toEqual([
    {
      id: expect.any(Number),
      sku: "V-TU",
      colour: null,
      size: "tagliau",
      isOneSize: true,
      stock: 0,
      isPreorder: false,
      preorderDays: null,
      gtin: null,
      isRecalled: false,
    },
  ]);
  expect(oneSize!.availability).toBe("out_of_stock");
});

test("personalisation comes with labels in the page's language, maximum lengths, description and cost per item", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, {
    id: 50,
    personalisationFields: [
      { labelIt: "Nome", labelEn: "Name", maxLength: 12 },
      { labelIt: "Data di nascita", labelEn: "Date of birth", maxLength: 10 },
    ],
    personalisationDescriptionIt: "Ricamo a mano",
    personalisationDescriptionEn: "Hand embroidery",
    personalisationCostCents: 500,
  });
  await insertProduct(db, strollId, { id: 51, sku: "SKU-51" });

  expect((await getProductPage(db, 50, "en", now))!.personalisation).toEqual({
    fields: [
      { label: "Name", maxLength: 12 },
      { label: "Date of birth", maxLength: 10 },
    ],
    description: "Hand embroidery",
    costCents: 500,
  });
  expect((await getProductPage(db, 51, "en", now))!.personalisation).toBeNull();
});

test("a product with an on-request tag is on request and offers no personalisation", async () => {
  const { db, strollId, editionId, chiccoId } = await openDb();
  await insertProduct(db, strollId, { id: 33, personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 12 }] });
  await db.insert(productBrands).values([
    { productId: 33, brandId: chiccoId, position: 0 },
    { productId: 33, brandId: editionId, position: 1 },
  ]);
  await insertProduct(db, strollId, { id: 34, sku: "SKU-34", isOnRequest: true });

  const tagged = await getProductPage(db, 33, "it", now);
  const flagged = await getProductPage(db, 34, "it", now);

  expect(tagged).toMatchObject({ isOnRequest: true, personalisation: null });
  expect(tagged!.brands.map((brand) => brand.name)).toEqual(["Chicco", "Chicco edition"]);
  expect(flagged!.isOnRequest).toBe(true);
});

test("the technical sheet is given in stored units with the material in the page's language, or null", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, {
    id: 60,
    lengthMm: 850,
    widthMm: 480,
    heightMm: 1040,
    weightGrams: 6900,
    materialIt: "Alluminio",
    materialEn: "Aluminium",
  });
  await insertProduct(db, strollId, { id: 61, sku: "SKU-61" });

  expect((await getProductPage(db, 60, "en", now))!.technicalSheet).toEqual({
    lengthMm: 850,
    widthMm: 480,
    heightMm: 1040,
    weightGrams: 6900,
    material: "Aluminium",
  });
  expect((await getProductPage(db, 61, "en", now))!.technicalSheet).toBeNull();
});

test("related products are the published ones in the shop's order, at most 8", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 70 });
  for (let id = 71; id <= 81; id++) await insertProduct(db, strollId, { id, sku: `SKU-${id}`, isPublished: id !== 72 });
  await db
    .insert(productRelations)
    .values(Array.from({ length: 11 }, (_, index) => ({ productId: 70, relatedProductId: 81 - index, position: index })));

  const page = await getProductPage(db, 70, "it", now);

  expect(page!.relatedIds).toEqual([81, 80, 79, 78, 77, 76, 75, 74]);
});

test("the affiliate link is passed on where the shop has one", async () => {
  const { db, strollId } = await openDb();
  await insertProduct(db, strollId, { id: 90, affiliateUrl: "https://www.amazon.it/dp/B0C1GOODY1" });

  expect((await getProductPage(db, 90, "it", now))!.affiliateUrl).toBe("https://www.amazon.it/dp/B0C1GOODY1");
});
