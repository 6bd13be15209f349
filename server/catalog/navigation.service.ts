import { asc } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, subcategories } from "#server/db/schema.ts";
import { createCatalogueCache } from "./catalogue-cache";

export type SubcategoryLink = { slug: string; name: string };
export type CategoryLink = { slug: string; name: string; subcategories: SubcategoryLink[] };

/** Every category, subcategory and brand, in the shop's order. */
export type Taxonomy = {
  categories: (typeof categories.$inferSelect)[];
  subcategories: (typeof subcategories.$inferSelect)[];
  brands: (typeof brands.$inferSelect)[];
};

/** Read by every page's menu and every listing; kept until the catalogue's version moves on. */
const taxonomies = createCatalogueCache<Taxonomy>({ maxAgeMs: 60_000, maxEntries: 1 });

/** The categories, subcategories and brands as of the catalogue's current version (callers must not change them). */
export function getTaxonomy(db: Db): Promise<Taxonomy> {
  return taxonomies.get(db, "taxonomy", async () => {
    const [categoryRows, subcategoryRows, brandRows] = await Promise.all([
      db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
      db.select().from(subcategories).orderBy(asc(subcategories.position), asc(subcategories.id)),
      db.select().from(brands).orderBy(asc(brands.name), asc(brands.id)),
    ]);
    return { categories: categoryRows, subcategories: subcategoryRows, brands: brandRows };
  });
}

/** The mega menu: every category with its subcategories, in the shop's order, named in `locale`. */
export async function getCategoryNavigation(db: Db, locale: Locale): Promise<CategoryLink[]> {
  const taxonomy = await getTaxonomy(db);
  const nameOf = (row: { nameIt: string; nameEn: string }) => (locale === "en" ? row.nameEn : row.nameIt);
  return taxonomy.categories.map((category) => ({
    slug: category.slug,
    name: nameOf(category),
    subcategories: taxonomy.subcategories.filter((sub) => sub.categoryId === category.id).map((sub) => ({ slug: sub.slug, name: nameOf(sub) })),
  }));
}
