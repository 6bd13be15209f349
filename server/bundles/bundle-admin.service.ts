/**
 * The back office's bundles (docs/decisions/0100-bundles.md): the one writer of bundles, bundle_parts and
 * bundle_option_parts. A save replaces the bundle's parts and combinations whole, in one transaction with its
 * audit row; the product row's price follows from the rule (refresh_bundle_price, migration 0026_bundles_sql).
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { bundleOptionParts, bundleParts, bundles, productColours, products, productVariants } from "#server/db/schema.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { BundleInput } from "./bundle.inputs";

export type SaveBundleError =
  "product-not-found" | "part-not-found" | "part-is-bundle" | "option-not-of-bundle" | "variant-not-of-part" | "bundle-has-stock";

export type SaveBundleResult = { ok: true } | { ok: false; error: SaveBundleError };

class Refused extends Error {
  constructor(readonly code: SaveBundleError) {
    super(code);
  }
}

/** Makes `input.productId` a bundle of `input.parts`, or saves it again; refusals are values and change nothing. */
export async function saveBundle(db: Db, args: { input: BundleInput; actorUserId: string | null }): Promise<SaveBundleResult> {
  try {
    await db.transaction(async (tx) => {
      await saveBundleInTx(tx, args.input);
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "bundle.save",
        entity: "product",
        entityId: args.input.productId,
        details: { priceRule: args.input.priceRule, parts: args.input.parts, options: args.input.options.length },
      });
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: error.code };
    throw error;
  }
}

/** The save in the caller's transaction (the seed's sample bundles); refusals throw. */
export async function saveBundleInTx(tx: Db, input: BundleInput) {
  const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, input.productId)).for("update");
  if (!product) throw new Refused("product-not-found");
  const partIds = input.parts.map((part) => part.productId);
  const found = await tx.select({ id: products.id }).from(products).where(inArray(products.id, partIds));
  if (found.length !== partIds.length) throw new Refused("part-not-found");
  if ((await tx.select({ id: bundles.productId }).from(bundles).where(inArray(bundles.productId, partIds))).length > 0)
    throw new Refused("part-is-bundle");
  const variantIds = [...input.options.map((option) => option.bundleVariantId), ...input.options.flatMap((option) => option.partVariantIds)];
  const variants = new Map(
    (
      await tx
        .select({ id: productVariants.id, productId: productVariants.productId, stock: productVariants.stock })
        .from(productVariants)
        .where(inArray(productVariants.id, variantIds))
    ).map((row) => [row.id, row]),
  );
  for (const option of input.options) {
    const own = variants.get(option.bundleVariantId);
    if (own?.productId !== input.productId) throw new Refused("option-not-of-bundle");
    // The bundle has no stock of its own: units left on its variants would never be sold.
    if (own.stock !== 0) throw new Refused("bundle-has-stock");
    option.partVariantIds.forEach((variantId, index) => {
      if (variants.get(variantId)?.productId !== input.parts[index]!.productId) throw new Refused("variant-not-of-part");
    });
  }

  const row = {
    priceRule: input.priceRule,
    fixedPriceCents: input.priceRule === "fixed" ? input.fixedPriceCents : null,
    percentOff: input.percentOff,
  };
  await tx
    .insert(bundles)
    .values({ productId: input.productId, ...row })
    .onConflictDoUpdate({ target: bundles.productId, set: { ...row, updatedAt: new Date() } });
  await tx.delete(bundleParts).where(eq(bundleParts.bundleProductId, input.productId));
  const parts = await tx
    .insert(bundleParts)
    .values(
      input.parts.map((part, position) => ({ bundleProductId: input.productId, partProductId: part.productId, quantity: part.quantity, position })),
    )
    .returning({ id: bundleParts.id, partProductId: bundleParts.partProductId });
  const partIdOf = new Map(parts.map((part) => [part.partProductId, part.id]));
  await tx.insert(bundleOptionParts).values(
    input.options.flatMap((option) =>
      option.partVariantIds.map((partVariantId, index) => ({
        bundleVariantId: option.bundleVariantId,
        bundlePartId: partIdOf.get(input.parts[index]!.productId)!,
        partVariantId,
      })),
    ),
  );
  await tx.update(products).set({ isPublished: input.isPublished }).where(eq(products.id, input.productId));
}

/** The bundles and their parts, for the back office's list. */
export async function listBundles(db: Db) {
  return db
    .select({ productId: bundles.productId, priceRule: bundles.priceRule, percentOff: bundles.percentOff, fixedPriceCents: bundles.fixedPriceCents })
    .from(bundles)
    .orderBy(bundles.productId);
}

type VariantChoice = { id: number; productId: number; colour: string | null; size: string };

async function variantsOf(db: Db, productIds: readonly number[]): Promise<VariantChoice[]> {
  if (productIds.length === 0) return [];
  return db
    .select({ id: productVariants.id, productId: productVariants.productId, colour: productColours.colour, size: productVariants.size })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(inArray(productVariants.productId, [...productIds]))
    .orderBy(asc(productVariants.position), asc(productVariants.id));
}

/**
 * Each of the bundle's combinations with a variant of each part: the one the form chose (when it is that part's), else the part's variant of
 * the same colour and size, of the same colour, or its only one. Null where none fits (the form asks the staff).
 */
export async function matchOptions(
  db: Db,
  args: { productId: number; partProductIds: readonly number[]; chosen: ReadonlyMap<string, number> },
): Promise<{ bundleVariantId: number; partVariantIds: (number | null)[] }[]> {
  const variants = await variantsOf(db, [args.productId, ...args.partProductIds]);
  return variants
    .filter((variant) => variant.productId === args.productId)
    .map((combo) => ({
      bundleVariantId: combo.id,
      partVariantIds: args.partProductIds.map((partId, index) => {
        const own = variants.filter((variant) => variant.productId === partId);
        const chosen = args.chosen.get(`${combo.id}.${index}`);
        if (chosen !== undefined && own.some((variant) => variant.id === chosen)) return chosen;
        const match =
          own.find((variant) => variant.colour === combo.colour && variant.size === combo.size) ??
          own.find((variant) => variant.colour === combo.colour) ??
          (own.length === 1 ? own[0] : undefined);
        return match?.id ?? null;
      }),
    }));
}

/** What the back office's bundle form shows: the product and its combinations, the bundle as saved (or null), each part's variants. */
export async function getBundleForm(db: Db, productId: number) {
  const [product] = await db.select({ id: products.id, name: products.nameIt, sku: products.sku }).from(products).where(eq(products.id, productId));
  if (!product) return null;
  const [bundle] = await db.select().from(bundles).where(eq(bundles.productId, productId));
  const parts = await db
    .select({ id: bundleParts.id, productId: bundleParts.partProductId, quantity: bundleParts.quantity, name: products.nameIt })
    .from(bundleParts)
    .innerJoin(products, eq(products.id, bundleParts.partProductId))
    .where(eq(bundleParts.bundleProductId, productId))
    .orderBy(asc(bundleParts.position));
  const options = await db
    .select()
    .from(bundleOptionParts)
    .where(inArray(bundleOptionParts.bundlePartId, parts.length > 0 ? parts.map((part) => part.id) : [0]));
  const variants = await variantsOf(db, [productId, ...parts.map((part) => part.productId)]);
  return {
    product,
    bundle: bundle ? { priceRule: bundle.priceRule, fixedPriceCents: bundle.fixedPriceCents, percentOff: bundle.percentOff } : null,
    combinations: variants.filter((variant) => variant.productId === productId),
    parts: parts.map((part) => ({
      ...part,
      variants: variants.filter((variant) => variant.productId === part.productId),
      chosen: Object.fromEntries(
        options.filter((option) => option.bundlePartId === part.id).map((option) => [option.bundleVariantId, option.partVariantId]),
      ),
    })),
  };
}
