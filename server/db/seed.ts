/**
 * First-start data: the category tree, the sample catalogue (its pictures are drawn when first asked
 * for: server/catalog/sample-pictures.ts), default shop settings and bundled exchange rates. Runs only on an empty catalogue, so restarts and a
 * second `db:seed` change nothing.
 */
import { and, count, eq, inArray, isNull, sql } from "drizzle-orm";
import { saveBundleInTx } from "#server/bundles/bundle-admin.service.ts";
import { BundleInput } from "#server/bundles/bundle.inputs.ts";
import { sampleBundles } from "#server/db/sample-catalogue/bundles.ts";
import { sourceImageSize } from "#server/catalog/images.ts";
import { sampleBrands, sampleCatalogue, type SampleProduct } from "#server/db/sample-catalogue.ts";
import { sampleProductSpecs } from "#server/db/sample-catalogue/specs.ts";
import {
  sampleBrandSafety,
  sampleModelNumber,
  sampleProductWarnings,
  sampleSafetyContacts,
  sampleSafetyWarnings,
  sampleSubcategoryWarnings,
} from "#server/db/sample-catalogue/safety.ts";
import { refreshProductSearch } from "#server/catalog/search.service.ts";
import { offersCategorySlug, taxonomy } from "#server/catalog/taxonomy.ts";
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";
import { defaultSettings } from "#server/settings/settings.ts";
import type { Db } from "./client";
import {
  brands,
  categories,
  exchangeRates,
  productBrands,
  productCategories,
  productColours,
  productImages,
  productPriceHistory,
  productRelations,
  products,
  productSafetyWarnings,
  productSpecs,
  productVariants,
  safetyContacts,
  safetyWarnings,
  shopSettings,
  subcategories,
} from "./schema";

/** Display-currency rates per 1 EUR used until the first successful refresh (docs/rules.md#money). */
export const bundledExchangeRates = [
  { currency: "USD", ratePerEur: 1.08 },
  { currency: "GBP", ratePerEur: 0.85 },
] as const;

export type SeedOptions = {
  log?: (line: string) => void;
  /** The moment offers and the first price-history rows are judged at. */
  now?: Date;
};

export type SeedResult = { inserted: boolean; products: number };

/** Serialises concurrent first starts of several app processes on one PostgreSQL database. */
const seedLockKey = 7_401_024;
/** PostgreSQL allows 65535 bind parameters per statement; the widest row here has ~35 columns. */
const batchSize = 500;

export async function seedSampleCatalogue(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();
  const existing = await countProducts(db);
  if (existing > 0) return { inserted: false, products: existing };

  const startedAt = performance.now();
  const inserted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(seedLockKey))})`);
    if ((await countProducts(tx)) > 0) return false;
    await insertSampleCatalogue(tx, now);
    await insertSampleBundles(tx);
    await refreshProductSearch(tx);
    await insertDefaults(tx);
    return true;
  });
  if (!inserted) return { inserted: false, products: await countProducts(db) };
  log(`sample catalogue seeded: ${sampleCatalogue.length} products in ${Math.round(performance.now() - startedAt)} ms`);
  return { inserted: true, products: sampleCatalogue.length };
}

async function countProducts(db: Db) {
  const [row] = await db.select({ value: count() }).from(products);
  return row?.value ?? 0;
}

/** Default settings and rates, never overwriting a value the back office already saved. */
async function insertDefaults(db: Db) {
  await db
    .insert(shopSettings)
    .values(Object.entries(defaultSettings).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing();
  await db
    .insert(exchangeRates)
    .values(bundledExchangeRates.map((rate) => ({ ...rate, source: "bundled" })))
    .onConflictDoNothing();
}

async function inBatches<Row>(rows: readonly Row[], insert: (batch: Row[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += batchSize) await insert(rows.slice(start, start + batchSize));
}

function requireId(ids: ReadonlyMap<string, number>, key: string, what: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`Seed: no ${what} for ${key}`);
  return id;
}

/** Category and brand rows may already exist (created in the back office); products never do here. */
async function insertTaxonomyAndBrands(db: Db) {
  await db
    .insert(categories)
    .values(taxonomy.map(({ slug, nameIt, nameEn, position }) => ({ slug, nameIt, nameEn, position })))
    .onConflictDoNothing();
  const categoryIds = new Map((await db.select().from(categories)).map((row) => [row.slug, row.id]));
  const subcategoryRows = taxonomy.flatMap((category) =>
    category.subcategories.map(({ slug, nameIt, nameEn, position }) => ({
      categoryId: requireId(categoryIds, category.slug, "category"),
      slug,
      nameIt,
      nameEn,
      position,
    })),
  );
  await db.insert(subcategories).values(subcategoryRows).onConflictDoNothing();
  const subcategoryIds = new Map((await db.select().from(subcategories)).map((row) => [row.slug, row.id]));
  await db
    .insert(brands)
    .values(sampleBrands.map(({ slug, name, marksOnRequest }) => ({ slug, name, marksOnRequest })))
    .onConflictDoNothing();
  const brandIds = new Map((await db.select().from(brands)).map((row) => [row.slug, row.id]));
  return { categoryIds, subcategoryIds, brandIds };
}

function toProductRow(product: SampleProduct, categoryIds: ReadonlyMap<string, number>, subcategoryIds: ReadonlyMap<string, number>) {
  const personalisation = product.personalisation;
  return {
    id: product.id,
    sku: product.sku,
    nameIt: product.nameIt,
    nameEn: product.nameEn,
    shortDescriptionIt: product.shortDescriptionIt,
    shortDescriptionEn: product.shortDescriptionEn,
    fullDescriptionIt: product.fullDescriptionIt,
    fullDescriptionEn: product.fullDescriptionEn,
    priceCents: product.priceCents,
    discountPercent: product.discountPercent,
    offerEndsAt: product.offerEndsAt,
    isNew: product.isNew,
    isFreeShipping: product.isFreeShipping,
    rating: product.rating,
    saleCount: product.saleCount,
    isOnRequest: product.isOnRequest,
    primaryCategoryId: requireId(categoryIds, product.categorySlug, "category"),
    subcategoryId: requireId(subcategoryIds, product.subcategorySlug, "subcategory"),
    personalisationFields: personalisation ? personalisation.fields.map((field) => ({ ...field })) : null,
    ...(personalisation && {
      personalisationDescriptionIt: personalisation.descriptionIt,
      personalisationDescriptionEn: personalisation.descriptionEn,
      personalisationCostCents: personalisation.costCents,
    }),
    ...product.sheet,
    affiliateUrl: product.affiliateUrl,
    vatRatePercent: product.vatRatePercent,
    isLoyaltyExcluded: product.isLoyaltyExcluded,
    modelNumber: sampleModelNumber(product.sku),
  };
}

/**
 * Manufacturers, responsible persons and warnings (GPSR article 19), each brand's contacts where the back
 * office has set none, and every sample product's warnings: its subcategory's, then its own.
 */
async function insertSampleSafety(db: Db, brandIds: ReadonlyMap<string, number>) {
  await db
    .insert(safetyContacts)
    .values(sampleSafetyContacts.map(({ key: _, ...contact }) => contact))
    .onConflictDoNothing();
  const contactIds = new Map((await db.select().from(safetyContacts)).map((row) => [`${row.role}:${row.name}`, row.id]));
  const contactId = (role: "manufacturer" | "responsible_person", key: string) => {
    const contact = sampleSafetyContacts.find((entry) => entry.key === key && entry.role === role);
    if (!contact) throw new Error(`Seed: no ${role} ${key}`);
    return requireId(contactIds, `${role}:${contact.name}`, role);
  };
  for (const [slug, safety] of Object.entries(sampleBrandSafety)) {
    const brandId = requireId(brandIds, slug, "brand");
    await db
      .update(brands)
      .set({
        manufacturerId: contactId("manufacturer", safety.manufacturer),
        responsiblePersonId: safety.responsiblePerson ? contactId("responsible_person", safety.responsiblePerson) : null,
      })
      .where(and(eq(brands.id, brandId), isNull(brands.manufacturerId)));
  }
  await db
    .insert(safetyWarnings)
    .values(Object.entries(sampleSafetyWarnings).map(([code, [textIt, textEn]]) => ({ code, textIt, textEn })))
    .onConflictDoNothing();
  const warningIds = new Map(
    (await db.select({ id: safetyWarnings.id, code: safetyWarnings.code }).from(safetyWarnings)).map((row) => [row.code, row.id]),
  );
  const links = sampleCatalogue.flatMap((product) =>
    [...new Set([...sampleSubcategoryWarnings[product.subcategorySlug], ...(sampleProductWarnings[product.id] ?? [])])].map((code, position) => ({
      productId: product.id,
      warningId: requireId(warningIds, code, "warning"),
      position,
    })),
  );
  await inBatches(links, (batch) => db.insert(productSafetyWarnings).values(batch));
}

async function insertSampleCatalogue(db: Db, now: Date) {
  const { categoryIds, subcategoryIds, brandIds } = await insertTaxonomyAndBrands(db);
  const offersCategoryId = requireId(categoryIds, offersCategorySlug, "category");

  await inBatches(
    sampleCatalogue.map((product) => toProductRow(product, categoryIds, subcategoryIds)),
    (batch) => db.insert(products).values(batch),
  );
  // A product with a running offer is also listed under "offerte"; an ended offer is not shown there.
  const categoryLinks = sampleCatalogue.flatMap((product) => [
    { productId: product.id, categoryId: requireId(categoryIds, product.categorySlug, "category"), position: 0 },
    ...(activeDiscountPercent(product.discountPercent, product.offerEndsAt, now) > 0
      ? [{ productId: product.id, categoryId: offersCategoryId, position: 1 }]
      : []),
  ]);
  await inBatches(categoryLinks, (batch) => db.insert(productCategories).values(batch));
  const brandLinks = sampleCatalogue.flatMap((product) =>
    product.brandSlugs.map((slug, position) => ({ productId: product.id, brandId: requireId(brandIds, slug, "brand"), position })),
  );
  await inBatches(brandLinks, (batch) => db.insert(productBrands).values(batch));
  await insertSampleSafety(db, brandIds);
  // Seeded in bulk, as the other sample rows; the shop itself writes them through setProductSpecs.
  await db.insert(productSpecs).values(Object.entries(sampleProductSpecs).map(([id, specs]) => ({ productId: Number(id), ...specs })));

  const colourIds = new Map<string, number>();
  const colourRows = sampleCatalogue.flatMap((product) => product.colours.map((colour, position) => ({ productId: product.id, colour, position })));
  await inBatches(colourRows, async (batch) => {
    const rows = await db
      .insert(productColours)
      .values(batch)
      .returning({ id: productColours.id, productId: productColours.productId, colour: productColours.colour });
    for (const row of rows) colourIds.set(`${row.productId}:${row.colour}`, row.id);
  });
  const colourIdOf = (productId: number, colour: string | null) =>
    colour === null ? null : requireId(colourIds, `${productId}:${colour}`, "colour");

  const variantRows = sampleCatalogue.flatMap((product) =>
    product.variants.map((variant, position) => ({
      productId: product.id,
      colourId: colourIdOf(product.id, variant.colour),
      size: variant.size,
      sku: variant.sku,
      stock: variant.stock,
      isPreorder: variant.isPreorder,
      preorderDays: variant.preorderDays,
      position,
    })),
  );
  await inBatches(variantRows, (batch) => db.insert(productVariants).values(batch));

  const imageRows = sampleCatalogue.flatMap((product) =>
    product.images.map((image) => ({
      productId: product.id,
      colourId: colourIdOf(product.id, image.colour),
      storageKey: image.key,
      width: sourceImageSize,
      height: sourceImageSize,
      altIt: image.altIt,
      altEn: image.altEn,
      position: image.position,
    })),
  );
  await inBatches(imageRows, (batch) => db.insert(productImages).values(batch));

  const relationRows = sampleCatalogue.flatMap((product) =>
    product.relatedIds.map((relatedProductId, position) => ({ productId: product.id, relatedProductId, position })),
  );
  await inBatches(relationRows, (batch) => db.insert(productRelations).values(batch));

  const historyRows = sampleCatalogue.map((product) => ({
    productId: product.id,
    priceCents: product.priceCents,
    effectivePriceCents: effectivePriceCents(product, now),
    recordedAt: now,
  }));
  await inBatches(historyRows, (batch) => db.insert(productPriceHistory).values(batch));
}

/** The sample bundles over the sample products just inserted: each combination's part variants by colour. */
async function insertSampleBundles(db: Db) {
  const productIds = sampleBundles.flatMap((bundle) => [bundle.productId, ...bundle.parts.map((part) => part.productId)]);
  const variants = await db
    .select({ id: productVariants.id, productId: productVariants.productId, colour: productColours.colour })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(inArray(productVariants.productId, productIds));
  const variantOf = (productId: number, colour: string | null) => {
    const found = variants.find((variant) => variant.productId === productId && variant.colour === colour);
    if (!found) throw new Error(`Seed: no variant of ${productId} in ${colour ?? "no colour"}`);
    return found.id;
  };
  for (const bundle of sampleBundles) {
    await saveBundleInTx(
      db,
      BundleInput.parse({
        ...bundle,
        options: bundle.options.map((option) => ({
          bundleVariantId: variantOf(bundle.productId, option.colour),
          partVariantIds: option.partColours.map((colour, index) => variantOf(bundle.parts[index]!.productId, colour)),
        })),
      }),
    );
  }
}
