// The catalogue Vendure is given for bench/vendure-side-by-side.mjs, shaped like the shop's generated one
// (lib/scale-catalogue.ts): its seven categories as collections, products named from the same words, one or
// two variants each, a price and a description of the same length. Written as Vendure's product import CSV.
import { productAdjectives, productNouns } from "./catalogue-words.ts";

/** The shop's categories (server/catalog/taxonomy.ts) as Vendure collections: the slug is the shop's, lower case. */
export const collections = [
  { name: "A spasso", slug: "a-spasso" },
  { name: "Bagnetto", slug: "bagnetto" },
  { name: "Arredamento", slug: "arredamento" },
  { name: "Sicurezza", slug: "sicurezza" },
  { name: "Gioco e relax", slug: "gioco-e-relax" },
  { name: "Abbigliamento", slug: "abbigliamento" },
  { name: "Pappa", slug: "pappa" },
];

/** Product `n`'s slug in Vendure. */
export const productSlug = (n) => `prodotto-${n}`;

/** A deterministic number in [0, modulo) for product `n` and `salt`: the same catalogue on every run. */
function pick(n, salt, modulo) {
  let hash = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x27d4eb2f);
  hash ^= hash >>> 13;
  return (hash >>> 0) % modulo;
}

const csvField = (value) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Vendure's import CSV of `count` products: product n in collection (n - 1) % 7, one variant or two sizes. */
export function productsCsv(count) {
  const header =
    "name,slug,description,assets,facets,optionGroups,optionValues,sku,price,taxCategory,stockOnHand,trackInventory,variantAssets,variantFacets";
  const lines = [header];
  const description = "Descrizione completa del prodotto, materiali e istruzioni di sicurezza. ".repeat(8).trim();
  for (let n = 1; n <= count; n += 1) {
    const collection = collections[(n - 1) % collections.length];
    const noun = productNouns[pick(n, 1, productNouns.length)][0];
    const adjective = productAdjectives[pick(n, 2, productAdjectives.length)][0];
    const brand = `Marca ${1 + pick(n, 3, 180)}`;
    const model = `${String.fromCharCode(65 + pick(n, 4, 26))}${pick(n, 5, 100)}`;
    const name = `${noun} ${adjective} ${brand} ${model}`;
    const price = (5 + pick(n, 6, 150_000) / 100).toFixed(2);
    const facets = `categoria:${collection.name}|marca:${brand}`;
    const sizes = pick(n, 7, 2) === 0 ? [] : ["S", "M"];
    const first = [
      name,
      productSlug(n),
      description,
      "",
      facets,
      sizes.length ? "taglia" : "",
      sizes[0] ?? "",
      `V-${n}-1`,
      price,
      "standard",
      "100",
      "false",
      "",
      "",
    ];
    lines.push(first.map(csvField).join(","));
    if (sizes.length) lines.push(["", "", "", "", "", "", sizes[1], `V-${n}-2`, price, "standard", "100", "false", "", ""].map(csvField).join(","));
  }
  return `${lines.join("\n")}\n`;
}
