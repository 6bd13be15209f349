/**
 * The sample catalogue bundled with the shop, seeded into an empty database on first start.
 * Fully deterministic: what the data files do not state (SKUs, stock, ratings, sales, relations)
 * is derived from each product's id with a seeded generator, so every install gets the same shop
 * and adding a product never changes the others.
 */
import { clothingProducts } from "./sample-catalogue/abbigliamento";
import { carryAndTravelProducts } from "./sample-catalogue/a-spasso-carry-and-travel";
import { strollerProducts } from "./sample-catalogue/a-spasso-strollers";
import { beddingProducts } from "./sample-catalogue/arredamento-bedding";
import { cribProducts } from "./sample-catalogue/arredamento-cribs";
import { decorProducts } from "./sample-catalogue/arredamento-decor";
import { storageProducts } from "./sample-catalogue/arredamento-storage";
import { bathProducts } from "./sample-catalogue/bagnetto";
import {
  materials,
  oneSize,
  standardVatRatePercent,
  type SampleBrandSlug,
  type SampleColour,
  type SamplePersonalisation,
  type SampleProductInput,
} from "./sample-catalogue/define";
import { activePlayProducts } from "./sample-catalogue/gioco-active";
import { toyProducts } from "./sample-catalogue/gioco-toys";
import { feedingProducts } from "./sample-catalogue/pappa-feeding";
import { mealtimeProducts } from "./sample-catalogue/pappa-mealtime";
import { seatingProducts } from "./sample-catalogue/pappa-seating";
import { bundleProducts } from "./sample-catalogue/bundles";
import { carSeatAndMonitorProducts } from "./sample-catalogue/sicurezza-car-and-monitors";
import { homeSafetyProducts } from "./sample-catalogue/sicurezza-home";
import { findCategoryOfSubcategory, type CategorySlug, type SubcategorySlug } from "#server/catalog/taxonomy.ts";

export { oneSize, type SampleColour } from "./sample-catalogue/define";

export type SampleBrand = { slug: SampleBrandSlug; name: string; skuPrefix: string; marksOnRequest: boolean };

export const sampleBrands: readonly SampleBrand[] = [
  { slug: "chicco", name: "Chicco", skuPrefix: "CHI", marksOnRequest: false },
  { slug: "cam", name: "Cam", skuPrefix: "CAM", marksOnRequest: false },
  { slug: "peg-perego", name: "Peg Perego", skuPrefix: "PEG", marksOnRequest: false },
  { slug: "foppapedretti", name: "Foppapedretti", skuPrefix: "FOP", marksOnRequest: false },
  { slug: "inglesina", name: "Inglesina", skuPrefix: "ING", marksOnRequest: false },
  { slug: "cybex", name: "Cybex", skuPrefix: "CYB", marksOnRequest: false },
  { slug: "stokke", name: "Stokke", skuPrefix: "STO", marksOnRequest: false },
  { slug: "joie", name: "Joie", skuPrefix: "JOI", marksOnRequest: false },
  { slug: "babybjorn", name: "BabyBjörn", skuPrefix: "BBJ", marksOnRequest: false },
  { slug: "nuvita", name: "Nuvita", skuPrefix: "NUV", marksOnRequest: false },
  { slug: "tommee-tippee", name: "Tommee Tippee", skuPrefix: "TOM", marksOnRequest: false },
  { slug: "philips-avent", name: "Philips Avent", skuPrefix: "AVE", marksOnRequest: false },
  { slug: "mam", name: "MAM", skuPrefix: "MAM", marksOnRequest: false },
  { slug: "nuk", name: "NUK", skuPrefix: "NUK", marksOnRequest: false },
  { slug: "brevi", name: "Brevi", skuPrefix: "BRE", marksOnRequest: false },
  { slug: "reer", name: "Reer", skuPrefix: "REE", marksOnRequest: false },
  { slug: "safety-1st", name: "Safety 1st", skuPrefix: "SAF", marksOnRequest: false },
  { slug: "clementoni", name: "Clementoni", skuPrefix: "CLE", marksOnRequest: false },
  { slug: "fisher-price", name: "Fisher-Price", skuPrefix: "FIS", marksOnRequest: false },
  { slug: "trudi", name: "Trudi", skuPrefix: "TRU", marksOnRequest: false },
  { slug: "pali", name: "Pali", skuPrefix: "PAL", marksOnRequest: false },
  { slug: "italbaby", name: "Italbaby", skuPrefix: "ITB", marksOnRequest: false },
  { slug: "picci", name: "Picci", skuPrefix: "PIC", marksOnRequest: false },
  { slug: "plasmon", name: "Plasmon", skuPrefix: "PLA", marksOnRequest: false },
  // The shop's own handmade line (bows, embroidery, engraved gifts).
  { slug: "bimbi-felici", name: "Bimbi Felici", skuPrefix: "BFE", marksOnRequest: false },
  // Brand-like tags of the original shop: products carrying them are sold on request only.
  { slug: "chicco-edition", name: "Chicco edition", skuPrefix: "CHE", marksOnRequest: true },
  { slug: "cam-linea-solo-per-te", name: "Cam - linea solo per te", skuPrefix: "CSP", marksOnRequest: true },
];

export type SampleVariant = {
  colour: SampleColour | null;
  size: string;
  sku: string;
  stock: number;
  isPreorder: boolean;
  preorderDays: number | null;
};

export type SampleImage = { key: string; colour: SampleColour | null; position: number; altIt: string; altEn: string };

export type SampleProduct = {
  id: number;
  sku: string;
  nameIt: string;
  nameEn: string;
  shortDescriptionIt: string;
  shortDescriptionEn: string;
  fullDescriptionIt: string;
  fullDescriptionEn: string;
  priceCents: number;
  discountPercent: number;
  offerEndsAt: Date | null;
  isNew: boolean;
  isFreeShipping: boolean;
  rating: number;
  saleCount: number;
  isOnRequest: boolean;
  categorySlug: CategorySlug;
  subcategorySlug: SubcategorySlug;
  /** The first is the product's brand. */
  brandSlugs: readonly SampleBrandSlug[];
  colours: readonly SampleColour[];
  variants: readonly SampleVariant[];
  images: readonly SampleImage[];
  personalisation: SamplePersonalisation | null;
  sheet: { lengthMm: number; widthMm: number; heightMm: number; weightGrams: number; materialIt: string; materialEn: string } | null;
  affiliateUrl: string | null;
  vatRatePercent: number;
  isLoyaltyExcluded: boolean;
  relatedIds: readonly number[];
};

export const imagesPerSampleProduct = 5;

const colourCodes: Record<SampleColour, string> = { white: "WH", black: "BK", brown: "BR", blue: "BL" };
const colourNames: Record<SampleColour, readonly [it: string, en: string]> = {
  white: ["bianco", "white"],
  black: ["nero", "black"],
  brown: ["marrone", "brown"],
  blue: ["blu", "blue"],
};

/** mulberry32: a tiny, well-distributed 32-bit generator; the same seed always gives the same run. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickInt(random: () => number, min: number, max: number) {
  return min + Math.floor(random() * (max - min + 1));
}

function toSizeCode(size: string) {
  return size === oneSize ? "TU" : size.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

function buildVariants(input: SampleProductInput, productSku: string, random: () => number): SampleVariant[] {
  const colours: (SampleColour | null)[] = input.colours ? [...input.colours] : [null];
  const sizes = input.sizes ?? [oneSize];
  const isSimple = colours.length === 1 && colours[0] === null && sizes.length === 1;
  return colours.flatMap((colour) =>
    sizes.map((sizeEntry) => {
      const size = typeof sizeEntry === "string" ? sizeEntry : sizeEntry.name;
      const preorderDays = typeof sizeEntry === "string" ? null : sizeEntry.preorderDays;
      const codes = [colour ? colourCodes[colour] : null, toSizeCode(size)].filter(Boolean).join("-");
      // About one variant in ten is sold out; pre-order sizes always have places left to book.
      const roll = random();
      const stock = input.isSoldOut ? 0 : preorderDays ? pickInt(random, 5, 20) : roll < 0.1 ? 0 : pickInt(random, 1, 60);
      return {
        colour,
        size,
        sku: isSimple ? productSku : `${productSku}-${codes}`,
        stock,
        isPreorder: preorderDays !== null,
        preorderDays,
      };
    }),
  );
}

function buildImages(input: SampleProductInput): SampleImage[] {
  const pictured: (SampleColour | null)[] = input.colours ? input.colours.filter((colour) => colour !== input.colourWithoutImages) : [null];
  return Array.from({ length: imagesPerSampleProduct }, (_, index) => {
    // Consecutive pictures per colour, so each colour's gallery reads in order.
    const colour = pictured[Math.floor((index * pictured.length) / imagesPerSampleProduct)] ?? null;
    const [colourIt, colourEn] = colour ? colourNames[colour] : [null, null];
    return {
      key: `sample-${input.id}-${index + 1}`,
      colour,
      position: index,
      altIt: [input.it[0], colourIt && `colore ${colourIt}`, index > 0 && `foto ${index + 1}`].filter(Boolean).join(", "),
      altEn: [input.en[0], colourEn && `${colourEn}`, index > 0 && `photo ${index + 1}`].filter(Boolean).join(", "),
    };
  });
}

function buildProduct(input: SampleProductInput): Omit<SampleProduct, "relatedIds"> {
  const category = findCategoryOfSubcategory(input.subcategory);
  if (!category) throw new Error(`Sample product ${input.id}: unknown subcategory ${input.subcategory}`);
  const brands = input.brands.map((slug) => sampleBrands.find((brand) => brand.slug === slug));
  if (brands.some((brand) => !brand)) throw new Error(`Sample product ${input.id}: unknown brand in ${input.brands.join(", ")}`);
  const mainBrand = brands[0]!;
  const random = createSeededRandom(input.id * 7919);
  const sku = `${mainBrand.skuPrefix}-${String(input.id).padStart(5, "0")}`;
  const ratingRoll = random();
  const [lengthMm, widthMm, heightMm, weightGrams, material] = input.sheet ?? [];
  return {
    id: input.id,
    sku,
    nameIt: input.it[0],
    nameEn: input.en[0],
    shortDescriptionIt: input.it[1],
    shortDescriptionEn: input.en[1],
    fullDescriptionIt: input.it[2],
    fullDescriptionEn: input.en[2],
    priceCents: input.priceCents,
    discountPercent: input.discount ?? 0,
    offerEndsAt: input.offerEndsAt ? new Date(input.offerEndsAt) : null,
    isNew: input.isNew ?? random() < 0.12,
    isFreeShipping: input.isFreeShipping ?? random() < 0.15,
    rating: ratingRoll < 0.08 ? 2 : ratingRoll < 0.25 ? 3 : ratingRoll < 0.6 ? 4 : 5,
    saleCount: Math.floor(random() ** 2 * 400),
    isOnRequest: brands.some((brand) => brand!.marksOnRequest),
    categorySlug: category.slug as CategorySlug,
    subcategorySlug: input.subcategory,
    brandSlugs: input.brands,
    colours: input.colours ?? [],
    variants: buildVariants(input, sku, random),
    images: buildImages(input),
    personalisation: input.personalisation ?? null,
    sheet:
      material === undefined
        ? null
        : {
            lengthMm: lengthMm!,
            widthMm: widthMm!,
            heightMm: heightMm!,
            weightGrams: weightGrams!,
            materialIt: materials[material][0],
            materialEn: materials[material][1],
          },
    affiliateUrl: input.affiliateAsin ? `https://www.amazon.it/dp/${input.affiliateAsin}` : null,
    vatRatePercent: input.vatRatePercent ?? standardVatRatePercent,
    isLoyaltyExcluded: input.isLoyaltyExcluded ?? false,
  };
}

/** Products of the same subcategory first, then of the same category: what a shop assistant would suggest. */
function pickRelatedIds(product: Omit<SampleProduct, "relatedIds">, all: readonly Omit<SampleProduct, "relatedIds">[]) {
  const random = createSeededRandom(product.id * 104729);
  const shuffle = <T>(list: T[]) =>
    list
      .map((item) => ({ item, order: random() }))
      .sort((a, b) => a.order - b.order)
      .map(({ item }) => item);
  const others = all.filter((other) => other.id !== product.id);
  const sameSubcategory = shuffle(others.filter((other) => other.subcategorySlug === product.subcategorySlug));
  const sameCategory = shuffle(
    others.filter((other) => other.categorySlug === product.categorySlug && other.subcategorySlug !== product.subcategorySlug),
  );
  const count = pickInt(random, 4, 6);
  return [...sameSubcategory.slice(0, 3), ...sameCategory].slice(0, count).map((other) => other.id);
}

function buildSampleCatalogue(inputs: readonly SampleProductInput[]): SampleProduct[] {
  const products = inputs.map(buildProduct).sort((a, b) => a.id - b.id);
  return products.map((product) => ({
    ...product,
    relatedIds: pickRelatedIds(product, products),
  }));
}

export const sampleCatalogue: readonly SampleProduct[] = buildSampleCatalogue([
  ...strollerProducts,
  ...carryAndTravelProducts,
  ...bathProducts,
  ...cribProducts,
  ...beddingProducts,
  ...storageProducts,
  ...decorProducts,
  ...carSeatAndMonitorProducts,
  ...homeSafetyProducts,
  ...toyProducts,
  ...activePlayProducts,
  ...clothingProducts,
  ...feedingProducts,
  ...mealtimeProducts,
  ...seatingProducts,
  ...bundleProducts,
]);
