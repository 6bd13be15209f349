/** The bundles (docs/decisions/0100-bundles.md) through the API: their price, saving, parts and combinations with what is on the shelf. */
import { z } from "zod";
import { listPublishedBundles } from "#server/bundles/bundle.service.ts";
import { apiRoute } from "./api-route";

const euros = (cents: number) => Math.round(cents) / 100;

const Bundle = z.object({
  productId: z.number().int(),
  name: z.string(),
  /** What the bundle costs today, EUR with 2 decimals, VAT included. */
  price: z.number(),
  /** What its parts cost bought alone, and what the bundle saves on that. */
  partsPrice: z.number(),
  saved: z.number(),
  priceRule: z.enum(["fixed", "percent_off"]),
  percentOff: z.number().int(),
  parts: z.array(z.object({ productId: z.number().int(), name: z.string(), quantity: z.number().int(), price: z.number() })),
  /** The combinations the staff allow: the bundle's variant, its colour and size, how many bundles the parts allow, and each part's variant. */
  combinations: z.array(
    z.object({
      variantId: z.number().int(),
      color: z.string().nullable(),
      size: z.string().nullable(),
      stock: z.number().int(),
      parts: z.array(z.object({ productId: z.number().int(), variantId: z.number().int() })),
    }),
  ),
});

const getBundles = apiRoute({
  method: "GET",
  path: "/api/public/bundles",
  auth: "public",
  summary:
    "Every published bundle (a trio, a bath set) with its price, its saving on the parts bought alone, its parts and the combinations on offer.",
  response: z.array(Bundle),
  handler: async ({ services, locale, now }) => {
    const bundles = await listPublishedBundles(services.db, { locale, now });
    return {
      ok: true,
      data: bundles.map((bundle) => ({
        productId: bundle.productId,
        name: bundle.name,
        price: euros(bundle.priceCents),
        partsPrice: euros(bundle.partsCents),
        saved: euros(bundle.savedCents),
        priceRule: bundle.priceRule,
        percentOff: bundle.percentOff,
        parts: bundle.parts.map((part) => ({ productId: part.productId, name: part.name, quantity: part.quantity, price: euros(part.unitCents) })),
        combinations: bundle.combinations.map((combination) => ({
          variantId: combination.variantId,
          color: combination.colour,
          size: combination.size,
          stock: combination.stock,
          parts: bundle.parts.flatMap((part) => {
            const option = part.options[combination.variantId];
            return option ? [{ productId: part.productId, variantId: option.variantId }] : [];
          }),
        })),
      })),
    };
  },
});

export const bundleEndpoints = [getBundles];
