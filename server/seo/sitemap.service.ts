import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { categories, products, subcategories } from "#server/db/schema.ts";
import { categoryPath, productPath, staticSitemapPaths, subcategoryPath, type SitemapPage } from "./sitemap";

/** Every public page: information pages, categories, subcategories and published products. */
export async function getSitemapPages(db: Db): Promise<SitemapPage[]> {
  const [categoryRows, subcategoryRows, productRows] = await Promise.all([
    db.select({ slug: categories.slug }).from(categories).orderBy(asc(categories.position), asc(categories.id)),
    db.select({ slug: subcategories.slug }).from(subcategories).orderBy(asc(subcategories.position), asc(subcategories.id)),
    db.select({ id: products.id, updatedAt: products.updatedAt }).from(products).where(eq(products.isPublished, true)).orderBy(asc(products.id)),
  ]);
  return [
    ...staticSitemapPaths.map((path) => ({ path })),
    ...categoryRows.map((row) => ({ path: categoryPath(row.slug) })),
    ...subcategoryRows.map((row) => ({ path: subcategoryPath(row.slug) })),
    ...productRows.map((row) => ({ path: productPath(row.id), lastModified: row.updatedAt })),
  ];
}
