/**
 * A product's manual as a downloadable PDF (GPSR article 19: the safety information as in the manual),
 * kept in the media store like pictures (docs/decisions/0071-media-in-object-storage.md) under
 * "manuals/". Checked to be a PDF by its first bytes and at most `maxManualBytes`.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { products } from "#server/db/schema.ts";
import type { MediaStore } from "#server/media/media-store.ts";
import { isPdf, maxManualBytes } from "./product-safety";

export type ManualResult =
  { ok: true; key: string } | { ok: false; error: "productSafety.errors.manualNotPdf" | "productSafety.errors.manualTooLarge" } | null;

/** Stores the file and points the product at it, the old file removed; null when there is no such product. */
export async function setProductManual(
  db: Db,
  args: { productId: number; bytes: Uint8Array; media: MediaStore; actorUserId: string | null },
): Promise<ManualResult> {
  if (args.bytes.byteLength > maxManualBytes) return { ok: false, error: "productSafety.errors.manualTooLarge" };
  if (!isPdf(args.bytes)) return { ok: false, error: "productSafety.errors.manualNotPdf" };
  const [product] = await db.select({ key: products.manualStorageKey }).from(products).where(eq(products.id, args.productId));
  if (!product) return null;
  const key = `manuals/p${args.productId}-${crypto.randomBytes(6).toString("hex")}.pdf`;
  await args.media.put(key, Buffer.from(args.bytes), "application/pdf");
  const saved = await db.transaction(async (tx) => {
    const [row] = await tx.update(products).set({ manualStorageKey: key }).where(eq(products.id, args.productId)).returning({ id: products.id });
    if (row)
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "product.manual",
        entity: "product",
        entityId: args.productId,
        details: { key },
      });
    return Boolean(row);
  });
  if (!saved) {
    await args.media.remove([key]);
    return null;
  }
  if (product.key) await args.media.remove([product.key]);
  return { ok: true, key };
}
