/**
 * Colours, pictures, sizes and stock of a product in the back office. Stock changes only through the
 * stock ledger, with a reason (its movement row); each change writes its audit row in the same
 * transaction.
 */
import crypto from "node:crypto";
import { and, desc, eq, max, sql } from "drizzle-orm";
import { getImageVariantKeys, writeImageVariants, type ImageRejection } from "#server/catalog/images.ts";
import type { MediaStore } from "#server/media/media-store.ts";
import type { Db } from "#server/db/client.ts";
import { productColours, productImages, products, productVariants, stockMovements, users } from "#server/db/schema.ts";
import { adjustStockBy, setInitialStock } from "#server/stock/stock-ledger.ts";
import { recordAudit } from "./audit.service";
import { maxStock, type FieldErrors, type StockAdjustmentInput, type VariantInput, type VariantUpdateInput } from "./product-admin.inputs";
import { isUniqueViolation } from "./product-admin.service";

/** Pictures above this are refused with a message (the shop's own limit, under images.ts's hard one and nginx's 9 MB body). */
export const maxAdminImageBytes = 8 * 1024 * 1024;

type Result = { ok: true; id: number } | { ok: false; errors: FieldErrors };

async function productExists(tx: Db, productId: number) {
  const [row] = await tx.select({ id: products.id }).from(products).where(eq(products.id, productId));
  return Boolean(row);
}

export async function addColour(db: Db, args: { productId: number; colour: string; actorUserId: string | null }): Promise<Result | null> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await productExists(tx, args.productId))) return null;
      const [taken] = await tx
        .select({ id: productColours.id })
        .from(productColours)
        .where(and(eq(productColours.productId, args.productId), eq(productColours.colour, args.colour)));
      if (taken) return { ok: false, errors: { colour: "admin.errors.colourTaken" } } as const;
      const [{ value: last } = { value: null }] = await tx
        .select({ value: max(productColours.position) })
        .from(productColours)
        .where(eq(productColours.productId, args.productId));
      const [created] = await tx
        .insert(productColours)
        .values({ productId: args.productId, colour: args.colour, position: (last ?? -1) + 1 })
        .returning({ id: productColours.id });
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "product.colour.add",
        entity: "product",
        entityId: args.productId,
        details: { colour: args.colour },
      });
      return { ok: true, id: created!.id } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { colour: "admin.errors.colourTaken" } };
    throw error;
  }
}

const imageErrors: Record<ImageRejection, string> = {
  "image-too-large": "admin.errors.imageTooLarge",
  "image-unreadable": "admin.errors.imageNotImage",
  "image-not-raster": "admin.errors.imageNotRaster",
  "image-too-many-pixels": "admin.errors.imageTooManyPixels",
};

function imageKeyFor(productId: number, colour: string | null) {
  const slug =
    (colour ?? "prodotto")
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 30) || "colore";
  return `p${productId}-${slug}-${crypto.randomBytes(4).toString("hex")}`;
}

/**
 * A picture for a colour (or, colourId null, for the product as a whole). The type is read from
 * the bytes by sharp (images.ts), never from the name: a text file named .jpg or an SVG is refused.
 */
export async function addProductImage(
  db: Db,
  args: { productId: number; colourId: number | null; bytes: Buffer; media: MediaStore; actorUserId: string | null; altIt?: string; altEn?: string },
): Promise<Result | null> {
  if (args.bytes.byteLength === 0) return { ok: false, errors: { image: "admin.errors.imageMissing" } };
  if (args.bytes.byteLength > maxAdminImageBytes) return { ok: false, errors: { image: "admin.errors.imageTooLarge" } };
  const [owner] = await db
    .select({ id: products.id, nameIt: products.nameIt, nameEn: products.nameEn })
    .from(products)
    .where(eq(products.id, args.productId));
  if (!owner) return null;
  let colour: string | null = null;
  if (args.colourId !== null) {
    const [row] = await db
      .select({ colour: productColours.colour })
      .from(productColours)
      .where(and(eq(productColours.id, args.colourId), eq(productColours.productId, args.productId)));
    if (!row) return { ok: false, errors: { colourId: "admin.errors.colourUnknown" } };
    colour = row.colour;
  }
  const key = imageKeyFor(args.productId, colour);
  // sharp works outside the transaction (seconds on 2 cores); the row follows, or the files go.
  const written = await writeImageVariants(args.bytes, key, args.media);
  if (!written.ok) return { ok: false, errors: { image: imageErrors[written.error] } };
  try {
    return await db.transaction(async (tx) => {
      const [{ value: last } = { value: null }] = await tx
        .select({ value: max(productImages.position) })
        .from(productImages)
        .where(eq(productImages.productId, args.productId));
      const [image] = await tx
        .insert(productImages)
        .values({
          productId: args.productId,
          colourId: args.colourId,
          storageKey: key,
          width: written.width,
          height: written.height,
          altIt: args.altIt || [owner.nameIt, colour].filter(Boolean).join(" - "),
          altEn: args.altEn || [owner.nameEn, colour].filter(Boolean).join(" - "),
          position: (last ?? -1) + 1,
        })
        .returning({ id: productImages.id });
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "product.image.add",
        entity: "product",
        entityId: args.productId,
        details: { colour, storageKey: key, width: written.width, height: written.height },
      });
      return { ok: true, id: image!.id } as const;
    });
  } catch (error) {
    await args.media.remove(getImageVariantKeys(key));
    throw error;
  }
}

export async function removeProductImage(
  db: Db,
  args: { productId: number; imageId: number; media: MediaStore; actorUserId: string | null },
): Promise<boolean> {
  const removed = await db.transaction(async (tx) => {
    const [image] = await tx
      .delete(productImages)
      .where(and(eq(productImages.id, args.imageId), eq(productImages.productId, args.productId)))
      .returning({ storageKey: productImages.storageKey });
    if (!image) return null;
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "product.image.remove",
      entity: "product",
      entityId: args.productId,
      details: { storageKey: image.storageKey },
    });
    return image.storageKey;
  });
  if (!removed) return false;
  // Sample pictures may be shared by the seed; uploads carry the p{id}- prefix and are ours to delete.
  if (removed.startsWith(`p${args.productId}-`)) await args.media.remove(getImageVariantKeys(removed));
  return true;
}

async function variantSkuTaken(tx: Db, sku: string, exceptVariantId: number | null) {
  const [row] = await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.sku, sku));
  return Boolean(row && row.id !== exceptVariantId);
}

export async function addVariant(db: Db, args: { productId: number; input: VariantInput; actorUserId: string | null }): Promise<Result | null> {
  const { productId, input, actorUserId } = args;
  try {
    return await db.transaction(async (tx) => {
      if (!(await productExists(tx, productId))) return null;
      if (input.colourId !== null) {
        const [colour] = await tx
          .select({ id: productColours.id })
          .from(productColours)
          .where(and(eq(productColours.id, input.colourId), eq(productColours.productId, productId)));
        if (!colour) return { ok: false, errors: { colourId: "admin.errors.colourUnknown" } } as const;
      }
      if (await variantSkuTaken(tx, input.sku, null)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } } as const;
      const [same] = await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(
          and(
            eq(productVariants.productId, productId),
            input.colourId === null ? sql`${productVariants.colourId} is null` : eq(productVariants.colourId, input.colourId),
            eq(productVariants.size, input.size),
          ),
        );
      if (same) return { ok: false, errors: { size: "admin.errors.sizeTaken" } } as const;
      const [{ value: last } = { value: null }] = await tx
        .select({ value: max(productVariants.position) })
        .from(productVariants)
        .where(eq(productVariants.productId, productId));
      const [variant] = await tx
        .insert(productVariants)
        .values({
          productId,
          colourId: input.colourId,
          size: input.size,
          sku: input.sku,
          isPreorder: input.isPreorder,
          preorderDays: input.isPreorder ? input.preorderDays : null,
          gtin: input.gtin,
          position: (last ?? -1) + 1,
        })
        .returning({ id: productVariants.id });
      await setInitialStock(tx, { variantId: variant!.id, stock: input.stock }, { reason: "Stock iniziale", actorUserId });
      await recordAudit(tx, {
        actorUserId,
        action: "product.variant.add",
        entity: "variant",
        entityId: variant!.id,
        details: { productId, sku: input.sku, size: input.size, stock: input.stock },
      });
      return { ok: true, id: variant!.id } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } };
    throw error;
  }
}

export async function updateVariant(
  db: Db,
  args: { productId: number; input: VariantUpdateInput; actorUserId: string | null },
): Promise<Result | null> {
  const { productId, input, actorUserId } = args;
  try {
    return await db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(productVariants)
        .where(and(eq(productVariants.id, input.variantId), eq(productVariants.productId, productId)));
      if (!before) return null;
      if (await variantSkuTaken(tx, input.sku, before.id)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } } as const;
      const next = { sku: input.sku, isPreorder: input.isPreorder, preorderDays: input.isPreorder ? input.preorderDays : null, gtin: input.gtin };
      // Spelt out: the catalogue writes a variant's SKU, pre-order and barcode, never its stock (the stock ledger's).
      await tx
        .update(productVariants)
        .set({ sku: next.sku, isPreorder: next.isPreorder, preorderDays: next.preorderDays, gtin: next.gtin })
        .where(eq(productVariants.id, before.id));
      await recordAudit(tx, {
        actorUserId,
        action: "product.variant.update",
        entity: "variant",
        entityId: before.id,
        details: {
          productId,
          from: { sku: before.sku, isPreorder: before.isPreorder, preorderDays: before.preorderDays, gtin: before.gtin },
          to: next,
        },
      });
      return { ok: true, id: before.id } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, errors: { sku: "admin.errors.skuTaken" } };
    throw error;
  }
}

/** Adds `delta` (negative removes) with its reason, through the ledger: never below zero nor above maxStock. */
export async function adjustStock(
  db: Db,
  args: { productId: number; input: StockAdjustmentInput; actorUserId: string | null },
): Promise<{ ok: true; stock: number } | { ok: false; errors: FieldErrors } | null> {
  const { productId, input, actorUserId } = args;
  return db.transaction(async (tx) => {
    const [variant] = await tx
      .select({ id: productVariants.id, stock: productVariants.stock })
      .from(productVariants)
      .where(and(eq(productVariants.id, input.variantId), eq(productVariants.productId, productId)));
    if (!variant) return null;
    const updated = await adjustStockBy(tx, { variantId: variant.id, delta: input.delta, maxStock }, { reason: input.reason, actorUserId });
    if (!updated.ok)
      return { ok: false, errors: { delta: input.delta < 0 ? "admin.errors.stockWouldBeNegative" : "admin.errors.stockRange" } } as const;
    await recordAudit(tx, {
      actorUserId,
      action: "stock.adjust",
      entity: "variant",
      entityId: variant.id,
      details: { productId, delta: input.delta, reason: input.reason, stock: updated.stock },
    });
    return { ok: true, stock: updated.stock } as const;
  });
}

export type StockMovementRow = {
  id: number;
  createdAt: string;
  variantId: number;
  sku: string;
  size: string;
  delta: number;
  reason: string;
  orderId: string | null;
  actorName: string | null;
};

export async function listStockMovements(db: Db, productId: number, limit = 100): Promise<StockMovementRow[]> {
  const rows = await db
    .select({
      id: stockMovements.id,
      createdAt: stockMovements.createdAt,
      variantId: stockMovements.variantId,
      sku: productVariants.sku,
      size: productVariants.size,
      delta: stockMovements.delta,
      reason: stockMovements.reason,
      orderId: stockMovements.orderId,
      actorName: users.name,
    })
    .from(stockMovements)
    .innerJoin(productVariants, eq(productVariants.id, stockMovements.variantId))
    .leftJoin(users, eq(users.id, stockMovements.actorUserId))
    .where(eq(productVariants.productId, productId))
    .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
