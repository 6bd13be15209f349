/**
 * The back office's products: list with search and filters, read for editing, create and update
 * every field. A save is one transaction (product row, categories, brand tags, related products,
 * price history, search document, audit row): a refused or failed save writes nothing.
 */
import { and, asc, count, desc, eq, exists, inArray, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import { matchSearch, productsSearch, refreshProductSearch } from "#server/catalog/search.service.ts";
import { offersCategorySlug } from "#server/catalog/taxonomy.ts";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
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
import { activeDiscountPercent } from "#server/money.ts";
import { endOfItalianDay, italianDayOf } from "#common/shop-calendar.ts";
import { recordAudit } from "./audit.service";
import { recordPriceIfChanged } from "./price-history.service";
import { formatEuroInput, type FieldErrors, type ProductInput } from "./product-admin.inputs";

export const adminPageSize = 25;
/** A size with this stock or less counts as low stock. */
export const lowStockThreshold = 3;

export type SaveResult = { ok: true; productId: number } | { ok: false; errors: FieldErrors };

export function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (value && typeof value === "object" && "code" in value ? value.code : undefined);
  return codeOf(error) === "23505" || codeOf((error as { cause?: unknown })?.cause) === "23505";
}

type Refs = { categoryId: number; subcategoryId: number | null; brandIds: number[]; relatedIds: number[]; offersCategoryId: number | null };

/** Category, subcategory, brand tags and related products named by the form; unknown ones are refused. */
async function resolveRefs(
  tx: Db,
  input: ProductInput,
  productId: number | null,
): Promise<{ ok: true; refs: Refs } | { ok: false; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const categoryRows = await tx.select({ id: categories.id, slug: categories.slug }).from(categories);
  const category = categoryRows.find((row) => row.slug === input.category);
  if (!category) errors.category = "admin.errors.categoryUnknown";
  let subcategoryId: number | null = null;
  if (input.subcategory) {
    const [sub] = await tx.select().from(subcategories).where(eq(subcategories.slug, input.subcategory));
    if (!sub) errors.subcategory = "admin.errors.subcategoryUnknown";
    else if (category && sub.categoryId !== category.id) errors.subcategory = "admin.errors.subcategoryElsewhere";
    else subcategoryId = sub.id;
  }
  const brandRows = await tx.select({ id: brands.id, slug: brands.slug, name: brands.name }).from(brands);
  const brandIds: number[] = [];
  for (const wanted of input.brands) {
    const brand = brandRows.find((row) => row.slug === wanted || row.name.toLowerCase() === wanted.toLowerCase());
    if (!brand) errors.brands = "admin.errors.brandUnknown";
    else if (!brandIds.includes(brand.id)) brandIds.push(brand.id);
  }
  const relatedIds = input.related.filter((id) => id !== productId);
  if (relatedIds.length > 0) {
    const found = await tx.select({ id: products.id }).from(products).where(inArray(products.id, relatedIds));
    if (found.length !== relatedIds.length) errors.related = "admin.errors.relatedUnknown";
  }
  if (Object.keys(errors).length > 0 || !category) return { ok: false, errors };
  const offersCategoryId = categoryRows.find((row) => row.slug === offersCategorySlug)?.id ?? null;
  return { ok: true, refs: { categoryId: category.id, subcategoryId, brandIds, relatedIds, offersCategoryId } };
}

function productRow(input: ProductInput, refs: Refs) {
  return {
    sku: input.sku,
    nameIt: input.nameIt,
    nameEn: input.nameEn,
    shortDescriptionIt: input.shortDescriptionIt,
    shortDescriptionEn: input.shortDescriptionEn,
    fullDescriptionIt: input.fullDescriptionIt,
    fullDescriptionEn: input.fullDescriptionEn,
    priceCents: input.price,
    discountPercent: input.discountPercent,
    offerEndsAt: input.offerEndsOn ? endOfItalianDay(input.offerEndsOn) : null,
    vatRatePercent: input.vatRatePercent,
    isNew: input.isNew,
    isFreeShipping: input.isFreeShipping,
    ...(input.isLoyaltyExcluded !== undefined && { isLoyaltyExcluded: input.isLoyaltyExcluded }),
    isOnRequest: input.isOnRequest,
    isPublished: input.isPublished,
    primaryCategoryId: refs.categoryId,
    subcategoryId: refs.subcategoryId,
    personalisationFields: input.personalisation,
    personalisationDescriptionIt: input.personalisationDescriptionIt || "Non disponibile",
    personalisationDescriptionEn: input.personalisationDescriptionEn || "Not available",
    personalisationCostCents: input.personalisationCost,
    lengthMm: input.lengthMm,
    widthMm: input.widthMm,
    heightMm: input.heightMm,
    weightGrams: input.weightGrams,
    materialIt: input.materialIt || null,
    materialEn: input.materialEn || null,
    affiliateUrl: input.affiliateUrl,
  };
}

/** Links, price history and the search document of a saved product. */
async function writeProductLinks(tx: Db, productId: number, input: ProductInput, refs: Refs, now: Date) {
  const row = productRow(input, refs);
  await tx.delete(productCategories).where(eq(productCategories.productId, productId));
  const links = [{ productId, categoryId: refs.categoryId, position: 0 }];
  // Like the seed: a product with a running offer is also listed under "offerte".
  if (refs.offersCategoryId && refs.offersCategoryId !== refs.categoryId && activeDiscountPercent(row.discountPercent, row.offerEndsAt, now) > 0)
    links.push({ productId, categoryId: refs.offersCategoryId, position: 1 });
  await tx.insert(productCategories).values(links);
  await tx.delete(productBrands).where(eq(productBrands.productId, productId));
  if (refs.brandIds.length) await tx.insert(productBrands).values(refs.brandIds.map((brandId, position) => ({ productId, brandId, position })));
  await tx.delete(productRelations).where(eq(productRelations.productId, productId));
  if (refs.relatedIds.length)
    await tx.insert(productRelations).values(refs.relatedIds.map((relatedProductId, position) => ({ productId, relatedProductId, position })));
  const priceChanged = await recordPriceIfChanged(tx, productId, row, now);
  await refreshProductSearch(tx, [productId]);
  return { priceChanged };
}

async function skuTaken(tx: Db, sku: string, productId: number | null) {
  const [row] = await tx
    .select({ id: products.id })
    .from(products)
    .where(productId === null ? eq(products.sku, sku) : and(eq(products.sku, sku), ne(products.id, productId)));
  return Boolean(row);
}

/**
 * Creates (productId null) or updates a product inside the caller's transaction, with its links,
 * price history, search document and audit row. Refusals are values; the caller's transaction
 * writes nothing then only if it rolls back or nothing was written yet (refusals come first).
 */
export async function saveProductInTx(
  tx: Db,
  args: { productId: number | null; input: ProductInput; actorUserId: string | null; now: Date; auditDetails?: Record<string, unknown> },
): Promise<SaveResult | { ok: false; notFound: true }> {
  const { productId, input, actorUserId, now } = args;
  const before = productId === null ? null : ((await tx.select().from(products).where(eq(products.id, productId)).for("update"))[0] ?? null);
  if (productId !== null && !before) return { ok: false, notFound: true };
  const resolved = await resolveRefs(tx, input, productId);
  if (!resolved.ok) return resolved;
  if (await skuTaken(tx, input.sku, productId)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } };
  const row = productRow(input, resolved.refs);
  let id: number;
  if (before) {
    id = before.id;
    await tx.update(products).set(row).where(eq(products.id, id));
  } else {
    const [created] = await tx.insert(products).values(row).returning({ id: products.id });
    id = created!.id;
  }
  const { priceChanged } = await writeProductLinks(tx, id, input, resolved.refs, now);
  if (!before) {
    await recordAudit(tx, {
      actorUserId,
      action: "product.create",
      entity: "product",
      entityId: id,
      details: { sku: input.sku, name: input.nameIt, priceCents: input.price, ...args.auditDetails },
    });
  } else {
    const changed = Object.entries(row)
      .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before]))
      .map(([key]) => key);
    await recordAudit(tx, {
      actorUserId,
      action: "product.update",
      entity: "product",
      entityId: id,
      details: {
        changed,
        ...(priceChanged && {
          priceCents: { from: before.priceCents, to: row.priceCents },
          discountPercent: { from: before.discountPercent, to: row.discountPercent },
        }),
        ...args.auditDetails,
      },
    });
  }
  return { ok: true, productId: id };
}

export async function createProduct(db: Db, args: { input: ProductInput; actorUserId: string | null; now: Date }): Promise<SaveResult> {
  try {
    const result = await db.transaction((tx) => saveProductInTx(tx, { ...args, productId: null }));
    return "notFound" in result ? { ok: false, errors: {} } : result;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } };
    throw error;
  }
}

export async function updateProduct(
  db: Db,
  args: { productId: number; input: ProductInput; actorUserId: string | null; now: Date },
): Promise<SaveResult | { ok: false; notFound: true }> {
  try {
    return await db.transaction((tx) => saveProductInTx(tx, args));
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } };
    throw error;
  }
}

// ---------------------------------------------------------------- list

export type AdminProductFilters = {
  q: string;
  category: string;
  published: "" | "yes" | "no";
  onRequest: "" | "yes" | "no";
  lowStock: boolean;
  page: number;
};

export function parseAdminProductFilters(params: URLSearchParams): AdminProductFilters {
  const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | "" => (allowed.includes(value as T) ? (value as T) : "");
  const page = Number(params.get("page"));
  return {
    q: (params.get("q") ?? "").trim().slice(0, 100),
    category: (params.get("category") ?? "").slice(0, 80),
    published: pick(params.get("published"), ["yes", "no"]),
    onRequest: pick(params.get("onRequest"), ["yes", "no"]),
    lowStock: params.get("lowStock") === "1",
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

export type AdminProductRow = {
  id: number;
  sku: string;
  name: string;
  priceCents: number;
  discountPercent: number;
  isPublished: boolean;
  isOnRequest: boolean;
  category: string;
  stock: number;
  variantCount: number;
  lowStockCount: number;
};

export async function listAdminProducts(db: Db, filters: AdminProductFilters, locale: Locale) {
  const conditions: SQL[] = [];
  let rank: SQL<number> | null = null;
  if (filters.q) {
    const match = await matchSearch(db, { text: filters.q, locale });
    const skuLike = sql`${products.sku} ilike ${`${filters.q.replace(/[%_\\]/g, "\\$&")}%`}`;
    const byVariantSku = exists(
      db
        .select({ one: sql`1` })
        .from(productVariants)
        .where(and(eq(productVariants.productId, products.id), eq(productVariants.sku, filters.q))),
    );
    const byId = /^\d{1,9}$/.test(filters.q) ? eq(products.id, Number(filters.q)) : sql`false`;
    const searched = productsSearch(match, locale);
    conditions.push(or(searched.where, skuLike, byVariantSku, byId)!);
    if (match.mode !== "none") rank = searched.rank;
  }
  if (filters.category) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(productCategories)
          .innerJoin(categories, eq(categories.id, productCategories.categoryId))
          .where(and(eq(productCategories.productId, products.id), eq(categories.slug, filters.category))),
      ),
    );
  }
  if (filters.published) conditions.push(eq(products.isPublished, filters.published === "yes"));
  if (filters.onRequest) {
    const onRequest = or(
      eq(products.isOnRequest, true),
      exists(
        db
          .select({ one: sql`1` })
          .from(productBrands)
          .innerJoin(brands, eq(brands.id, productBrands.brandId))
          .where(and(eq(productBrands.productId, products.id), eq(brands.marksOnRequest, true))),
      ),
    )!;
    conditions.push(filters.onRequest === "yes" ? onRequest : sql`not (${onRequest})`);
  }
  if (filters.lowStock)
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(productVariants)
          .where(and(eq(productVariants.productId, products.id), lte(productVariants.stock, lowStockThreshold))),
      ),
    );
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ value: total } = { value: 0 }] = await db.select({ value: count() }).from(products).where(where);
  const { page, pageCount, offset } = pageOf(filters.page, total, adminPageSize);
  const name = locale === "en" ? products.nameEn : products.nameIt;
  const rows = await db
    .select({
      id: products.id,
      sku: products.sku,
      name,
      priceCents: products.priceCents,
      discountPercent: products.discountPercent,
      isPublished: products.isPublished,
      isOnRequest: products.isOnRequest,
      category: locale === "en" ? categories.nameEn : categories.nameIt,
      stock:
        sql<number>`coalesce((select sum(${productVariants.stock}) from ${productVariants} where ${productVariants.productId} = ${products.id}), 0)`.mapWith(
          Number,
        ),
      variantCount: sql<number>`(select count(*) from ${productVariants} where ${productVariants.productId} = ${products.id})`.mapWith(Number),
      lowStockCount:
        sql<number>`(select count(*) from ${productVariants} where ${productVariants.productId} = ${products.id} and ${productVariants.stock} <= ${lowStockThreshold})`.mapWith(
          Number,
        ),
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.primaryCategoryId))
    .where(where)
    .orderBy(...(rank ? [desc(rank)] : []), desc(products.id))
    .limit(adminPageSize)
    .offset(offset);
  return { rows: rows satisfies AdminProductRow[], total, page, pageCount };
}

// ---------------------------------------------------------------- options and editing

export type TaxonomyOptions = {
  categories: { slug: string; name: string; subcategories: { slug: string; name: string }[] }[];
  brands: { slug: string; name: string; marksOnRequest: boolean }[];
};

export async function getTaxonomyOptions(db: Db, locale: Locale): Promise<TaxonomyOptions> {
  const cats = await db.select().from(categories).orderBy(asc(categories.position));
  const subs = await db.select().from(subcategories).orderBy(asc(subcategories.position));
  const brandRows = await db.select().from(brands).orderBy(asc(brands.name));
  const nameOf = (row: { nameIt: string; nameEn: string }) => (locale === "en" ? row.nameEn : row.nameIt);
  return {
    categories: cats.map((cat) => ({
      slug: cat.slug,
      name: nameOf(cat),
      subcategories: subs.filter((sub) => sub.categoryId === cat.id).map((sub) => ({ slug: sub.slug, name: nameOf(sub) })),
    })),
    brands: brandRows.map((brand) => ({ slug: brand.slug, name: brand.name, marksOnRequest: brand.marksOnRequest })),
  };
}

/** The product as its edit form shows it (strings, like the form sends them back). */
export async function getProductFormValues(db: Db, productId: number): Promise<Record<string, string> | null> {
  const [row] = await db
    .select({ product: products, category: categories.slug, subcategory: subcategories.slug })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.primaryCategoryId))
    .leftJoin(subcategories, eq(subcategories.id, products.subcategoryId))
    .where(eq(products.id, productId));
  if (!row) return null;
  const p = row.product;
  const brandNames = await db
    .select({ name: brands.name })
    .from(productBrands)
    .innerJoin(brands, eq(brands.id, productBrands.brandId))
    .where(eq(productBrands.productId, productId))
    .orderBy(asc(productBrands.position));
  const related = await db
    .select({ id: productRelations.relatedProductId })
    .from(productRelations)
    .where(eq(productRelations.productId, productId))
    .orderBy(asc(productRelations.position));
  const number = (value: number | null) => (value === null ? "" : String(value));
  const flag = (value: boolean) => (value ? "on" : "");
  return {
    sku: p.sku,
    nameIt: p.nameIt,
    nameEn: p.nameEn,
    shortDescriptionIt: p.shortDescriptionIt,
    shortDescriptionEn: p.shortDescriptionEn,
    fullDescriptionIt: p.fullDescriptionIt,
    fullDescriptionEn: p.fullDescriptionEn,
    price: formatEuroInput(p.priceCents),
    discountPercent: String(p.discountPercent),
    offerEndsOn: p.offerEndsAt ? italianDayOf(p.offerEndsAt) : "",
    vatRatePercent: String(p.vatRatePercent),
    isNew: flag(p.isNew),
    isFreeShipping: flag(p.isFreeShipping),
    isLoyaltyExcluded: flag(p.isLoyaltyExcluded),
    isOnRequest: flag(p.isOnRequest),
    isPublished: flag(p.isPublished),
    category: row.category,
    subcategory: row.subcategory ?? "",
    brands: brandNames.map((brand) => brand.name).join(", "),
    related: related.map((relation) => relation.id).join(", "),
    lengthMm: number(p.lengthMm),
    widthMm: number(p.widthMm),
    heightMm: number(p.heightMm),
    weightGrams: number(p.weightGrams),
    materialIt: p.materialIt ?? "",
    materialEn: p.materialEn ?? "",
    personalisation: (p.personalisationFields ?? []).map((field) => `${field.labelIt} | ${field.labelEn} | ${field.maxLength}`).join("\n"),
    personalisationDescriptionIt: p.personalisationDescriptionIt,
    personalisationDescriptionEn: p.personalisationDescriptionEn,
    personalisationCost: formatEuroInput(p.personalisationCostCents),
    affiliateUrl: p.affiliateUrl ?? "",
  };
}

export type AdminColour = { id: number; colour: string; images: { id: number; storageKey: string }[] };
export type AdminVariant = {
  id: number;
  colourId: number | null;
  colour: string | null;
  size: string;
  sku: string;
  stock: number;
  isPreorder: boolean;
  preorderDays: number | null;
  gtin: string | null;
};

export async function getProductStockView(
  db: Db,
  productId: number,
): Promise<{ colours: AdminColour[]; variants: AdminVariant[]; productImages: { id: number; storageKey: string }[] }> {
  const colours = await db
    .select()
    .from(productColours)
    .where(eq(productColours.productId, productId))
    .orderBy(asc(productColours.position), asc(productColours.id));
  const images = await db
    .select()
    .from(productImages)
    .where(eq(productImages.productId, productId))
    .orderBy(asc(productImages.position), asc(productImages.id));
  const variants = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
  const colourName = new Map(colours.map((colour) => [colour.id, colour.colour]));
  return {
    colours: colours.map((colour) => ({
      id: colour.id,
      colour: colour.colour,
      images: images.filter((image) => image.colourId === colour.id).map((image) => ({ id: image.id, storageKey: image.storageKey })),
    })),
    productImages: images.filter((image) => image.colourId === null).map((image) => ({ id: image.id, storageKey: image.storageKey })),
    variants: variants.map((variant) => ({
      id: variant.id,
      colourId: variant.colourId,
      colour: variant.colourId === null ? null : (colourName.get(variant.colourId) ?? null),
      size: variant.size,
      sku: variant.sku,
      stock: variant.stock,
      isPreorder: variant.isPreorder,
      preorderDays: variant.preorderDays,
      gtin: variant.gtin,
    })),
  };
}
