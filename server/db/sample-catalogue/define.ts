/**
 * The authoring shape of the sample catalogue. Each category file lists products in this compact
 * form; sample-catalogue.ts fills in what is derived (SKUs, stock, ratings, images, relations).
 */
import type { SubcategorySlug } from "#server/catalog/taxonomy.ts";

export type SampleColour = "white" | "black" | "brown" | "blue";

/** Discount percents the original sample data used (docs/rules.md#constants). */
export type SampleDiscount = 0 | 5 | 10 | 15 | 20 | 30 | 40 | 45 | 50;

export const oneSize = "TAGLIA_UNICA";

/** A size sold as a pre-order ("prenotazione = Si"): delivered in `preorderDays`. */
export type SampleSize = string | { name: string; preorderDays: number };

export type SampleBrandSlug =
  | "chicco"
  | "cam"
  | "peg-perego"
  | "foppapedretti"
  | "inglesina"
  | "cybex"
  | "stokke"
  | "joie"
  | "babybjorn"
  | "nuvita"
  | "tommee-tippee"
  | "philips-avent"
  | "mam"
  | "nuk"
  | "brevi"
  | "reer"
  | "safety-1st"
  | "clementoni"
  | "fisher-price"
  | "trudi"
  | "pali"
  | "italbaby"
  | "picci"
  | "plasmon"
  | "bimbi-felici"
  | "chicco-edition"
  | "cam-linea-solo-per-te";

export const materials = {
  aluminium: ["Telaio in alluminio, tessuti in poliestere", "Aluminium frame, polyester fabrics"],
  steel: ["Telaio in acciaio, tessuti in poliestere", "Steel frame, polyester fabrics"],
  carSeat: ["Scocca in polipropilene con imbottitura in EPS", "Polypropylene shell with EPS padding"],
  beech: ["Legno massello di faggio, vernici all'acqua", "Solid beech wood, water-based paints"],
  pine: ["Legno di pino, vernici all'acqua atossiche", "Pine wood, non-toxic water-based paints"],
  mdf: ["Pannelli MDF con finitura atossica", "MDF panels with a non-toxic finish"],
  wicker: ["Vimini naturale e cotone", "Natural wicker and cotton"],
  cotton: ["100% cotone", "100% cotton"],
  organicCotton: ["Cotone biologico certificato GOTS", "GOTS-certified organic cotton"],
  terry: ["Spugna di puro cotone", "Pure cotton terry"],
  muslin: ["Mussola di cotone", "Cotton muslin"],
  fleece: ["Pile e cotone", "Fleece and cotton"],
  knit: ["Maglia di cotone e lana merino", "Cotton and merino wool knit"],
  foam: ["Schiuma poliuretanica, fodera in cotone sfoderabile", "Polyurethane foam, removable cotton cover"],
  polypropylene: ["Polipropilene senza BPA", "BPA-free polypropylene"],
  silicone: ["Silicone alimentare", "Food-grade silicone"],
  glass: ["Vetro borosilicato", "Borosilicate glass"],
  stainless: ["Acciaio inox", "Stainless steel"],
  rubber: ["Caucciù naturale", "Natural rubber"],
  abs: ["Plastica ABS", "ABS plastic"],
  electronics: ["Plastica ABS e componenti elettronici", "ABS plastic and electronic components"],
  metalGate: ["Acciaio verniciato e plastica", "Painted steel and plastic"],
  mesh: ["Rete in poliestere", "Polyester mesh"],
  plush: ["Peluche in poliestere ipoallergenico", "Hypoallergenic polyester plush"],
  wood: ["Legno certificato FSC", "FSC-certified wood"],
  satin: ["Raso, pizzo e tulle", "Satin, lace and tulle"],
  highChair: ["Acciaio verniciato, seduta in ecopelle", "Painted steel, faux leather seat"],
  bike: ["Telaio in acciaio, ruote in EVA", "Steel frame, EVA wheels"],
} as const satisfies Record<string, readonly [it: string, en: string]>;

export type MaterialKey = keyof typeof materials;

/** Technical sheet: length, width, height in millimetres, weight in grams, material. */
export type SampleSheet = readonly [lengthMm: number, widthMm: number, heightMm: number, weightGrams: number, material: MaterialKey];

export type SamplePersonalisation = {
  fields: readonly { labelIt: string; labelEn: string; maxLength: number }[];
  costCents: number;
  descriptionIt: string;
  descriptionEn: string;
};

export type SampleProductInput = {
  id: number;
  subcategory: SubcategorySlug;
  /** Brand tags in order: the first is the product's brand. */
  brands: readonly [SampleBrandSlug, ...SampleBrandSlug[]];
  /** Name, short description, full description. */
  it: readonly [name: string, short: string, full: string];
  en: readonly [name: string, short: string, full: string];
  priceCents: number;
  discount?: SampleDiscount;
  /** ISO date-time; an offer that has ended no longer applies. */
  offerEndsAt?: string;
  isNew?: boolean;
  isFreeShipping?: boolean;
  /** Omitted: a simple product, one variant without colour and of one size. */
  colours?: readonly SampleColour[];
  /** Sizes for every colour; omitted: one size. */
  sizes?: readonly SampleSize[];
  /** Every variant at stock 0. */
  isSoldOut?: boolean;
  /** A colour offered without pictures of its own (the shop shows the placeholder). */
  colourWithoutImages?: SampleColour;
  personalisation?: SamplePersonalisation;
  sheet?: SampleSheet;
  /** Amazon product code for the "Buy now" affiliate link. */
  affiliateAsin?: string;
  /** The VAT rate Italian law sets for the goods (docs/decisions/0092-vat-rates-of-the-sample-goods.md); omitted: 22. */
  vatRatePercent?: SampleVatRate;
  /** Infant formula: out of the loyalty card by law (docs/decisions/0099-loyalty-card.md). */
  isLoyaltyExcluded?: boolean;
};

/**
 * Rates of Tabella A of DPR 633/72 the sample goods fall under: 10 % for infant milk, infant cereal
 * preparations and children's nappies (parte III, since 1 January 2024); 22 % for everything else.
 */
export type SampleVatRate = 10 | 22;
export const standardVatRatePercent = 22;

/** Identity helper so each data file gets the authoring type checked. */
export function defineProducts(list: readonly SampleProductInput[]): readonly SampleProductInput[] {
  return list;
}
