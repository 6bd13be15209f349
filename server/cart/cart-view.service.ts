/**
 * Reading a cart for the page, the mini-cart and saved baskets: every price recomputed from the
 * database now, each line's availability against today's stock, and what changed since it was added.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { preparedPerDatabase } from "#server/db/prepared.ts";
import { cartLines, carts, cartVouchers, giftLists, productColours, productImages, products, productVariants } from "#server/db/schema.ts";
import { activeDiscountPercent, effectivePriceCents } from "#server/money.ts";
import { isOneSize } from "#common/sizes.ts";
import { cartTotals, isForSale, lineAvailability, lineTotalCents, previousUnitPrice, type CartTotals, type LineStatus } from "./cart";
import { effectivePriceColumns, isOnRequestSql, isRecalledSql, variantStockSql } from "#server/catalog/product-card.ts";
import { createCatalogueCache } from "#server/catalog/catalogue-cache.ts";

export type CartImage = { storageKey: string; width: number; height: number; alt: string };

/** A variant as a customer sees it today. */
export type VariantDisplay = {
  variantId: number;
  productId: number;
  name: string;
  /** Colour key ("white", ...), null for products without colours. */
  colour: string | null;
  /** Null when one size (never shown, docs/rules.md#product-page). */
  size: string | null;
  image: CartImage | null;
  listUnitCents: number;
  unitCents: number;
  discountPercent: number;
  personalisationUnitCents: number;
  personalisationLabels: string[];
  stock: number;
  isPreorder: boolean;
  preorderDays: number | null;
  /** Published and not on request. */
  isForSale: boolean;
};

export type CartLineView = VariantDisplay & {
  id: string;
  quantity: number;
  personalisation: { label: string; text: string }[];
  lineTotalCents: number;
  status: LineStatus;
  /** Units of this line that today's stock still covers. */
  payableQuantity: number;
  /** The unit price when the line was added, when it differs from today's; else null. */
  previousUnitCents: number | null;
  /** The "+" of the stepper: off when the cart already holds the stock. */
  canIncrease: boolean;
  isGiftListItem: boolean;
};

export type CartView = {
  id: string | null;
  /** Units over every line plus one per voucher line (the header's count). */
  count: number;
  /** Gift cards and fund contributions (server/vouchers/), one line each, and what they add to the total. */
  voucherCount: number;
  voucherCents: number;
  lines: CartLineView[];
  totals: CartTotals;
  giftList: { code: string; title: string } | null;
  /** Some line is out of stock, reduced or no longer for sale: checkout waits until it is fixed. */
  hasProblems: boolean;
};

const noTotals: CartTotals = { subtotalCents: 0, discountCents: 0, personalisationCents: 0, totalCents: 0 };

export function emptyCartView(): CartView {
  return { id: null, count: 0, voucherCount: 0, voucherCents: 0, lines: [], totals: noTotals, giftList: null, hasProblems: false };
}

/** A variant's facts as read, in both languages, before `now` decides its offer. */
type StoredVariant = Awaited<ReturnType<typeof selectVariantRows>>[number] & {
  image: { storageKey: string; width: number; height: number; altIt: string; altEn: string } | null;
};

function selectVariantRows(db: Db, variantIds: readonly number[]) {
  return db
    .select({
      variantId: productVariants.id,
      productId: products.id,
      colourId: productVariants.colourId,
      colour: productColours.colour,
      size: productVariants.size,
      stock: variantStockSql(),
      isPreorder: productVariants.isPreorder,
      preorderDays: productVariants.preorderDays,
      nameIt: products.nameIt,
      nameEn: products.nameEn,
      ...effectivePriceColumns,
      personalisationFields: products.personalisationFields,
      personalisationCostCents: products.personalisationCostCents,
      isPublished: products.isPublished,
      isOnRequest: isOnRequestSql(),
      isRecalled: isRecalledSql(),
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(inArray(productVariants.id, [...new Set(variantIds)]));
}

/** The variants of `variantIds` that exist, each with the picture of its colour (else the product's first). */
async function readStoredVariants(db: Db, variantIds: readonly number[]): Promise<Map<number, StoredVariant>> {
  const result = new Map<number, StoredVariant>();
  if (variantIds.length === 0) return result;
  const rows = await selectVariantRows(db, variantIds);
  const images = await db
    .select({
      productId: productImages.productId,
      colourId: productImages.colourId,
      storageKey: productImages.storageKey,
      width: productImages.width,
      height: productImages.height,
      altIt: productImages.altIt,
      altEn: productImages.altEn,
    })
    .from(productImages)
    .where(inArray(productImages.productId, [...new Set(rows.map((row) => row.productId))]))
    .orderBy(asc(productImages.position), asc(productImages.id));
  for (const row of rows) {
    const own = images.filter((image) => image.productId === row.productId);
    const picked =
      own.find((image) => row.colourId !== null && image.colourId === row.colourId) ?? own.find((image) => image.colourId === null) ?? own[0];
    result.set(row.variantId, {
      ...row,
      image: picked ? { storageKey: picked.storageKey, width: picked.width, height: picked.height, altIt: picked.altIt, altEn: picked.altEn } : null,
    });
  }
  return result;
}

function toVariantDisplay(row: StoredVariant, locale: Locale, now: Date): VariantDisplay {
  const fields = row.personalisationFields ?? [];
  const { image } = row;
  return {
    variantId: row.variantId,
    productId: row.productId,
    name: locale === "en" ? row.nameEn : row.nameIt,
    colour: row.colour,
    size: isOneSize(row.size) ? null : row.size,
    image: image
      ? { storageKey: image.storageKey, width: image.width, height: image.height, alt: locale === "en" ? image.altEn : image.altIt }
      : null,
    listUnitCents: row.priceCents,
    unitCents: effectivePriceCents(row, now),
    discountPercent: activeDiscountPercent(row.discountPercent, row.offerEndsAt, now),
    personalisationUnitCents: fields.length > 0 ? row.personalisationCostCents : 0,
    personalisationLabels: fields.map((field) => (locale === "en" ? field.labelEn : field.labelIt)),
    stock: row.stock,
    isPreorder: row.isPreorder,
    preorderDays: row.preorderDays,
    isForSale: isForSale(row),
  };
}

/** Today's display data and prices of variants, by id, read now (inside a transaction, as it sees them). */
export async function describeVariants(db: Db, variantIds: readonly number[], locale: Locale, now: Date): Promise<Map<number, VariantDisplay>> {
  const stored = await readStoredVariants(db, variantIds);
  return new Map([...stored].map(([id, row]) => [id, toVariantDisplay(row, locale, now)]));
}

/**
 * Variants' facts kept while neither the catalogue nor stock changes (server/catalog/catalogue-cache.ts):
 * every page shows the mini cart, whose lines then cost no query.
 */
const keptVariants = createCatalogueCache<StoredVariant>({ maxAgeMs: 60_000, maxEntries: 5_000, watches: "catalogue and page content" });

/** `describeVariants` from kept facts, for pages (never inside a transaction: the versions are read outside it). */
export async function describeVariantsForPage(
  db: Db,
  variantIds: readonly number[],
  locale: Locale,
  now: Date,
): Promise<Map<number, VariantDisplay>> {
  const ids = [...new Set(variantIds)];
  const stored = await keptVariants.getMany(
    db,
    ids.map((id) => String(id)),
    async (missing) => new Map([...(await readStoredVariants(db, missing.map(Number)))].map(([id, row]) => [String(id), row])),
  );
  const result = new Map<number, VariantDisplay>();
  stored.forEach((row, index) => {
    if (row) result.set(ids[index]!, toVariantDisplay(row, locale, now));
  });
  return result;
}

/** The cart and its lines in one query: every page shows the mini cart. */
const cartWithLines = preparedPerDatabase((db) =>
  db
    .select({
      id: carts.id,
      giftListCode: giftLists.code,
      giftListTitle: giftLists.title,
      voucherCount: sql<number>`(select count(*) from ${cartVouchers} where ${cartVouchers.cartId} = ${carts.id})`.mapWith(Number),
      voucherCents:
        sql<number>`(select coalesce(sum(${cartVouchers.amountCents}), 0) from ${cartVouchers} where ${cartVouchers.cartId} = ${carts.id})`.mapWith(
          Number,
        ),
      line: {
        id: cartLines.id,
        variantId: cartLines.variantId,
        quantity: cartLines.quantity,
        personalisation: cartLines.personalisation,
        giftListItemId: cartLines.giftListItemId,
        seenUnitCents: cartLines.seenUnitCents,
      },
    })
    .from(carts)
    .leftJoin(giftLists, eq(giftLists.id, carts.giftListId))
    .leftJoin(cartLines, eq(cartLines.cartId, carts.id))
    .where(eq(carts.id, sql.placeholder("cartId")))
    .orderBy(asc(cartLines.createdAt), asc(cartLines.id))
    .prepare("cart_with_lines"),
);

/** The whole cart as the page shows it (never inside a transaction: its variants are kept ones); an unknown or missing cart reads as empty. */
export async function getCartView(db: Db, args: { cartId: string | null; locale: Locale; now: Date }): Promise<CartView> {
  if (!args.cartId) return emptyCartView();
  const cartRows = await cartWithLines(db).execute({ cartId: args.cartId });
  const cart = cartRows[0];
  if (!cart) return emptyCartView();
  const rows = cartRows.flatMap((row) => (row.line ? [row.line] : []));

  const variants = await describeVariantsForPage(
    db,
    rows.map((row) => row.variantId),
    args.locale,
    args.now,
  );
  const present = rows.filter((row) => variants.has(row.variantId));
  const availability = lineAvailability(
    present.map((row) => ({ id: row.id, variantId: row.variantId, quantity: row.quantity, isForSale: variants.get(row.variantId)!.isForSale })),
    (variantId) => variants.get(variantId)?.stock ?? 0,
  );
  const heldOf = (variantId: number) => present.filter((row) => row.variantId === variantId).reduce((sum, row) => sum + row.quantity, 0);

  const lines = present.map((row): CartLineView => {
    const variant = variants.get(row.variantId)!;
    const { payableQuantity, status } = availability.get(row.id)!;
    return {
      ...variant,
      id: row.id,
      quantity: row.quantity,
      personalisation: variant.personalisationLabels.flatMap((label, index) => {
        const text = row.personalisation[String(index)];
        return text ? [{ label, text }] : [];
      }),
      lineTotalCents: lineTotalCents(variant, row.quantity),
      status,
      payableQuantity,
      previousUnitCents: previousUnitPrice(row.seenUnitCents, variant.unitCents),
      canIncrease: variant.isForSale && heldOf(row.variantId) < variant.stock,
      isGiftListItem: row.giftListItemId !== null,
    };
  });
  return {
    id: cart.id,
    count: lines.reduce((sum, line) => sum + line.quantity, 0) + cart.voucherCount,
    voucherCount: cart.voucherCount,
    voucherCents: cart.voucherCents,
    lines,
    totals: cartTotals(lines),
    giftList: cart.giftListCode && cart.giftListTitle ? { code: cart.giftListCode, title: cart.giftListTitle } : null,
    hasProblems: lines.some((line) => line.status !== "ok"),
  };
}

/** The small form the root loader sends to every page (header count and mini-cart). */
export function toCartSummary(view: CartView) {
  return {
    count: view.count,
    voucherCount: view.voucherCount,
    voucherCents: view.voucherCents,
    // What the goods and the voucher lines come to before delivery: the mini-cart's subtotal.
    subtotalCents: view.totals.totalCents + view.voucherCents,
    giftList: view.giftList,
    lines: view.lines.map((line) => ({
      id: line.id,
      variantId: line.variantId,
      productId: line.productId,
      name: line.name,
      image: line.image,
      colour: line.colour,
      size: line.size,
      quantity: line.quantity,
      unitCents: line.unitCents + line.personalisationUnitCents,
      listUnitCents: line.listUnitCents + line.personalisationUnitCents,
      lineTotalCents: line.lineTotalCents,
    })),
  };
}

export type CartSummary = ReturnType<typeof toCartSummary>;

export const emptyCartSummary: CartSummary = toCartSummary(emptyCartView());
