import { and, asc, eq, inArray } from "drizzle-orm";
import type { Locale } from "#app/lib/locale.ts";
import { placeholderImageKey } from "#app/lib/media.ts";
import type { VariantOption } from "#app/lib/variant-selection.ts";
import type { Db } from "#server/db/client.ts";
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
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";
import { getProductAvailability, isOneSize, isProductOnRequest, pickRelatedIds, type Availability } from "./product";

export type ProductPageImage = { storageKey: string; width: number; height: number; alt: string };

/** A colour with its pictures: its own, else the product's general ones, else the placeholder. */
export type ProductPageColour = { key: string; images: ProductPageImage[] };

export type ProductPageVariant = VariantOption & { sku: string };

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
  /** "Chicco edition", "Cam - linea solo per te" or flagged: no price, quantity or cart (DECISIONS.md). */
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

/**
 * The product page's data for several published products at once (the API's client form), in the
 * order of `ids`; missing or unpublished ones are left out. Eight queries, whatever the number of ids.
 */
export async function getProductPages(db: Db, ids: readonly number[], locale: Locale, now: Date): Promise<ProductPageData[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const productRows = await db
    .select()
    .from(products)
    .where(and(inArray(products.id, wanted), eq(products.isPublished, true)));
  if (productRows.length === 0) return [];
  const found = productRows.map((product) => product.id);
  const subcategoryIds = [...new Set(productRows.flatMap((product) => (product.subcategoryId === null ? [] : [product.subcategoryId])))];

  const [categoryRows, subcategoryRows, brandRows, colourRows, imageRows, variantRows, relatedRows] = await Promise.all([
    db
      .select({ productId: productCategories.productId, id: categories.id, slug: categories.slug, nameIt: categories.nameIt, nameEn: categories.nameEn })
      .from(productCategories)
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(inArray(productCategories.productId, found))
      .orderBy(asc(productCategories.position), asc(categories.position)),
    subcategoryIds.length === 0 ? Promise.resolve([]) : db.select().from(subcategories).where(inArray(subcategories.id, subcategoryIds)),
    db
      .select({ productId: productBrands.productId, slug: brands.slug, name: brands.name, marksOnRequest: brands.marksOnRequest })
      .from(productBrands)
      .innerJoin(brands, eq(brands.id, productBrands.brandId))
      .where(inArray(productBrands.productId, found))
      .orderBy(asc(productBrands.position), asc(brands.id)),
    db.select().from(productColours).where(inArray(productColours.productId, found)).orderBy(asc(productColours.position), asc(productColours.id)),
    db.select().from(productImages).where(inArray(productImages.productId, found)).orderBy(asc(productImages.position), asc(productImages.id)),
    db.select().from(productVariants).where(inArray(productVariants.productId, found)).orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select({ productId: productRelations.productId, relatedId: productRelations.relatedProductId })
      .from(productRelations)
      .innerJoin(products, eq(products.id, productRelations.relatedProductId))
      .where(and(inArray(productRelations.productId, found), eq(products.isPublished, true)))
      .orderBy(asc(productRelations.position), asc(productRelations.relatedProductId)),
  ]);

  const byProduct = new Map(productRows.map((product) => [product.id, product]));
  const grouped = new Map<unknown[], Map<number, unknown[]>>();
  // Rows grouped by product once (a list of every product must not rescan every row per product).
  const ofProduct = <Row extends { productId: number }>(rows: Row[], id: number): Row[] => {
    let byId = grouped.get(rows);
    if (!byId) {
      byId = new Map();
      for (const row of rows) byId.set(row.productId, [...(byId.get(row.productId) ?? []), row]);
      grouped.set(rows, byId);
    }
    return (byId.get(id) ?? []) as Row[];
  };
  return wanted.flatMap((id) => {
    const product = byProduct.get(id);
    if (!product) return [];
    return [
      toProductPage(
        product,
        {
          categoryRows: ofProduct(categoryRows, id),
          subcategory: subcategoryRows.find((row) => row.id === product.subcategoryId),
          brandRows: ofProduct(brandRows, id),
          colourRows: ofProduct(colourRows, id),
          imageRows: ofProduct(imageRows, id),
          variantRows: ofProduct(variantRows, id),
          relatedRows: ofProduct(relatedRows, id),
        },
        locale,
        now,
      ),
    ];
  });
}

type ProductRows = {
  categoryRows: { id: number; slug: string; nameIt: string; nameEn: string }[];
  subcategory: typeof subcategories.$inferSelect | undefined;
  brandRows: { slug: string; name: string; marksOnRequest: boolean }[];
  colourRows: (typeof productColours.$inferSelect)[];
  imageRows: (typeof productImages.$inferSelect)[];
  variantRows: (typeof productVariants.$inferSelect)[];
  relatedRows: { relatedId: number }[];
};

function toProductPage(
  product: typeof products.$inferSelect,
  { categoryRows, subcategory, brandRows, colourRows, imageRows, variantRows, relatedRows }: ProductRows,
  locale: Locale,
  now: Date,
): ProductPageData {
  const inLocale = (it: string, en: string) => (locale === "en" ? en : it);
  const name = inLocale(product.nameIt, product.nameEn);

  // The product's own category leads (breadcrumbs, structured data), then the others in order.
  const orderedCategories = [
    ...categoryRows.filter((row) => row.id === product.primaryCategoryId),
    ...categoryRows.filter((row) => row.id !== product.primaryCategoryId),
  ];
  const toImage = (row: (typeof imageRows)[number]): ProductPageImage => ({
    storageKey: row.storageKey,
    width: row.width,
    height: row.height,
    alt: inLocale(row.altIt, row.altEn) || name,
  });
  const generalImages = imageRows.filter((row) => row.colourId === null).map(toImage);
  const colours = colourRows.map((colour): ProductPageColour => {
    const own = imageRows.filter((row) => row.colourId === colour.id).map(toImage);
    return { key: colour.colour, images: own.length > 0 ? own : generalImages.length > 0 ? generalImages : [placeholderImage(name)] };
  });
  const colourKeyOf = new Map(colourRows.map((colour) => [colour.id, colour.colour]));
  const variants = variantRows.map(
    (variant): ProductPageVariant => ({
      id: variant.id,
      sku: variant.sku,
      colour: variant.colourId === null ? null : (colourKeyOf.get(variant.colourId) ?? null),
      size: variant.size,
      isOneSize: isOneSize(variant.size),
      stock: variant.stock,
      isPreorder: variant.isPreorder,
      preorderDays: variant.preorderDays,
    }),
  );
  const isOnRequest = isProductOnRequest(product, brandRows);
  const fields = product.personalisationFields ?? [];
  const hasSheet = [product.lengthMm, product.widthMm, product.heightMm, product.weightGrams, product.materialIt].some((value) => value !== null);
  const discountPercent = activeDiscountPercent(product.discountPercent, product.offerEndsAt, now);

  return {
    id: product.id,
    sku: product.sku,
    name,
    shortDescription: inLocale(product.shortDescriptionIt, product.shortDescriptionEn),
    fullDescription: inLocale(product.fullDescriptionIt, product.fullDescriptionEn),
    priceCents: product.priceCents,
    effectivePriceCents: effectivePriceCents(product, now),
    discountPercent,
    offerEndsAt: discountPercent > 0 && product.offerEndsAt ? product.offerEndsAt.toISOString() : null,
    isNew: product.isNew,
    isFreeShipping: product.isFreeShipping,
    rating: product.rating,
    saleCount: product.saleCount,
    isOnRequest,
    categories: orderedCategories.map((row) => ({ slug: row.slug, name: inLocale(row.nameIt, row.nameEn) })),
    subcategory: subcategory ? { slug: subcategory.slug, name: inLocale(subcategory.nameIt, subcategory.nameEn) } : null,
    brands: brandRows.map(({ slug, name: brandName }) => ({ slug, name: brandName })),
    images: generalImages.length > 0 || colours.length > 0 ? generalImages : [placeholderImage(name)],
    colours,
    variants,
    availability: getProductAvailability(variants),
    // On-request products offer no personalisation (DECISIONS.md, Catalogue).
    personalisation:
      fields.length > 0 && !isOnRequest
        ? {
            fields: fields.map((field) => ({ label: inLocale(field.labelIt, field.labelEn), maxLength: field.maxLength })),
            description: inLocale(product.personalisationDescriptionIt, product.personalisationDescriptionEn),
            costCents: product.personalisationCostCents,
          }
        : null,
    technicalSheet: hasSheet
      ? {
          lengthMm: product.lengthMm,
          widthMm: product.widthMm,
          heightMm: product.heightMm,
          weightGrams: product.weightGrams,
          material: product.materialIt === null ? null : inLocale(product.materialIt, product.materialEn ?? product.materialIt),
        }
      : null,
    affiliateUrl: product.affiliateUrl,
    relatedIds: pickRelatedIds(product.id, relatedRows.map((row) => row.relatedId)),
  };
}
