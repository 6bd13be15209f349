import { count, sql } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { categories, productVariants, products } from "#server/db/schema.ts";
import { createTestDb, selectRows, testDbKind } from "#tests/db.ts";

async function openTestDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle;
}

test("project postgres runs on PostgreSQL, every other project on PGlite", async ({ task }) => {
  const { kind } = await openTestDb();

  expect(kind).toBe(task.file.projectName === "postgres" ? "postgres" : "pglite");
  expect(testDbKind).toBe(kind);
});

test("a fresh test database has every migration applied and no rows", async () => {
  const { db } = await openTestDb();

  expect(await db.select({ rows: count() }).from(categories)).toEqual([{ rows: 0 }]);
  const tables = await selectRows<{ name: string }>(db, sql`select table_name as name from information_schema.tables where table_schema = 'public'`);
  expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(["categories", "products", "product_variants"]));
});

test("two test databases do not share rows", async () => {
  const first = await openTestDb();
  const second = await openTestDb();

  await first.db.insert(categories).values({ slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about" });

  expect(await first.db.select({ slug: categories.slug }).from(categories)).toEqual([{ slug: "A-spasso" }]);
  expect(await second.db.select({ slug: categories.slug }).from(categories)).toEqual([]);
});

test("the database refuses a variant with negative stock", async () => {
  const { db } = await openTestDb();
  const [category] = await db.insert(categories).values({ slug: "pappa", nameIt: "Pappa", nameEn: "Feeding" }).returning({ id: categories.id });
  const [product] = await db
    .insert(products)
    .values({ sku: "BIB-1", nameIt: "Biberon", nameEn: "Baby bottle", priceCents: 1290, primaryCategoryId: category!.id })
    .returning({ id: products.id });

  await db.insert(productVariants).values({ productId: product!.id, sku: "BIB-1-150", size: "150ml", stock: 0 });
  const refusal = await db
    .insert(productVariants)
    .values({ productId: product!.id, sku: "BIB-1-250", size: "250ml", stock: -1 })
    .then(
      () => undefined,
      (error: Error) => error,
    );

  expect((refusal?.cause as Error | undefined)?.message).toMatch(/violates check constraint "product_variants_stock_non_negative"/);
  expect(await db.select({ rows: count() }).from(productVariants)).toEqual([{ rows: 1 }]);
});

test("search extensions fold accents, tolerate typos and stem Italian words", async () => {
  const { db } = await openTestDb();

  const [row] = await selectRows<{ folded: string; similarity: number; stems: boolean }>(
    db,
    sql`select unaccent('perché') as folded,
               similarity('passeggino', 'pasegino')::float8 as similarity,
               to_tsvector('italian', 'passeggini') @@ to_tsquery('italian', 'passeggino') as stems`,
  );

  expect(row!.folded).toBe("perche");
  expect(row!.similarity).toBeGreaterThan(0.3);
  expect(row!.stems).toBe(true);
});
