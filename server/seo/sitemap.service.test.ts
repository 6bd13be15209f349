import { expect, onTestFinished, test } from "vitest";
import { categories, products, subcategories } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { getSitemapPages } from "./sitemap.service";

test("the sitemap lists information pages, every category and subcategory, and published products only", async () => {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  const { db } = handle;
  const [category] = await db.insert(categories).values({ slug: "A-spasso", nameIt: "A spasso", nameEn: "Out and about" }).returning();
  await db
    .insert(subcategories)
    .values({ categoryId: category!.id, slug: "passeggini-leggeri", nameIt: "Passeggini leggeri", nameEn: "Lightweight strollers" });
  const product = { priceCents: 1990, primaryCategoryId: category!.id };
  await db.insert(products).values([
    { ...product, id: 24, sku: "P-24", nameIt: "Passeggino", nameEn: "Stroller" },
    { ...product, id: 25, sku: "P-25", nameIt: "Bozza", nameEn: "Draft", isPublished: false },
  ]);

  const pages = await getSitemapPages(db);

  const paths = pages.map((page) => page.path);
  expect(paths).toEqual(
    expect.arrayContaining(["/", "/shop", "/about", "/contact", "/centroassistenza/", "/privacy", "/cookie-policy", "/lista-nascita"]),
  );
  expect(paths).toContain("/categoria/A-spasso");
  expect(paths).toContain("/sottocategoria/passeggini-leggeri");
  expect(paths).toContain("/product/24");
  expect(paths).not.toContain("/product/25");
  expect(pages.find((page) => page.path === "/product/24")?.lastModified).toBeInstanceOf(Date);
});
