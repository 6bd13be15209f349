/**
 * What the back office sends to make a product a bundle (docs/decisions/0100-bundles.md), checked once at the
 * edge. Messages are keys under `bundles.errors.*`.
 */
import { z } from "zod";

const id = z.coerce.number().int().positive();

export const BundleInput = z
  .object({
    productId: id,
    priceRule: z.enum(["fixed", "percent_off"]),
    /** For the fixed rule: the bundle's price in cents, VAT included. */
    fixedPriceCents: z.coerce.number().int().min(1).max(10_000_000).nullable().default(null),
    percentOff: z.coerce.number().int().min(0, { error: "bundles.errors.percentRange" }).max(90, { error: "bundles.errors.percentRange" }).default(0),
    parts: z
      .array(z.object({ productId: id, quantity: z.coerce.number().int().min(1).max(20) }))
      .min(2, { error: "bundles.errors.twoParts" })
      .max(10),
    /** The combinations allowed: one of the bundle's variants, and the variant of each part it takes. */
    options: z
      .array(z.object({ bundleVariantId: id, partVariantIds: z.array(id) }))
      .min(1, { error: "bundles.errors.oneOption" })
      .max(50),
    isPublished: z.boolean().default(true),
  })
  .superRefine((input, ctx) => {
    if (input.priceRule === "fixed" && !input.fixedPriceCents)
      ctx.addIssue({ code: "custom", path: ["fixedPriceCents"], message: "bundles.errors.priceRequired" });
    if (!input.parts.some((part) => part.quantity === 1)) ctx.addIssue({ code: "custom", path: ["parts"], message: "bundles.errors.singlePart" });
    if (new Set(input.parts.map((part) => part.productId)).size !== input.parts.length) {
      ctx.addIssue({ code: "custom", path: ["parts"], message: "bundles.errors.partTwice" });
    }
    if (input.parts.some((part) => part.productId === input.productId))
      ctx.addIssue({ code: "custom", path: ["parts"], message: "bundles.errors.partIsBundle" });
    input.options.forEach((option, index) => {
      if (option.partVariantIds.length !== input.parts.length) {
        ctx.addIssue({ code: "custom", path: ["options", index], message: "bundles.errors.optionParts" });
      }
    });
  });
export type BundleInput = z.infer<typeof BundleInput>;
