/**
 * Reads the catalogue into Google Merchant feed items (merchant-feed.ts): every colour and size of the
 * published products the shop sells itself (not on request, not sold through an affiliate link, not
 * recalled, with a picture of their own), at today's prices, with the standard delivery fee.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { localizedHref, type Locale } from "#common/locale.ts";
import { getProductImageUrl } from "#common/media.ts";
import { isOneSize, shownSize } from "#common/sizes.ts";
import { getAvailability, getSelectionSearch, type VariantOption } from "#common/variant-selection.ts";
import { colourName } from "#common/variant-label.ts";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productBrands,
  productColours,
  productImages,
  productPriceHistory,
  products,
  productVariants,
  subcategories,
} from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { effectivePriceCents } from "#server/money.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { effectivePriceColumns, isOnRequestSql, isRecalledSql } from "#server/catalog/product-card.ts";
import { productPath } from "./sitemap";
import { getProductSpecsOf } from "#server/catalog/product-specs.service.ts";
import { specTableOf } from "#server/catalog/product-specs-text.ts";
import { buildMerchantFeedXml, feedAgeGroupOf, feedLimits, type MerchantFeedItem } from "./merchant-feed";

const dayMs = 24 * 3600_000;

/** When the current offer began: the first price-history row of the run at today's offer price. */
function offerStart(history: readonly { effectivePriceCents: number; recordedAt: Date }[], offerCents: number): Date | null {
  let start: Date | null = null;
  for (const row of history) {
    // Newest first: walk back while the price is the offer's.
    if (row.effectivePriceCents !== offerCents) break;
    start = row.recordedAt;
  }
  return start;
}

export async function getMerchantFeedItems(db: Db, args: { locale: Locale; publicUrl: string; now: Date }): Promise<MerchantFeedItem[]> {
  const { locale, publicUrl, now } = args;
  const t = getTranslator(locale);
  const en = locale === "en";
  const productRows = await db
    .select({
      id: products.id,
      sku: products.sku,
      name: en ? products.nameEn : products.nameIt,
      modelNumber: products.modelNumber,
      shortDescription: en ? products.shortDescriptionEn : products.shortDescriptionIt,
      fullDescription: en ? products.fullDescriptionEn : products.fullDescriptionIt,
      ...effectivePriceColumns,
      isFreeShipping: products.isFreeShipping,
      category: en ? categories.nameEn : categories.nameIt,
      subcategory: en ? subcategories.nameEn : subcategories.nameIt,
      isOnRequest: isOnRequestSql(),
    })
    .from(products)
    .innerJoin(categories, eq(categories.id, products.primaryCategoryId))
    .leftJoin(subcategories, eq(subcategories.id, products.subcategoryId))
    .where(and(eq(products.isPublished, true), isNull(products.affiliateUrl)))
    .orderBy(asc(products.id));
  const sold = productRows.filter((row) => !row.isOnRequest);
  if (sold.length === 0) return [];
  const ids = sold.map((row) => row.id);

  const [variantRows, imageRows, brandRows, historyRows, { delivery }, specsOf] = await Promise.all([
    db
      .select({
        id: productVariants.id,
        productId: productVariants.productId,
        colourId: productVariants.colourId,
        colour: productColours.colour,
        size: productVariants.size,
        sku: productVariants.sku,
        stock: productVariants.stock,
        isPreorder: productVariants.isPreorder,
        preorderDays: productVariants.preorderDays,
        gtin: productVariants.gtin,
        isRecalled: isRecalledSql(),
      })
      .from(productVariants)
      .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
      .where(inArray(productVariants.productId, ids))
      .orderBy(asc(productVariants.productId), asc(productColours.position), asc(productVariants.position), asc(productVariants.id)),
    db
      .select({ productId: productImages.productId, colourId: productImages.colourId, storageKey: productImages.storageKey })
      .from(productImages)
      .where(inArray(productImages.productId, ids))
      .orderBy(asc(productImages.productId), asc(productImages.position), asc(productImages.id)),
    db
      .select({ productId: productBrands.productId, name: brands.name })
      .from(productBrands)
      .innerJoin(brands, eq(brands.id, productBrands.brandId))
      .where(inArray(productBrands.productId, ids))
      .orderBy(asc(productBrands.productId), asc(productBrands.position)),
    // Only offers with an end date carry a period in the feed.
    db
      .select({
        productId: productPriceHistory.productId,
        effectivePriceCents: productPriceHistory.effectivePriceCents,
        recordedAt: productPriceHistory.recordedAt,
      })
      .from(productPriceHistory)
      .innerJoin(products, eq(products.id, productPriceHistory.productId))
      .where(and(inArray(productPriceHistory.productId, ids), isNotNull(products.offerEndsAt)))
      .orderBy(asc(productPriceHistory.productId), desc(productPriceHistory.recordedAt), desc(productPriceHistory.id)),
    getSettings(db, ["delivery"]),
    getProductSpecsOf(db, ids),
  ]);

  const group = <T extends { productId: number }>(rows: readonly T[]) => {
    const map = new Map<number, T[]>();
    for (const row of rows) map.set(row.productId, [...(map.get(row.productId) ?? []), row]);
    return map;
  };
  const variantsOf = group(variantRows);
  const imagesOf = group(imageRows);
  const brandsOf = group(brandRows);
  const historyOf = group(historyRows);

  const items: MerchantFeedItem[] = [];
  for (const product of sold) {
    const variants = variantsOf.get(product.id) ?? [];
    const options: VariantOption[] = variants.map((variant) => ({
      id: variant.id,
      colour: variant.colour,
      size: variant.size,
      isOneSize: isOneSize(variant.size),
      stock: variant.stock,
      isPreorder: variant.isPreorder,
      preorderDays: variant.preorderDays,
    }));
    const priceCents = product.priceCents;
    const offerCents = effectivePriceCents(product, now);
    const onOffer = offerCents < priceCents;
    const offerFrom = onOffer && product.offerEndsAt ? offerStart(historyOf.get(product.id) ?? [], offerCents) : null;
    const images = imagesOf.get(product.id) ?? [];
    const productType = product.subcategory ? `${product.category} > ${product.subcategory}` : product.category;
    const modelNumber = product.modelNumber?.trim() ?? "";
    // Specifications where Google has a place for them: the age group, a stroller's weight, the rest as product details.
    const specs = specsOf.get(product.id) ?? null;
    const specTable = specTableOf(specs, locale);
    const productDetails = (specTable?.rows ?? []).map((row) => ({
      sectionName: specTable!.title,
      attributeName: row.label,
      attributeValue: row.text,
    }));
    for (const variant of variants) {
      // A recalled variant is no longer sold (GPSR article 36): it leaves the feed (decision 0088).
      if (variant.isRecalled) continue;
      const own = images.filter((image) => image.colourId === variant.colourId);
      const pictures = (own.length > 0 ? own : images.filter((image) => image.colourId === null)).map(
        (image) => `${publicUrl}${getProductImageUrl(image.storageKey, 800, "webp")}`,
      );
      // Google refuses items without a real picture; a placeholder would be worse than no listing.
      if (pictures.length === 0) continue;
      const colour = variant.colour ? colourName(t, variant.colour) : null;
      const size = shownSize(variant.size);
      const availability = getAvailability(variant);
      const search = getSelectionSearch(options, { colour: variant.colour, size: variant.size });
      items.push({
        id: variant.sku,
        itemGroupId: variants.length > 1 ? product.sku : null,
        title: [product.name, [colour, size].filter(Boolean).join(", ")].filter(Boolean).join(" - "),
        description: product.fullDescription || product.shortDescription || product.name,
        link: `${publicUrl}${localizedHref(productPath(product.id), locale)}${search}`,
        imageLink: pictures[0]!,
        additionalImageLinks: pictures.slice(1),
        availability,
        availabilityDate: availability === "preorder" ? new Date(now.getTime() + (variant.preorderDays ?? 0) * dayMs) : null,
        priceCents,
        salePriceCents: onOffer ? offerCents : null,
        salePeriod: offerFrom && product.offerEndsAt ? { from: offerFrom, to: product.offerEndsAt } : null,
        brand: brandsOf.get(product.id)?.[0]?.name ?? null,
        gtin: variant.gtin,
        mpn: modelNumber && modelNumber.length <= feedLimits.mpn ? modelNumber : null,
        color: colour,
        size,
        productType,
        shippingCents: product.isFreeShipping ? 0 : delivery.standardFeeCents,
        ageGroup: specs ? feedAgeGroupOf(specs) : null,
        productWeightGrams: specs?.weightGrams ?? null,
        productDetails,
      });
    }
  }
  return items;
}

/** The whole feed document in `locale`. */
export async function getMerchantFeedXml(db: Db, args: { locale: Locale; publicUrl: string; now: Date }): Promise<string> {
  const [{ shop }, items] = await Promise.all([getSettings(db, ["shop"]), getMerchantFeedItems(db, args)]);
  const t = getTranslator(args.locale);
  return buildMerchantFeedXml(
    {
      title: shop.name,
      link: `${args.publicUrl}${localizedHref("/", args.locale)}`,
      description: t("merchantFeed.description", { shopName: shop.name }),
      locale: args.locale,
    },
    items,
  );
}
