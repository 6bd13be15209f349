import { asc } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { categories, subcategories } from "#server/db/schema.ts";

export type SubcategoryLink = { slug: string; name: string };
export type CategoryLink = { slug: string; name: string; subcategories: SubcategoryLink[] };

/** The mega menu: every category with its subcategories, in the shop's order, named in `locale`. */
export async function getCategoryNavigation(db: Db, locale: Locale): Promise<CategoryLink[]> {
  const [categoryRows, subcategoryRows] = await Promise.all([
    db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
    db.select().from(subcategories).orderBy(asc(subcategories.position), asc(subcategories.id)),
  ]);
  const nameOf = (row: { nameIt: string; nameEn: string }) => (locale === "en" ? row.nameEn : row.nameIt);
  return categoryRows.map((category) => ({
    slug: category.slug,
    name: nameOf(category),
    subcategories: subcategoryRows.filter((sub) => sub.categoryId === category.id).map((sub) => ({ slug: sub.slug, name: nameOf(sub) })),
  }));
}
