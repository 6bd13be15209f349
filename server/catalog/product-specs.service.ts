/**
 * Car-seat and stroller specifications: the only writer of product_specs (tests/architecture/one-owner.test.ts).
 * The product page reads them with its own query (product.service.ts); the listing filters on them
 * (listing.service.ts, facet-index.ts). docs/decisions/0101-product-specifications.md.
 */
import { eq, inArray } from "drizzle-orm";
import type { ProductSpecs } from "#common/product-specs.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { products, productSpecs } from "#server/db/schema.ts";

const specColumns = {
  kind: productSpecs.kind,
  statureMinCm: productSpecs.statureMinCm,
  statureMaxCm: productSpecs.statureMaxCm,
  r44Group: productSpecs.r44Group,
  hasIsofix: productSpecs.hasIsofix,
  rotates360: productSpecs.rotates360,
  ageMinMonths: productSpecs.ageMinMonths,
  ageMaxMonths: productSpecs.ageMaxMonths,
  maxChildWeightGrams: productSpecs.maxChildWeightGrams,
  weightGrams: productSpecs.weightGrams,
  foldedLengthCm: productSpecs.foldedLengthCm,
  foldedWidthCm: productSpecs.foldedWidthCm,
  foldedHeightCm: productSpecs.foldedHeightCm,
  isFromBirth: productSpecs.isFromBirth,
  isCarrycotCompatible: productSpecs.isCarrycotCompatible,
};

/** A product's specifications, published or not (the back office); null when it has none. */
export async function getProductSpecs(db: Db, productId: number): Promise<ProductSpecs | null> {
  const [row] = await db.select(specColumns).from(productSpecs).where(eq(productSpecs.productId, productId));
  return row ?? null;
}

/** The specifications of each product of `productIds` that has some (the CSV export, the merchant feed). */
export async function getProductSpecsOf(db: Db, productIds: readonly number[]): Promise<Map<number, ProductSpecs>> {
  if (productIds.length === 0) return new Map();
  const rows = await db
    .select({ productId: productSpecs.productId, ...specColumns })
    .from(productSpecs)
    .where(inArray(productSpecs.productId, [...productIds]));
  return new Map(rows.map(({ productId, ...specs }) => [productId, specs]));
}

/** The back office page: the product's name in `locale` and its specifications; null when there is no such product. */
export async function getProductSpecsForm(
  db: Db,
  productId: number,
  locale: "it" | "en",
): Promise<{ productId: number; name: string; specs: ProductSpecs | null } | null> {
  const [product] = await db.select({ nameIt: products.nameIt, nameEn: products.nameEn }).from(products).where(eq(products.id, productId));
  if (!product) return null;
  return { productId, name: locale === "en" ? product.nameEn : product.nameIt, specs: await getProductSpecs(db, productId) };
}

export type SetProductSpecsResult = { ok: true; changed: boolean } | { ok: false; notFound: true };

/** Saves (or, with null, removes) a product's specifications; an unchanged form writes nothing. */
export async function setProductSpecs(
  db: Db,
  args: { productId: number; specs: ProductSpecs | null; actorUserId: string | null },
): Promise<SetProductSpecsResult> {
  return db.transaction(async (tx) => {
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, args.productId)).for("update");
    if (!product) return { ok: false as const, notFound: true as const };
    const [current] = await tx.select(specColumns).from(productSpecs).where(eq(productSpecs.productId, args.productId));
    if (JSON.stringify(current ?? null) === JSON.stringify(args.specs)) return { ok: true as const, changed: false };
    if (args.specs === null) await tx.delete(productSpecs).where(eq(productSpecs.productId, args.productId));
    else {
      const values = { ...args.specs, updatedAt: new Date() };
      await tx
        .insert(productSpecs)
        .values({ productId: args.productId, ...values })
        .onConflictDoUpdate({ target: productSpecs.productId, set: values });
    }
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: args.specs === null ? "product.specs.remove" : "product.specs",
      entity: "product",
      entityId: args.productId,
      details: args.specs ?? {},
    });
    return { ok: true as const, changed: true };
  });
}
