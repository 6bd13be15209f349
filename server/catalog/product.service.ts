import { and, asc, eq } from "drizzle-orm";
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
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.isPublished, true)))
    .limit(1);
  if (!product) return null;

  const [categoryRows, subcategoryRows, brandRows, colourRows, imageRows, variantRows, relatedRows] = await Promise.all([
    db
      .select({ id: categories.id, slug: categories.slug, nameIt: categories.nameIt, nameEn: categories.nameEn })
      .from(productCategories)
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(eq(productCategories.productId, id))
      .orderBy(asc(productCategories.position), asc(categories.position)),
    product.subcategoryId === null
      ? Promise.resolve([])
      : db.select().from(subcategories).where(eq(subcategories.id, product.subcategoryId)).limit(1),
    db
      .select({ slug: brands.slug, name: brands.name, marksOnRequest: brands.marksOnRequest })
      .from(productBrands)
      .innerJoin(brands, eq(brands.id, productBrands.brandId))
      .where(eq(productBrands.productId, id))
      .orderBy(asc(productBrands.position), asc(brands.id)),
    db.select().from(productColours).where(eq(productColours.productId, id)).orderBy(asc(productColours.position), asc(productColours.id)),
    db.select().from(productImages).where(eq(productImages.productId, id)).orderBy(asc(productImages.position), asc(productImages.id)),
    db.select().from(productVariants).where(eq(productVariants.productId, id)).orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select({ relatedId: productRelations.relatedProductId })
      .from(productRelations)
      .innerJoin(products, eq(products.id, productRelations.relatedProductId))
      .where(and(eq(productRelations.productId, id), eq(products.isPublished, true)))
      .orderBy(asc(productRelations.position), asc(productRelations.relatedProductId)),
  ]);

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
  const subcategory = subcategoryRows[0];
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
