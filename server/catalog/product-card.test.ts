import { expect, onTestFinished, test } from "vitest";
import { brands, categories, productBrands, productColours, productImages, products, productVariants } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { getCardPurchase, getProductCards, type CardVariant } from "./product-card";

const now = new Date("2026-03-10T10:00:00Z");

const variant = (overrides: Partial<CardVariant> = {}): CardVariant => ({
  id: 1,
  colourId: null,
  size: "TAGLIA_UNICA",
  stock: 5,
  isPreorder: false,
  ...overrides,
});

test("a simple product in stock is added from the card", () => {
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ id: 7, stock: 3 })] })).toEqual({
    kind: "add",
    variantId: 7,
    stock: 3,
    isPreorder: false,
  });
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ size: "tagliau", isPreorder: true })] }).kind).toBe(
    "add",
  );
});

test("colours, sizes or personalisation send the visitor to choose options", () => {
  const choose = { kind: "choose" };
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ colourId: 3 })] })).toEqual(choose);
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ size: "M" })] })).toEqual(choose);
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ id: 1 }), variant({ id: 2, stock: 0 })] })).toEqual(
    choose,
  );
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: true, variants: [variant()] })).toEqual(choose);
});

test("nothing in stock is 'not available'; on-request products have no cart at all", () => {
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [variant({ stock: 0 })] })).toEqual({ kind: "unavailable" });
  expect(
    getCardPurchase({
      isOnRequest: false,
      hasPersonalisation: false,
      variants: [variant({ id: 1, size: "S", stock: 0 }), variant({ id: 2, size: "M", stock: 0 })],
    }),
  ).toEqual({
    kind: "unavailable",
  });
  expect(getCardPurchase({ isOnRequest: false, hasPersonalisation: false, variants: [] })).toEqual({ kind: "unavailable" });
  expect(getCardPurchase({ isOnRequest: true, hasPersonalisation: false, variants: [variant()] })).toEqual({ kind: "onRequest" });
});

test("cards come in the order asked, in the page's language, with brand, first picture, offer and purchase", async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const db = handle.db;
  const [category] = await db.insert(categories).values({ slug: "pappa", nameIt: "Pappa", nameEn: "Feeding" }).returning();
  const [chicco, edition] = await db
    .insert(brands)
    .values([
      { slug: "chicco", name: "Chicco" },
      { slug: "chicco-edition", name: "Chicco edition", marksOnRequest: true },
    ])
    .returning();
  const base = { primaryCategoryId: category!.id, priceCents: 1999 };
  await db.insert(products).values([
    {
      ...base,
      id: 1,
      sku: "A",
      nameIt: "Biberon",
      nameEn: "Baby bottle",
      shortDescriptionEn: "Glass",
      discountPercent: 15,
      offerEndsAt: new Date("2026-04-01T00:00:00Z"),
      isNew: true,
      rating: 4,
    },
    { ...base, id: 2, sku: "B", nameIt: "Body", nameEn: "Bodysuit", discountPercent: 30, offerEndsAt: new Date("2020-10-31T00:00:00Z") },
    {
      ...base,
      id: 3,
      sku: "C",
      nameIt: "Trio",
      nameEn: "Travel system",
      personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 12 }],
    },
    { ...base, id: 4, sku: "D", nameIt: "Culla", nameEn: "Crib" },
    { ...base, id: 5, sku: "E", nameIt: "Nascosto", nameEn: "Hidden", isPublished: false },
  ]);
  await db.insert(productBrands).values([
    { productId: 1, brandId: chicco!.id, position: 0 },
    { productId: 4, brandId: chicco!.id, position: 1 },
    { productId: 4, brandId: edition!.id, position: 0 },
  ]);
  const [white] = await db.insert(productColours).values({ productId: 2, colour: "white" }).returning();
  await db.insert(productVariants).values([
    { productId: 1, sku: "A-1", stock: 4 },
    { productId: 2, sku: "B-1", colourId: white!.id, size: "M", stock: 2 },
    { productId: 3, sku: "C-1", stock: 1 },
    { productId: 4, sku: "D-1", stock: 9 },
  ]);
  await db.insert(productImages).values([
    { productId: 1, storageKey: "b", width: 800, height: 800, altIt: "Retro", altEn: "Back", position: 2 },
    { productId: 1, storageKey: "a", width: 800, height: 600, altIt: "Fronte", altEn: "Front", position: 1 },
  ]);

  const cards = await getProductCards(db, { productIds: [4, 5, 1, 3, 2, 1, 999], locale: "en", now });

  expect(cards.map((card) => card.id)).toEqual([4, 1, 3, 2]);
  const [crib, bottle, travel, body] = cards;
  expect(bottle).toEqual({
    id: 1,
    name: "Baby bottle",
    shortDescription: "Glass",
    brand: { slug: "chicco", name: "Chicco" },
    priceCents: 1999,
    effectivePriceCents: 1699,
    discountPercent: 15,
    isNew: true,
    isFreeShipping: false,
    isOnRequest: false,
    rating: 4,
    // No published customer review yet (server/reviews/review.service.test.ts covers those).
    reviews: null,
    image: { storageKey: "a", width: 800, height: 600, alt: "Front" },
    purchase: { kind: "add", variantId: expect.any(Number), stock: 4, isPreorder: false },
  });
  // the first brand tag is the brand, and an on-request tag makes the product on request
  expect(crib).toMatchObject({ brand: { slug: "chicco-edition" }, isOnRequest: true, purchase: { kind: "onRequest" }, image: null });
  expect(travel!.purchase).toEqual({ kind: "choose" });
  // an ended offer no longer applies
  expect(body).toMatchObject({ effectivePriceCents: 1999, discountPercent: 0, purchase: { kind: "choose" } });
  expect(await getProductCards(db, { productIds: [], locale: "it", now })).toEqual([]);
});
