/**
 * The "client form" of a product (docs/rules.md#http-api), the one shape the legacy API answers with.
 * Mapped once, here, from the product page's own data (server/catalog/product.service.ts); prices
 * through server/money.ts. Shapes the old client never showed are decided in docs/decisions/0018-http-api.md.
 */
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { getManualUrl, getProductImageUrl } from "#common/media.ts";
import { productSpecKinds, type ProductSpecs } from "#common/product-specs.ts";
import { getProductPages, type ProductPageData } from "#server/catalog/product.service.ts";
import type { Db } from "#server/db/client.ts";
import { centsToDecimal } from "#server/money.ts";

const ClientSize = z.object({
  name: z.string(),
  stock: z.number().int().min(0),
  /** "Si" = sold as a pre-order. */
  prenotazione: z.enum(["Si", "No"]),
  /** Days to delivery of a pre-order; null otherwise. */
  giorni: z.number().int().nullable(),
});

const ClientVariation = z.object({
  /** Colour key ("white", "blue"...); null for sizes of a product without colours. */
  color: z.string().nullable(),
  /** The colour's first picture (absolute URL). */
  image: z.string(),
  size: z.array(ClientSize),
});

const ClientSafetyContact = z.object({ name: z.string(), postalAddress: z.string(), countryCode: z.string(), email: z.string() });

/** GPSR article 19 and 36 (docs/decisions/0088-product-safety-data.md, 0089-recall-flow.md), in the caller's language. */
const ClientSafety = z
  .object({
    manufacturer: ClientSafetyContact.nullable(),
    /** The EU responsible person of a manufacturer outside the EU; null when there is none. */
    responsiblePerson: ClientSafetyContact.nullable(),
    model: z.string().nullable(),
    gtin: z.array(z.string()),
    warnings: z.array(z.string()),
    /** The manual (PDF, absolute URL); null when there is none. */
    manualUrl: z.string().nullable(),
    /** Recall notices, newest first: the recalled variants' SKUs, the hazard, what to do and the remedy. */
    recalls: z.array(z.object({ date: z.string(), skus: z.array(z.string()), hazard: z.string(), whatToDo: z.string(), remedy: z.string() })),
  })
  .meta({ id: "ClientSafety" });

const ClientRange = z.object({ min: z.number().int().nullable(), max: z.number().int().nullable() });

/** A car seat's or stroller's specifications (docs/decisions/0101-product-specifications.md); null for other products. */
const ClientSpecifications = z
  .object({
    kind: z.enum(productSpecKinds),
    /** ECE R129 (i-Size): the child's stature the seat is approved for, in cm. */
    statureCm: ClientRange.nullable(),
    /** ECE R44/04 group(s), e.g. "0+/1". */
    r44Group: z.string().nullable(),
    isofix: z.boolean().nullable(),
    rotation360: z.boolean().nullable(),
    ageMonths: ClientRange.nullable(),
    maxChildWeightKg: z.number().nullable(),
    /** The stroller's own weight. */
    weightKg: z.number().nullable(),
    /** Folded length, depth and height. */
    foldedCm: z.object({ length: z.number().int(), width: z.number().int(), height: z.number().int() }).nullable(),
    fromBirth: z.boolean().nullable(),
    carrycotCompatible: z.boolean().nullable(),
  })
  .nullable()
  .meta({ id: "ClientSpecifications" });

function toClientSpecifications(specs: ProductSpecs | null): z.infer<typeof ClientSpecifications> {
  if (!specs) return null;
  const range = (min: number | null, max: number | null) => (min === null && max === null ? null : { min, max });
  const folded =
    specs.foldedLengthCm !== null && specs.foldedWidthCm !== null && specs.foldedHeightCm !== null
      ? { length: specs.foldedLengthCm, width: specs.foldedWidthCm, height: specs.foldedHeightCm }
      : null;
  return {
    kind: specs.kind,
    statureCm: range(specs.statureMinCm, specs.statureMaxCm),
    r44Group: specs.r44Group,
    isofix: specs.hasIsofix,
    rotation360: specs.rotates360,
    ageMonths: range(specs.ageMinMonths, specs.ageMaxMonths),
    maxChildWeightKg: scaled(specs.maxChildWeightGrams, 1000),
    weightKg: scaled(specs.weightGrams, 1000),
    foldedCm: folded,
    fromBirth: specs.isFromBirth,
    carrycotCompatible: specs.isCarrycotCompatible,
  };
}

export const ClientProduct = z
  .object({
    id: z.number().int(),
    sku: z.string(),
    name: z.string(),
    /** List price in euros, VAT included, 2 decimals. */
    price: z.number().multipleOf(0.01).min(0),
    /** Percent off that applies now (0 when none or when the offer has ended). */
    discount: z.number().int().min(0).max(100),
    new: z.boolean(),
    rating: z.number().int().min(0).max(5),
    saleCount: z.number().int().min(0),
    /** Category slugs, the product's own first (links /categoria/{category}). */
    category: z.array(z.string()),
    /** Brand names. */
    tag: z.array(z.string()),
    /** Only simple products (one colour-less, one-size variant) have a top-level stock. */
    stock: z.number().int().min(0).optional(),
    /** Absolute URLs of the pictures (800 px WebP); the placeholder when there is none. */
    image: z.array(z.string()),
    shortDescription: z.string(),
    fullDescription: z.string(),
    /** ISO date-time at which the running discount ends, when it does. */
    offerEnd: z.string().optional(),
    variation: z.array(ClientVariation).optional(),
    /** The colours in the shop's order, with their index. */
    IndexColor: z.array(z.object({ color: z.string(), index: z.number().int() })),
    /** Related product ids, comma-separated (at most 8). */
    correlated: z.string(),
    isPersonalized: z.boolean(),
    /** Lengths in centimetres, weight in kilograms; null where unknown. */
    schedatecnica: z
      .object({
        lunghezza: z.number().nullable(),
        larghezza: z.number().nullable(),
        altezza: z.number().nullable(),
        peso: z.number().nullable(),
        materiale: z.string().nullable(),
      })
      .nullable(),
    /** "{}" when the product can be personalised, "Non Supportata" otherwise. */
    personalizzazione: z.string(),
    /** Free shipping. */
    isGratis: z.boolean(),
    /** Subcategory slug, "" when none. */
    sottocategoria: z.string(),
    /** Personalisation cost per item, in euros. */
    costopersonalizzazione: z.number().multipleOf(0.01).min(0),
    personalizzazione_descrizione: z.string(),
    /** Affiliate "buy now" link, "" when none. */
    affiliateLink: z.string(),
    ispersonalizzateClient: z.boolean(),
    safety: ClientSafety,
    specifications: ClientSpecifications,
  })
  .meta({ id: "ClientProduct" });
export type ClientProduct = z.infer<typeof ClientProduct>;

const notSupported = "Non Supportata";

/** Millimetres to centimetres, grams to kilograms: exact decimals, never a float artefact. */
const scaled = (value: number | null, divisor: number) => (value === null ? null : Number((value / divisor).toFixed(3)));

/** The legacy default of `descrizione_personalizzazione` for products that cannot be personalised. */
const noPersonalisation: Record<Locale, string> = { it: "Non disponibile", en: "Not available" };

function toClientProduct(page: ProductPageData, publicUrl: string, locale: Locale): ClientProduct {
  const imageUrl = (key: string) => `${publicUrl}${getProductImageUrl(key, 800)}`;
  const colourKeys = page.colours.map((colour) => colour.key);
  const [only, ...others] = page.variants;
  const isSimple = only !== undefined && others.length === 0 && only.colour === null && only.isOneSize;
  const groups: (string | null)[] = colourKeys.length > 0 ? colourKeys : [null];
  const variation = isSimple
    ? undefined
    : groups.map((colour) => {
        const images = page.colours.find((candidate) => candidate.key === colour)?.images ?? page.images;
        return {
          color: colour,
          image: imageUrl(images[0]?.storageKey ?? "placeholder"),
          size: page.variants
            .filter((variant) => variant.colour === colour)
            .map((variant) => ({
              name: variant.size,
              stock: variant.stock,
              prenotazione: variant.isPreorder ? ("Si" as const) : ("No" as const),
              giorni: variant.isPreorder ? variant.preorderDays : null,
            })),
        };
      });
  const pictures = page.images.length > 0 ? page.images : (page.colours[0]?.images ?? []);
  const sheet = page.technicalSheet;
  return {
    id: page.id,
    sku: page.sku,
    name: page.name,
    price: centsToDecimal(page.priceCents),
    discount: page.discountPercent,
    new: page.isNew,
    rating: page.rating,
    saleCount: page.saleCount,
    category: page.categories.map((category) => category.slug),
    tag: page.brands.map((brand) => brand.name),
    ...(isSimple ? { stock: only.stock } : {}),
    image: pictures.map((picture) => imageUrl(picture.storageKey)),
    shortDescription: page.shortDescription,
    fullDescription: page.fullDescription,
    ...(page.offerEndsAt ? { offerEnd: page.offerEndsAt } : {}),
    ...(variation ? { variation } : {}),
    IndexColor: colourKeys.map((color, index) => ({ color, index })),
    correlated: page.relatedIds.join(","),
    isPersonalized: page.personalisation !== null,
    schedatecnica: sheet
      ? {
          lunghezza: scaled(sheet.lengthMm, 10),
          larghezza: scaled(sheet.widthMm, 10),
          altezza: scaled(sheet.heightMm, 10),
          peso: scaled(sheet.weightGrams, 1000),
          materiale: sheet.material,
        }
      : null,
    personalizzazione: page.personalisation ? "{}" : notSupported,
    isGratis: page.isFreeShipping,
    sottocategoria: page.subcategory?.slug ?? "",
    costopersonalizzazione: centsToDecimal(page.personalisation?.costCents ?? 0),
    personalizzazione_descrizione: page.personalisation?.description ?? noPersonalisation[locale],
    affiliateLink: page.affiliateUrl ?? "",
    ispersonalizzateClient: false,
    safety: {
      manufacturer: page.safety.manufacturer,
      responsiblePerson: page.safety.responsiblePerson,
      model: page.safety.modelNumber,
      gtin: page.safety.gtins,
      warnings: page.safety.warnings,
      manualUrl: page.safety.manualKey ? `${publicUrl}${getManualUrl(page.safety.manualKey)}` : null,
      recalls: page.recalls.map((recall) => ({
        date: new Date(recall.createdAt).toISOString(),
        skus: page.variants.filter((variant) => recall.variantIds.includes(variant.id)).map((variant) => variant.sku),
        hazard: recall.hazard,
        whatToDo: recall.whatToDo,
        remedy: recall.remedy,
      })),
    },
    specifications: toClientSpecifications(page.specs),
  };
}

/** Published products in the client form, in the order of `ids`. */
export async function getClientProducts(
  db: Db,
  { ids, locale, now, publicUrl }: { ids: readonly number[]; locale: Locale; now: Date; publicUrl: string },
): Promise<ClientProduct[]> {
  const pages = await getProductPages(db, ids, locale, now);
  return pages.map((page) => toClientProduct(page, publicUrl, locale));
}
