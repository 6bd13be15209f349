/** Test helpers for the back-office suites: the shop's category tree, brands and an admin user. */
import crypto from "node:crypto";
import { sampleBrands } from "#server/catalog/sample-catalogue.ts";
import { taxonomy } from "#server/catalog/taxonomy.ts";
import type { Db } from "#server/db/client.ts";
import { brands, categories, subcategories, users } from "#server/db/schema.ts";


export async function seedTaxonomy(db: Db) {
  for (const category of taxonomy) {
    const [row] = await db.insert(categories).values({ slug: category.slug, nameIt: category.nameIt, nameEn: category.nameEn, position: category.position }).returning();
    if (category.subcategories.length)
      await db.insert(subcategories).values(category.subcategories.map((sub) => ({ categoryId: row!.id, slug: sub.slug, nameIt: sub.nameIt, nameEn: sub.nameEn, position: sub.position })));
  }
  await db.insert(brands).values(sampleBrands.map((brand) => ({ slug: brand.slug, name: brand.name, marksOnRequest: brand.marksOnRequest })));
}

export async function createAdminUser(db: Db, name = "Carla Admin") {
  const id = crypto.randomUUID();
  await db.insert(users).values({ id, name, email: `${id.slice(0, 8)}@bimbifelici.test`, role: "admin", emailVerified: true });
  return id;
}

/** A valid product form (strings, as the browser sends them), with overrides. */
export function productForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    sku: "BFE-TEST-1",
    nameIt: "Passeggino Vesuvio",
    nameEn: "Vesuvio stroller",
    shortDescriptionIt: "Leggero e pieghevole",
    shortDescriptionEn: "Light and foldable",
    fullDescriptionIt: "",
    fullDescriptionEn: "",
    price: "199,90",
    discountPercent: "0",
    offerEndsOn: "",
    vatRatePercent: "22",
    isNew: "on",
    isFreeShipping: "",
    isOnRequest: "",
    isPublished: "on",
    category: "A-spasso",
    subcategory: "passeggini-leggeri",
    brands: "Chicco",
    related: "",
    lengthMm: "800",
    widthMm: "",
    heightMm: "",
    weightGrams: "6500",
    materialIt: "Alluminio",
    materialEn: "Aluminium",
    personalisation: "",
    personalisationDescriptionIt: "",
    personalisationDescriptionEn: "",
    personalisationCost: "0",
    affiliateUrl: "",
    ...overrides,
  };
}
