import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Locale } from "#common/locale.ts";
import { placeholderImageKey } from "#common/media.ts";
import type { VariantOption } from "#common/variant-selection.ts";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productBrands,
  productCategories,
  productColours,
  productImages,
  productRecalls,
  productRecallVariants,
  productRelations,
  products,
  productSafetyWarnings,
  productSpecs,
  productVariants,
  safetyContacts,
  safetyWarnings,
  subcategories,
} from "#server/db/schema.ts";
import type { SafetyContact } from "#server/product-safety/product-safety.ts";
import { effectiveContactIdSql } from "#server/product-safety/product-safety.service.ts";
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";
import { isOneSize } from "#common/sizes.ts";
import type { ProductSpecs } from "#common/product-specs.ts";
import { getProductAvailability, isProductOnRequest, pickRelatedIds, type Availability } from "./product";
import { effectivePriceColumns, isRecalledSql, variantStockSql } from "./product-card";
import { createCatalogueCache } from "./catalogue-cache";

export type ProductPageImage = { storageKey: string; width: number; height: number; alt: string };

/** A colour with its pictures: its own, else the product's general ones, else the placeholder. */
export type ProductPageColour = { key: string; images: ProductPageImage[] };

export type ProductPageVariant = VariantOption & { sku: string; gtin: string | null; isRecalled: boolean };

/** What GPSR article 19 asks an online offer to show (docs/decisions/0088-product-safety-data.md). */
export type ProductSafety = {
  manufacturer: SafetyContact | null;
  /** The EU responsible person, where there is one. */
  responsiblePerson: SafetyContact | null;
  modelNumber: string | null;
  /** The variants' barcode numbers, each once. */
  gtins: string[];
  /** Warnings and safety information in the page's language, in the order of the label. */
  warnings: string[];
  /** The manual's key in the media store (a PDF), where the staff uploaded one. */
  manualKey: string | null;
};

/** A recall notice in the page's language (GPSR article 36), newest first. */
export type ProductRecallNotice = { id: number; hazard: string; whatToDo: string; remedy: string; createdAt: string; variantIds: number[] };

export type CategoryRef = { slug: string; name: string };
export type BrandRef = { slug: string; name: string };

export type PersonalisationOffer = {
  /** One text field per entry, in order: the cart posts them as `personalisation.{index}`. */
  fields: { label: string; maxLength: number }[];
  description: string;
  /** Extra cost per item, EUR cents. */
  costCents: number;
};

/** The technical sheet in the units it is stored in (millimetres, grams); null where unknown. */
export type TechnicalSheet = {
  lengthMm: number | null;
  widthMm: number | null;
  heightMm: number | null;
  weightGrams: number | null;
  material: string | null;
};

export type ProductPageData = {
  id: number;
  sku: string;
  name: string;
  shortDescription: string;
  fullDescription: string;
  /** List price, EUR cents, VAT included. */
  priceCents: number;
  /** What a customer pays today: the running discount applied. */
  effectivePriceCents: number;
  /** The discount that applies now (0 when none or ended). */
  discountPercent: number;
  /** When the running discount ends (ISO date-time), if it does. */
  offerEndsAt: string | null;
  isNew: boolean;
  isFreeShipping: boolean;
  /** 0 to 5 stars. */
  rating: number;
  /** Units sold (the "best sellers" order). */
  saleCount: number;
  /** "Chicco edition", "Cam - linea solo per te" or flagged: no price, quantity or cart (docs/rules.md#product-page). */
  isOnRequest: boolean;
  /** The product's own category first. */
  categories: CategoryRef[];
  subcategory: CategoryRef | null;
  brands: BrandRef[];
  /** Pictures of the product as a whole: the gallery of a product without colours. */
  images: ProductPageImage[];
  colours: ProductPageColour[];
  variants: ProductPageVariant[];
  availability: Availability;
  personalisation: PersonalisationOffer | null;
  technicalSheet: TechnicalSheet | null;
  /** The affiliate "Buy now" link, where the shop has one. */
  affiliateUrl: string | null;
  /** Published related products, at most 8, in the shop's order. */
  relatedIds: number[];
  safety: ProductSafety;
  recalls: ProductRecallNotice[];
  /** A car seat's or stroller's specifications (docs/decisions/0101-product-specifications.md); null for other products. */
  specs: ProductSpecs | null;
};

function placeholderImage(alt: string): ProductPageImage {
  return { storageKey: placeholderImageKey, width: 800, height: 800, alt };
}

/**
 * Everything the product page shows about one published product, named in `locale`;
 * null when there is no such product (the page answers 404).
 */
export async function getProductPage(db: Db, id: number, locale: Locale, now: Date): Promise<ProductPageData | null> {
  const [page] = await getProductPages(db, [id], locale, now);
  return page ?? null;
}

/** node-postgres and PGlite both parse `json` values; a driver that hands back text is read here. */
function fromJson(value: unknown): never {
  return (typeof value === "string" ? JSON.parse(value) : value) as never;
}

/** A product's rows of another table as one ordered JSON array (`[]` when it has none). */
function jsonRows<Row>(select: SQL, from: SQL, orderBy: SQL): SQL<Row[]> {
  return sql<Row[]>`coalesce((select json_agg(${select} order by ${orderBy}) ${from}), '[]'::json)`.mapWith(fromJson);
}

/**
 * One row per published product of `ids` with what the page shows, texts in `locale` (never the search
 * columns): its categories, brands, colours, pictures, sizes and related ids as JSON arrays beside it.
 */
function selectProductPageRows(db: Db, ids: number[], locale: Locale) {
  const inLocale = (it: AnyPgColumn, en: AnyPgColumn) => sql<string>`${locale === "en" ? en : it}`;
  return db
    .select({
      id: products.id,
      sku: products.sku,
      name: inLocale(products.nameIt, products.nameEn),
      shortDescription: inLocale(products.shortDescriptionIt, products.shortDescriptionEn),
      fullDescription: inLocale(products.fullDescriptionIt, products.fullDescriptionEn),
      ...effectivePriceColumns,
      isNew: products.isNew,
      isFreeShipping: products.isFreeShipping,
      rating: products.rating,
      saleCount: products.saleCount,
      isOnRequest: products.isOnRequest,
      primaryCategoryId: products.primaryCategoryId,
      personalisationFields: products.personalisationFields,
      personalisationDescription: inLocale(products.personalisationDescriptionIt, products.personalisationDescriptionEn),
      personalisationCostCents: products.personalisationCostCents,
      lengthMm: products.lengthMm,
      widthMm: products.widthMm,
      heightMm: products.heightMm,
      weightGrams: products.weightGrams,
      // The Italian material decides whether there is one; the English one may be missing.
      material:
        locale === "en"
          ? sql<string | null>`case when ${products.materialIt} is null then null else coalesce(${products.materialEn}, ${products.materialIt}) end`
          : products.materialIt,
      affiliateUrl: products.affiliateUrl,
      subcategory:
        sql<CategoryRef | null>`case when ${subcategories.id} is null then null else json_build_object('slug', ${subcategories.slug}, 'name', ${inLocale(subcategories.nameIt, subcategories.nameEn)}) end`.mapWith(
          fromJson,
        ),
      categoryRows: jsonRows<{ id: number; slug: string; name: string }>(
        sql`json_build_object('id', ${categories.id}, 'slug', ${categories.slug}, 'name', ${inLocale(categories.nameIt, categories.nameEn)})`,
        sql`from ${productCategories} join ${categories} on ${categories.id} = ${productCategories.categoryId} where ${productCategories.productId} = ${products.id}`,
        sql`${productCategories.position}, ${categories.position}`,
      ),
      brandRows: jsonRows<{ slug: string; name: string; marksOnRequest: boolean }>(
        sql`json_build_object('slug', ${brands.slug}, 'name', ${brands.name}, 'marksOnRequest', ${brands.marksOnRequest})`,
        sql`from ${productBrands} join ${brands} on ${brands.id} = ${productBrands.brandId} where ${productBrands.productId} = ${products.id}`,
        sql`${productBrands.position}, ${brands.id}`,
      ),
      colourRows: jsonRows<{ id: number; colour: string }>(
        sql`json_build_object('id', ${productColours.id}, 'colour', ${productColours.colour})`,
        sql`from ${productColours} where ${productColours.productId} = ${products.id}`,
        sql`${productColours.position}, ${productColours.id}`,
      ),
      imageRows: jsonRows<{ colourId: number | null; storageKey: string; width: number; height: number; alt: string }>(
        sql`json_build_object('colourId', ${productImages.colourId}, 'storageKey', ${productImages.storageKey}, 'width', ${productImages.width}, 'height', ${productImages.height}, 'alt', ${inLocale(productImages.altIt, productImages.altEn)})`,
        sql`from ${productImages} where ${productImages.productId} = ${products.id}`,
        sql`${productImages.position}, ${productImages.id}`,
      ),
      variantRows: jsonRows<{
        id: number;
        sku: string;
        colourId: number | null;
        size: string;
        stock: number;
        isPreorder: boolean;
        preorderDays: number | null;
        gtin: string | null;
        isRecalled: boolean;
      }>(
        sql`json_build_object('id', ${productVariants.id}, 'sku', ${productVariants.sku}, 'colourId', ${productVariants.colourId}, 'size', ${productVariants.size}, 'stock', ${variantStockSql()}, 'isPreorder', ${productVariants.isPreorder}, 'preorderDays', ${productVariants.preorderDays}, 'gtin', ${productVariants.gtin}, 'isRecalled', ${isRecalledSql()})`,
        sql`from ${productVariants} where ${productVariants.productId} = ${products.id}`,
        sql`${productVariants.position}, ${productVariants.id}`,
      ),
      manufacturer: contactJson(effectiveContactIdSql("manufacturer")),
      responsiblePerson: contactJson(effectiveContactIdSql("responsible_person")),
      modelNumber: products.modelNumber,
      manualKey: products.manualStorageKey,
      warnings: jsonRows<string>(
        inLocale(safetyWarnings.textIt, safetyWarnings.textEn),
        sql`from ${productSafetyWarnings} join ${safetyWarnings} on ${safetyWarnings.id} = ${productSafetyWarnings.warningId} where ${productSafetyWarnings.productId} = ${products.id}`,
        sql`${productSafetyWarnings.position}, ${safetyWarnings.id}`,
      ),
      recalls: jsonRows<ProductRecallNotice>(
        sql`json_build_object('id', ${productRecalls.id}, 'hazard', ${inLocale(productRecalls.hazardIt, productRecalls.hazardEn)}, 'whatToDo', ${inLocale(productRecalls.whatToDoIt, productRecalls.whatToDoEn)}, 'remedy', ${inLocale(productRecalls.remedyIt, productRecalls.remedyEn)}, 'createdAt', ${productRecalls.createdAt}, 'variantIds', (select coalesce(json_agg(${productRecallVariants.variantId} order by ${productRecallVariants.variantId}), '[]'::json) from ${productRecallVariants} where ${productRecallVariants.recallId} = ${productRecalls.id}))`,
        sql`from ${productRecalls} where ${productRecalls.productId} = ${products.id}`,
        sql`${productRecalls.createdAt} desc, ${productRecalls.id} desc`,
      ),
      specs:
        sql<ProductSpecs | null>`(select json_build_object('kind', ${productSpecs.kind}, 'statureMinCm', ${productSpecs.statureMinCm}, 'statureMaxCm', ${productSpecs.statureMaxCm}, 'r44Group', ${productSpecs.r44Group}, 'hasIsofix', ${productSpecs.hasIsofix}, 'rotates360', ${productSpecs.rotates360}, 'ageMinMonths', ${productSpecs.ageMinMonths}, 'ageMaxMonths', ${productSpecs.ageMaxMonths}, 'maxChildWeightGrams', ${productSpecs.maxChildWeightGrams}, 'weightGrams', ${productSpecs.weightGrams}, 'foldedLengthCm', ${productSpecs.foldedLengthCm}, 'foldedWidthCm', ${productSpecs.foldedWidthCm}, 'foldedHeightCm', ${productSpecs.foldedHeightCm}, 'isFromBirth', ${productSpecs.isFromBirth}, 'isCarrycotCompatible', ${productSpecs.isCarrycotCompatible}) from ${productSpecs} where ${productSpecs.productId} = ${products.id})`.mapWith(
          fromJson,
        ),
      // Published related products only; aliased, since the outer query reads `products` too.
      relatedIds: jsonRows<number>(
        sql`relation.related_product_id`,
        sql`from ${productRelations} as relation join ${products} as related on related.id = relation.related_product_id and related.is_published where relation.product_id = ${products.id}`,
        sql`relation.position, relation.related_product_id`,
      ),
    })
    .from(products)
    .leftJoin(subcategories, eq(subcategories.id, products.subcategoryId))
    .where(and(inArray(products.id, ids), eq(products.isPublished, true)));
}

type ProductRow = Awaited<ReturnType<typeof selectProductPageRows>>[number];

/** A manufacturer or responsible person as one JSON object, null when `id` is. */
function contactJson(id: SQL<number | null>): SQL<SafetyContact | null> {
  return sql<SafetyContact | null>`(select json_build_object('name', ${safetyContacts.name}, 'postalAddress', ${safetyContacts.postalAddress}, 'countryCode', ${safetyContacts.countryCode}, 'email', ${safetyContacts.email}) from ${safetyContacts} where ${safetyContacts.id} = ${id})`.mapWith(
    fromJson,
  );
}

/**
 * The product page's data for several published products at once (the API's client form), in the
 * order of `ids`; missing or unpublished ones are left out. One query, whatever the number of ids.
 */
export async function getProductPages(db: Db, ids: readonly number[], locale: Locale, now: Date): Promise<ProductPageData[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const keyOf = (id: number) => `${locale} ${id}`;
  const idOf = new Map(wanted.map((id) => [keyOf(id), id]));
  const rows = await keptProductRows.getMany(db, [...idOf.keys()], async (missing) => {
    const read = await selectProductPageRows(
      db,
      missing.map((key) => idOf.get(key)!),
      locale,
    );
    return new Map(read.map((row) => [keyOf(row.id), row]));
  });
  return rows.flatMap((row) => (row ? [toProductPage(row, locale, now)] : []));
}

/**
 * Product pages' rows kept while neither the catalogue nor stock changes (server/catalog/catalogue-cache.ts),
 * per language, before `now` decides the offer: a few kilobytes each, the most asked thousand.
 */
const keptProductRows = createCatalogueCache<ProductRow>({ maxAgeMs: 60_000, maxEntries: 1_000, watches: "catalogue and page content" });

function toProductPage(product: ProductRow, locale: Locale, now: Date): ProductPageData {
  const { name, categoryRows, brandRows, colourRows, imageRows, variantRows } = product;

  // The product's own category leads (breadcrumbs, structured data), then the others in order.
  const orderedCategories = [
    ...categoryRows.filter((row) => row.id === product.primaryCategoryId),
    ...categoryRows.filter((row) => row.id !== product.primaryCategoryId),
  ];
  const toImage = (row: (typeof imageRows)[number]): ProductPageImage => ({
    storageKey: row.storageKey,
    width: row.width,
    height: row.height,
    alt: row.alt || name,
  });
  const generalImages = imageRows.filter((row) => row.colourId === null).map(toImage);
  const colours = colourRows.map((colour): ProductPageColour => {
    const own = imageRows.filter((row) => row.colourId === colour.id).map(toImage);
    return { key: colour.colour, images: own.length > 0 ? own : generalImages.length > 0 ? generalImages : [placeholderImage(name)] };
  });
  const colourKeyOf = new Map(colourRows.map((colour) => [colour.id, colour.colour]));
  const variants = variantRows.map((variant): ProductPageVariant => ({
    id: variant.id,
    sku: variant.sku,
    colour: variant.colourId === null ? null : (colourKeyOf.get(variant.colourId) ?? null),
    size: variant.size,
    isOneSize: isOneSize(variant.size),
    // A recalled variant is shown as not available (server/cart/cart.ts isForSale refuses it).
    stock: variant.isRecalled ? 0 : variant.stock,
    gtin: variant.gtin,
    isRecalled: variant.isRecalled,
    isPreorder: variant.isPreorder,
    preorderDays: variant.preorderDays,
  }));
  const isOnRequest = isProductOnRequest(product, brandRows);
  const fields = product.personalisationFields ?? [];
  const hasSheet = [product.lengthMm, product.widthMm, product.heightMm, product.weightGrams, product.material].some((value) => value !== null);
  const discountPercent = activeDiscountPercent(product.discountPercent, product.offerEndsAt, now);

  return {
    id: product.id,
    sku: product.sku,
    name,
    shortDescription: product.shortDescription,
    fullDescription: product.fullDescription,
    priceCents: product.priceCents,
    effectivePriceCents: effectivePriceCents(product, now),
    discountPercent,
    offerEndsAt: discountPercent > 0 && product.offerEndsAt ? product.offerEndsAt.toISOString() : null,
    isNew: product.isNew,
    isFreeShipping: product.isFreeShipping,
    rating: product.rating,
    saleCount: product.saleCount,
    isOnRequest,
    categories: orderedCategories.map((row) => ({ slug: row.slug, name: row.name })),
    subcategory: product.subcategory,
    brands: brandRows.map(({ slug, name: brandName }) => ({ slug, name: brandName })),
    images: generalImages.length > 0 || colours.length > 0 ? generalImages : [placeholderImage(name)],
    colours,
    variants,
    availability: getProductAvailability(variants),
    // On-request products offer no personalisation (docs/rules.md#product-page).
    personalisation:
      fields.length > 0 && !isOnRequest
        ? {
            fields: fields.map((field) => ({ label: locale === "en" ? field.labelEn : field.labelIt, maxLength: field.maxLength })),
            description: product.personalisationDescription,
            costCents: product.personalisationCostCents,
          }
        : null,
    technicalSheet: hasSheet
      ? {
          lengthMm: product.lengthMm,
          widthMm: product.widthMm,
          heightMm: product.heightMm,
          weightGrams: product.weightGrams,
          material: product.material,
        }
      : null,
    affiliateUrl: product.affiliateUrl,
    relatedIds: pickRelatedIds(product.id, product.relatedIds),
    safety: {
      manufacturer: product.manufacturer,
      responsiblePerson: product.responsiblePerson,
      modelNumber: product.modelNumber,
      gtins: [...new Set(variantRows.flatMap((variant) => (variant.gtin ? [variant.gtin] : [])))],
      warnings: product.warnings,
      manualKey: product.manualKey,
    },
    recalls: product.recalls,
    specs: product.specs,
  };
}
