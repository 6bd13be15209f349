/**
 * Bundles (docs/decisions/0100-bundles.md): a bundle's parts as its page shows them, and what a bundle line
 * becomes where stock is taken and orders are written. The only writer of bundles, bundle_parts and
 * bundle_option_parts is server/bundles/bundle-admin.service.ts.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import { isOneSize } from "#common/sizes.ts";
import type { Db } from "#server/db/client.ts";
import { bundleOptionParts, bundleParts, bundles, productColours, products, productVariants } from "#server/db/schema.ts";
import { effectivePriceColumns, isRecalledSql, offeredStockSql } from "#server/catalog/product-card.ts";
import { effectivePriceCents, splitInProportion, timesQuantity } from "#server/money.ts";
import type { OrderLineDraft } from "#server/orders/order-creation.ts";
import type { StockLine } from "#server/stock/stock.ts";
import { bundleSaving, sharePerUnit } from "./bundle";

/** A part of one combination of a bundle, as read now. */
type OptionPartRow = Awaited<ReturnType<typeof selectOptionParts>>[number];

function selectOptionParts(db: Db, bundleVariantIds: readonly number[]) {
  return db
    .select({
      bundleVariantId: bundleOptionParts.bundleVariantId,
      bundleProductId: bundleParts.bundleProductId,
      partProductId: bundleParts.partProductId,
      quantity: bundleParts.quantity,
      position: bundleParts.position,
      partVariantId: productVariants.id,
      sku: productVariants.sku,
      nameIt: products.nameIt,
      nameEn: products.nameEn,
      colour: productColours.colour,
      size: productVariants.size,
      stock: offeredStockSql(),
      isPreorder: productVariants.isPreorder,
      isPublished: products.isPublished,
      isRecalled: isRecalledSql(),
      vatRatePercent: products.vatRatePercent,
      ...effectivePriceColumns,
    })
    .from(bundleOptionParts)
    .innerJoin(bundleParts, eq(bundleParts.id, bundleOptionParts.bundlePartId))
    .innerJoin(productVariants, eq(productVariants.id, bundleOptionParts.partVariantId))
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(inArray(bundleOptionParts.bundleVariantId, [...new Set(bundleVariantIds)]))
    .orderBy(asc(bundleParts.position), asc(bundleParts.id));
}

/** The parts of each bundle combination among `variantIds` (ordinary variants are absent). */
async function readOptionParts(db: Db, variantIds: readonly number[]): Promise<Map<number, OptionPartRow[]>> {
  const result = new Map<number, OptionPartRow[]>();
  if (variantIds.length === 0) return result;
  for (const row of await selectOptionParts(db, variantIds)) result.set(row.bundleVariantId, [...(result.get(row.bundleVariantId) ?? []), row]);
  return result;
}

/** The units a list of cart lines takes from the shelf: a bundle line's parts in its place, each times its quantity per bundle. */
export async function partStockLines<Line extends StockLine>(db: Db, lines: readonly Line[]): Promise<StockLine[]> {
  const options = await readOptionParts(
    db,
    lines.map((line) => line.variantId),
  );
  return lines.flatMap((line): StockLine[] => {
    const parts = options.get(line.variantId);
    if (!parts) return [{ variantId: line.variantId, quantity: line.quantity }];
    return parts.map((part) => ({ variantId: part.partVariantId, quantity: line.quantity * part.quantity }));
  });
}

/**
 * The order's lines with each bundle line replaced by its parts (the snapshot of decision 0100): the part's
 * name, variant and VAT rate, its unit price the share of the bundle's price (bundle.ts, sharePerUnit), the
 * code's and the loyalty points' savings on the bundle line shared the same way; the parts of one line share an id and the bundle's name.
 */
export async function withBundleParts(db: Db, lines: readonly OrderLineDraft[], locale: Locale, now: Date): Promise<OrderLineDraft[]> {
  const options = await readOptionParts(
    db,
    lines.flatMap((line) => (line.variantId ? [line.variantId] : [])),
  );
  return lines.flatMap((line): OrderLineDraft[] => {
    const parts = line.variantId ? options.get(line.variantId) : undefined;
    if (!parts) return [line];
    const alone = parts.map((part) => ({ unitCents: effectivePriceCents(part, now), quantity: part.quantity }));
    const shares = sharePerUnit(line.unitPriceCents, alone);
    const totals = parts.map((part, index) => timesQuantity(shares[index]!, line.quantity * part.quantity));
    const codeShares = splitInProportion(line.codeDiscountCents ?? 0, totals);
    const loyaltyShares = splitInProportion(line.loyaltyDiscountCents ?? 0, totals);
    const bundleLineId = crypto.randomUUID();
    const bundleName = line.name;
    return parts.map((part, index) => ({
      productId: part.partProductId,
      variantId: part.partVariantId,
      sku: part.sku,
      name: locale === "en" ? part.nameEn : part.nameIt,
      colour: part.colour,
      size: isOneSize(part.size) ? null : part.size,
      quantity: line.quantity * part.quantity,
      listPriceCents: part.priceCents,
      discountPercent: 0,
      unitPriceCents: shares[index]!,
      personalisation: {},
      personalisationUnitCents: 0,
      lineTotalCents: totals[index]!,
      codeDiscountCents: codeShares[index]!,
      loyaltyDiscountCents: loyaltyShares[index]!,
      isLoyaltyExcluded: line.isLoyaltyExcluded ?? false,
      vatRatePercent: part.vatRatePercent,
      isPreorder: part.isPreorder,
      giftListItemId: null,
      bundleLineId,
      bundleProductId: line.productId ?? null,
      bundleName,
      bundleQuantity: line.quantity,
    }));
  });
}

export type BundlePartView = {
  productId: number;
  name: string;
  quantity: number;
  /** What one unit costs alone today. */
  unitCents: number;
  /** Per combination of the bundle (its variant id): the part's variant, its colour and size, and its units offered. */
  options: Record<number, { variantId: number; colour: string | null; size: string | null; stock: number; isForSale: boolean }>;
};

export type BundleView = {
  priceRule: "fixed" | "percent_off";
  percentOff: number;
  parts: BundlePartView[];
  /** What the parts cost alone, one bundle, and what the bundle saves on that. */
  partsCents: number;
  savedCents: number;
};

/** The bundle a product is, with its parts as its page shows them; null for an ordinary product. */
export async function getBundleView(db: Db, args: { productId: number; bundleCents: number; locale: Locale; now: Date }): Promise<BundleView | null> {
  const [bundle] = await db.select().from(bundles).where(eq(bundles.productId, args.productId));
  if (!bundle) return null;
  const combos = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, args.productId));
  const options = await readOptionParts(
    db,
    combos.map((combo) => combo.id),
  );
  const parts = new Map<number, BundlePartView>();
  for (const rows of options.values()) {
    for (const row of rows) {
      const part = parts.get(row.partProductId) ?? {
        productId: row.partProductId,
        name: args.locale === "en" ? row.nameEn : row.nameIt,
        quantity: row.quantity,
        unitCents: effectivePriceCents(row, args.now),
        options: {},
      };
      part.options[row.bundleVariantId] = {
        variantId: row.partVariantId,
        colour: row.colour,
        size: isOneSize(row.size) ? null : row.size,
        stock: row.stock,
        isForSale: row.isPublished && !row.isRecalled,
      };
      parts.set(row.partProductId, part);
    }
  }
  const ordered = [...parts.values()];
  if (ordered.length === 0) {
    const declared = await db
      .select({ productId: bundleParts.partProductId })
      .from(bundleParts)
      .where(eq(bundleParts.bundleProductId, args.productId));
    if (declared.length === 0) return null;
  }
  return {
    priceRule: bundle.priceRule,
    percentOff: bundle.percentOff,
    parts: ordered,
    ...bundleSaving(args.bundleCents, ordered),
  };
}

export type PublishedBundle = BundleView & {
  productId: number;
  name: string;
  priceCents: number;
  /** The bundle's variants: colour, size and how many bundles the parts allow. */
  combinations: { variantId: number; colour: string | null; size: string | null; stock: number }[];
};

/** Every published bundle with its parts and combinations, for the API. */
export async function listPublishedBundles(db: Db, args: { locale: Locale; now: Date }): Promise<PublishedBundle[]> {
  const rows = await db
    .select({ productId: bundles.productId, nameIt: products.nameIt, nameEn: products.nameEn, ...effectivePriceColumns })
    .from(bundles)
    .innerJoin(products, eq(products.id, bundles.productId))
    .where(eq(products.isPublished, true))
    .orderBy(asc(bundles.productId));
  const result: PublishedBundle[] = [];
  for (const row of rows) {
    const priceCents = effectivePriceCents(row, args.now);
    const view = await getBundleView(db, { productId: row.productId, bundleCents: priceCents, locale: args.locale, now: args.now });
    if (!view) continue;
    const combinations = await db
      .select({ variantId: productVariants.id, colour: productColours.colour, size: productVariants.size, stock: offeredStockSql() })
      .from(productVariants)
      .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
      .where(eq(productVariants.productId, row.productId))
      .orderBy(asc(productVariants.position), asc(productVariants.id));
    result.push({
      ...view,
      productId: row.productId,
      name: args.locale === "en" ? row.nameEn : row.nameIt,
      priceCents,
      combinations: combinations.map((combination) => ({ ...combination, size: isOneSize(combination.size) ? null : combination.size })),
    });
  }
  return result;
}
