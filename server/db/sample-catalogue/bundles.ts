import type { SampleColour } from "./define";
import { defineProducts } from "./define";

/**
 * The sample bundles (docs/decisions/0100-bundles.md): products of their own, with no stock of their own
 * (`isSoldOut`: their combinations have what their parts allow), made of sample products.
 */
export const bundleProducts = defineProducts([
  {
    id: 300,
    subcategory: "passeggini-trio-e-duo",
    brands: ["chicco"],
    it: [
      "Trio Goody: passeggino, navicella e ovetto",
      "Il passeggino Goody Xplus con navicella Aptica e ovetto Cloud T, nello stesso colore, a un prezzo speciale.",
      "Tutto per i primi anni a spasso: il passeggino leggero Chicco Goody Xplus, la navicella Inglesina Aptica per i primi mesi e l'ovetto Cybex Cloud T i-Size per l'auto. Scegli il colore: i tre pezzi arrivano abbinati.",
    ],
    en: [
      "Goody travel system: stroller, carrycot and car seat",
      "The Goody Xplus stroller with the Aptica carrycot and the Cloud T car seat, in one colour, at a special price.",
      "Everything for the first years out and about: the Chicco Goody Xplus lightweight stroller, the Inglesina Aptica carrycot for the first months and the Cybex Cloud T i-Size car seat. Pick the colour: the three pieces come matched.",
    ],
    priceCents: 89900,
    colours: ["black", "blue"],
    isSoldOut: true,
  },
  {
    id: 301,
    subcategory: "vaschette-da-bagno",
    brands: ["brevi"],
    it: [
      "Set bagnetto",
      "Vaschetta ergonomica, termometro paperella, spazzola e pettine e kit manicure: il 15% in meno che presi uno per uno.",
      "Il necessario per il bagnetto del neonato in un'unica confezione: la vaschetta anatomica con seduta antiscivolo, il termometro da bagno a forma di paperella, spazzola e pettine in legno di faggio e il kit manicure con forbicine a punta tonda.",
    ],
    en: [
      "Bath time set",
      "Ergonomic bath, duck thermometer, brush and comb and manicure kit: 15% less than bought one by one.",
      "What a newborn's bath needs in one box: the anatomical bath with a non-slip seat, the duck bath thermometer, a beech wood brush and comb and the manicure kit with round-tipped scissors.",
    ],
    priceCents: 5660,
    colours: ["white", "blue"],
    isSoldOut: true,
  },
]);

export type SampleBundle = {
  productId: number;
  priceRule: "fixed" | "percent_off";
  fixedPriceCents: number | null;
  percentOff: number;
  parts: readonly { productId: number; quantity: number }[];
  /** Per colour of the bundle, the colour of each part (null: a part without colours). */
  options: readonly { colour: SampleColour; partColours: readonly (SampleColour | null)[] }[];
};

export const sampleBundles: readonly SampleBundle[] = [
  {
    productId: 300,
    priceRule: "fixed",
    fixedPriceCents: 89900,
    percentOff: 0,
    parts: [
      { productId: 24, quantity: 1 },
      { productId: 37, quantity: 1 },
      { productId: 121, quantity: 1 },
    ],
    options: [
      { colour: "black", partColours: ["black", "black", "black"] },
      { colour: "blue", partColours: ["blue", "blue", "blue"] },
    ],
  },
  {
    productId: 301,
    priceRule: "percent_off",
    fixedPriceCents: null,
    percentOff: 15,
    parts: [
      { productId: 64, quantity: 1 },
      { productId: 71, quantity: 1 },
      { productId: 74, quantity: 1 },
      { productId: 72, quantity: 1 },
    ],
    options: [
      { colour: "white", partColours: ["white", null, null, null] },
      { colour: "blue", partColours: ["blue", null, null, null] },
    ],
  },
];
