import { eq } from "drizzle-orm";
import { onTestFinished, expect, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productBrands,
  productColours,
  productImages,
  products,
  productVariants,
  users,
  wishlistItems,
} from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { changeAccountSavedItems, getAccountSavedItems, getSavedProducts, isPublishedProduct, syncSavedItems } from "./saved-items.service";

const now = new Date("2026-03-10T10:00:00Z");

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const [category] = await handle.db.insert(categories).values({ slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about" }).returning();
  return { db: handle.db, categoryId: category!.id };
}

type ProductOverrides = Partial<typeof products.$inferInsert> & { id: number };

async function insertProduct(
  db: Db,
  categoryId: number,
  overrides: ProductOverrides,
  variants: Partial<typeof productVariants.$inferInsert>[] = [{}],
) {
  const [product] = await db
    .insert(products)
    .values({
      sku: `SKU-${overrides.id}`,
      nameIt: `Passeggino ${overrides.id}`,
      nameEn: `Stroller ${overrides.id}`,
      priceCents: 10000,
      primaryCategoryId: categoryId,
      ...overrides,
    })
    .returning();
  for (const [index, variant] of variants.entries()) {
    await db.insert(productVariants).values({ productId: product!.id, sku: `SKU-${overrides.id}-${index}`, stock: 5, position: index, ...variant });
  }
  return product!;
}

async function insertUser(db: Db, id = "user-1") {
  await db.insert(users).values({ id, name: "Maria Rossi", email: `${id}@example.it` });
  return id;
}

test("saved products come in the order they were saved, named in the page's language, hidden and unknown ids left out", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 24 });
  await insertProduct(db, categoryId, { id: 25, isPublished: false });
  await insertProduct(db, categoryId, { id: 26, priceCents: 1999, discountPercent: 15, offerEndsAt: new Date("2026-04-01T00:00:00Z"), rating: 4 });

  const saved = await getSavedProducts(db, [26, 999, 25, 24], "en", now);

  expect(saved.map((product) => product.id)).toEqual([26, 24]);
  // 1999 × 85 / 100 = 1699.15 -> 1699
  expect(saved[0]).toMatchObject({ name: "Stroller 26", priceCents: 1999, effectivePriceCents: 1699, discountPercent: 15, rating: 4 });
  expect(await getSavedProducts(db, [], "it", now)).toEqual([]);
});

test("a simple product can go to the cart from the list; one with colours, sizes or personalisation needs its page", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1 });
  await insertProduct(db, categoryId, { id: 2, personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 20 }] });
  await insertProduct(db, categoryId, { id: 3 }, [{ size: "S" }, { size: "M", stock: 0 }]);
  const colourProduct = await insertProduct(db, categoryId, { id: 4 }, []);
  const [blue] = await db.insert(productColours).values({ productId: colourProduct.id, colour: "blue" }).returning();
  const [white] = await db.insert(productColours).values({ productId: colourProduct.id, colour: "white", position: 1 }).returning();
  await db.insert(productVariants).values([
    { productId: 4, colourId: blue!.id, size: "TAGLIA_UNICA", sku: "SKU-4-blue", stock: 0 },
    { productId: 4, colourId: white!.id, size: "TAGLIA_UNICA", sku: "SKU-4-white", stock: 0, isPreorder: true, preorderDays: 20 },
  ]);

  const saved = await getSavedProducts(db, [1, 2, 3, 4], "it", now);
  const [simple, personalised, sized, coloured] = saved;

  const [simpleVariant] = await db.select().from(productVariants).where(eq(productVariants.productId, 1));
  expect(simple).toMatchObject({ purchase: { kind: "add", variantId: simpleVariant!.id }, availability: "in_stock", colours: [], sizes: [] });
  expect(personalised!.purchase).toEqual({ kind: "choose" });
  expect(sized).toMatchObject({ purchase: { kind: "choose" }, sizes: ["S", "M"], availability: "in_stock" });
  expect(coloured).toMatchObject({ purchase: { kind: "unavailable" }, colours: ["blue", "white"], sizes: [], availability: "out_of_stock" });
});

test("the compare page gets the technical sheet, the first picture and the on-request flag", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, {
    id: 7,
    lengthMm: 850,
    widthMm: 480,
    heightMm: 1050,
    weightGrams: 6900,
    materialIt: "Telaio in alluminio",
    materialEn: "Aluminium frame",
  });
  await db.insert(productImages).values([
    { productId: 7, storageKey: "stroller-7-b", width: 800, height: 800, altIt: "Retro", altEn: "Back", position: 1 },
    { productId: 7, storageKey: "stroller-7-a", width: 800, height: 600, altIt: "Fronte", altEn: "Front", position: 0 },
  ]);
  await insertProduct(db, categoryId, { id: 8 });
  const [edition] = await db.insert(brands).values({ slug: "chicco-edition", name: "Chicco edition", marksOnRequest: true }).returning();
  await db.insert(productBrands).values({ productId: 8, brandId: edition!.id });

  const [sheet, onRequest] = await getSavedProducts(db, [7, 8], "en", now);

  expect(sheet).toMatchObject({
    image: { storageKey: "stroller-7-a", width: 800, height: 600, alt: "Front" },
    isOnRequest: false,
    technicalSheet: { lengthMm: 850, widthMm: 480, heightMm: 1050, weightGrams: 6900, material: "Aluminium frame" },
  });
  expect(onRequest).toMatchObject({
    isOnRequest: true,
    purchase: { kind: "onRequest" },
    image: null,
    technicalSheet: { lengthMm: null, material: null },
  });
});

test("a form may only add a published product", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 24 });
  await insertProduct(db, categoryId, { id: 25, isPublished: false });

  expect(await isPublishedProduct(db, 24)).toBe(true);
  expect(await isPublishedProduct(db, 25)).toBe(false);
  expect(await isPublishedProduct(db, 26)).toBe(false);
});

test("syncing merges the browser's lists into the account and returns the union to both", async () => {
  const { db, categoryId } = await openDb();
  for (const id of [1, 2, 3, 4, 5, 6]) await insertProduct(db, categoryId, { id });
  const userId = await insertUser(db);
  await syncSavedItems(db, userId, { wishlist: [1, 2], compare: [3] }, now);

  // Another device: one product in common, one new, one that no longer exists.
  const union = await syncSavedItems(db, userId, { wishlist: [2, 4, 999], compare: [5] }, new Date(now.getTime() + 60_000));

  expect(union).toEqual({ wishlist: [1, 2, 4], compare: [3, 5] });
  expect(await getAccountSavedItems(db, userId)).toEqual(union);
});

test("syncing an empty browser brings the account's lists to it; a full compare keeps the newest four", async () => {
  const { db, categoryId } = await openDb();
  for (const id of [1, 2, 3, 4, 5, 6]) await insertProduct(db, categoryId, { id });
  const userId = await insertUser(db);
  await syncSavedItems(db, userId, { wishlist: [6], compare: [1, 2, 3, 4] }, now);

  expect(await syncSavedItems(db, userId, { wishlist: [], compare: [] })).toEqual({ wishlist: [6], compare: [1, 2, 3, 4] });

  const merged = await syncSavedItems(db, userId, { wishlist: [], compare: [5, 6] }, new Date(now.getTime() + 60_000));
  expect(merged.compare).toEqual([3, 4, 5, 6]);
  expect((await getAccountSavedItems(db, userId)).compare).toEqual([3, 4, 5, 6]);
});

test("one customer's lists are not another's", async () => {
  const { db, categoryId } = await openDb();
  await insertProduct(db, categoryId, { id: 1 });
  await insertProduct(db, categoryId, { id: 2 });
  const maria = await insertUser(db, "maria");
  const luca = await insertUser(db, "luca");
  await db.insert(wishlistItems).values({ userId: luca, productId: 2 });

  await syncSavedItems(db, maria, { wishlist: [1], compare: [] }, now);

  expect(await getAccountSavedItems(db, maria)).toEqual({ wishlist: [1], compare: [] });
  expect(await getAccountSavedItems(db, luca)).toEqual({ wishlist: [2], compare: [] });
});

test("a signed-in customer's changes follow the list rules: add when absent, compare limit, remove by id, clear", async () => {
  const { db, categoryId } = await openDb();
  for (const id of [1, 2, 3, 4, 5]) await insertProduct(db, categoryId, { id });
  const userId = await insertUser(db);

  expect((await changeAccountSavedItems(db, userId, { intent: "add", list: "wishlist", productId: 1 }, now)).outcome).toBe("added");
  expect((await changeAccountSavedItems(db, userId, { intent: "add", list: "wishlist", productId: 1 }, now)).outcome).toBe("already-saved");
  for (const productId of [1, 2, 3, 4]) await changeAccountSavedItems(db, userId, { intent: "add", list: "compare", productId }, now);
  expect((await changeAccountSavedItems(db, userId, { intent: "add", list: "compare", productId: 5 }, now)).outcome).toBe("list-full");
  expect((await changeAccountSavedItems(db, userId, { intent: "remove", list: "compare", productId: 2 }, now)).outcome).toBe("removed");
  expect(await getAccountSavedItems(db, userId)).toEqual({ wishlist: [1], compare: [1, 3, 4] });

  const cleared = await changeAccountSavedItems(db, userId, { intent: "clear", list: "compare" }, now);

  expect(cleared).toEqual({ lists: { wishlist: [1], compare: [] }, outcome: "cleared" });
  expect(await getAccountSavedItems(db, userId)).toEqual({ wishlist: [1], compare: [] });
});
