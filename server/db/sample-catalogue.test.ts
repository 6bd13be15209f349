import { expect, test } from "vitest";
import { imageKeyPattern } from "#common/media.ts";
import { activeDiscountPercent } from "#server/money.ts";
import { createSeededRandom, imagesPerSampleProduct, oneSize, sampleBrands, sampleCatalogue } from "./sample-catalogue";
import { offersCategorySlug, taxonomy } from "#server/catalog/taxonomy.ts";

const allVariants = sampleCatalogue.flatMap((product) => product.variants);
/** Fixed, so the test does not start failing when the sample offers of 2027 end. */
const referenceDate = new Date("2026-12-01T00:00:00Z");

test("the category tree has the shop's eight categories and every subcategory slug, spelled as in the old links", () => {
  expect(taxonomy.map((category) => category.slug)).toEqual([
    "A-spasso",
    "Bagnetto",
    "arredamento",
    "sicurezza",
    "gioco-e-relax",
    "offerte",
    "abbigliamento",
    "pappa",
  ]);
  const subcategorySlugs = taxonomy.flatMap((category) => category.subcategories.map((sub) => sub.slug));
  expect(new Set(subcategorySlugs).size).toBe(subcategorySlugs.length);
  for (const slug of [
    "passeggini-leggeri",
    "Carrozzine-e-navicelle",
    "igiene",
    "Culle-per-neonati",
    "paraspigoli",
    "seggioliniauto",
    "Asciugamani",
    "Tutine-Body",
    "Copertine-Carrozzine",
    "alazasedia",
    "sediolini-da-tavolo",
    "accessori-per-la-dentizione",
  ]) {
    expect(subcategorySlugs).toContain(slug);
  }
  expect(subcategorySlugs).toHaveLength(45);
  expect(taxonomy.find((category) => category.slug === "offerte")?.subcategories).toEqual([]);
});

test("ids start at 24 and ids and SKUs are unique, per product and per variant", () => {
  const ids = sampleCatalogue.map((product) => product.id);
  expect(sampleCatalogue.length).toBeGreaterThanOrEqual(160);
  expect(Math.min(...ids)).toBe(24);
  expect(new Set(ids).size).toBe(ids.length);
  const productSkus = sampleCatalogue.map((product) => product.sku);
  expect(new Set(productSkus).size).toBe(productSkus.length);
  const variantSkus = allVariants.map((variant) => variant.sku);
  expect(new Set(variantSkus).size).toBe(variantSkus.length);
});

test("every category has products and every subcategory at least two", () => {
  for (const category of taxonomy) {
    if (category.slug === offersCategorySlug) continue;
    expect(sampleCatalogue.filter((product) => product.categorySlug === category.slug).length, category.slug).toBeGreaterThan(0);
    for (const sub of category.subcategories) {
      expect(sampleCatalogue.filter((product) => product.subcategorySlug === sub.slug).length, sub.slug).toBeGreaterThanOrEqual(2);
    }
  }
  const onOffer = sampleCatalogue.filter((product) => activeDiscountPercent(product.discountPercent, product.offerEndsAt, referenceDate) > 0);
  expect(onOffer.length).toBeGreaterThanOrEqual(10);
});

test("discounts cover every value of the original data, with running and ended offers", () => {
  const discounts = new Set(sampleCatalogue.map((product) => product.discountPercent));
  expect([...discounts].sort((a, b) => a - b)).toEqual([0, 5, 10, 15, 20, 30, 40, 45, 50]);
  const offerEnds = sampleCatalogue.flatMap((product) => (product.offerEndsAt ? [product.offerEndsAt] : []));
  expect(offerEnds.some((date) => date.getUTCFullYear() === 2020 && date.getUTCMonth() === 9)).toBe(true);
  expect(offerEnds.some((date) => date.getUTCFullYear() === 2027)).toBe(true);
});

test("sizes include one size, letter sizes, months and bottle volumes; simple products have one colourless variant", () => {
  const sizes = new Set(allVariants.map((variant) => variant.size));
  for (const size of [oneSize, "x", "m", "xl", "xxl", "0-6 mesi", "6-18 mesi", "150ml", "250ml"]) expect(sizes).toContain(size);
  const simple = sampleCatalogue.filter((product) => product.colours.length === 0);
  expect(simple.length).toBeGreaterThan(10);
  for (const product of simple) {
    expect(product.variants).toEqual([expect.objectContaining({ colour: null, size: oneSize, sku: product.sku })]);
  }
  const colours = new Set(sampleCatalogue.flatMap((product) => product.colours));
  expect([...colours].sort()).toEqual(["black", "blue", "brown", "white"]);
});

test("stock runs from 0 to 60, with sold-out variants, sold-out products and pre-orders", () => {
  expect(allVariants.every((variant) => variant.stock >= 0 && variant.stock <= 60)).toBe(true);
  const soldOutShare = allVariants.filter((variant) => variant.stock === 0).length / allVariants.length;
  expect(soldOutShare).toBeGreaterThan(0.05);
  expect(soldOutShare).toBeLessThan(0.2);
  expect(sampleCatalogue.filter((product) => product.variants.every((variant) => variant.stock === 0)).length).toBeGreaterThanOrEqual(2);
  const preorders = allVariants.filter((variant) => variant.isPreorder);
  expect(preorders.length).toBeGreaterThan(3);
  for (const variant of preorders) {
    expect(variant.preorderDays).toBeGreaterThanOrEqual(7);
    expect(variant.preorderDays).toBeLessThanOrEqual(60);
    expect(variant.stock).toBeGreaterThan(0);
  }
});

test("personalisable products have labelled fields, a length limit, a cost and a description", () => {
  const personalisable = sampleCatalogue.filter((product) => product.personalisation);
  expect(personalisable.length).toBeGreaterThanOrEqual(8);
  for (const { personalisation } of personalisable) {
    expect(personalisation!.fields.length).toBeGreaterThan(0);
    for (const field of personalisation!.fields) {
      expect(field.labelIt && field.labelEn).toBeTruthy();
      expect(field.maxLength).toBeGreaterThan(0);
    }
    expect(personalisation!.costCents).toBeGreaterThanOrEqual(500);
    expect(personalisation!.descriptionIt && personalisation!.descriptionEn).toBeTruthy();
  }
});

test("both on-request tags are used, and exactly their products are on request", () => {
  const onRequestTags = sampleBrands.filter((brand) => brand.marksOnRequest).map((brand) => brand.slug);
  expect(onRequestTags.sort()).toEqual(["cam-linea-solo-per-te", "chicco-edition"]);
  for (const tag of onRequestTags) {
    expect(sampleCatalogue.filter((product) => product.brandSlugs.includes(tag)).length, tag).toBeGreaterThanOrEqual(2);
  }
  for (const product of sampleCatalogue) {
    expect(product.isOnRequest, String(product.id)).toBe(product.brandSlugs.some((slug) => onRequestTags.includes(slug)));
    expect(onRequestTags, "the main brand is a real brand").not.toContain(product.brandSlugs[0]);
  }
});

test("related products exist, are not the product itself and number 3 to 8", () => {
  const ids = new Set(sampleCatalogue.map((product) => product.id));
  for (const product of sampleCatalogue) {
    expect(product.relatedIds.length).toBeGreaterThanOrEqual(3);
    expect(product.relatedIds.length).toBeLessThanOrEqual(8);
    expect(product.relatedIds).not.toContain(product.id);
    expect(new Set(product.relatedIds).size).toBe(product.relatedIds.length);
    for (const id of product.relatedIds) expect(ids.has(id)).toBe(true);
  }
});

test("every product has five pictures with safe keys, and one colour has none so the placeholder shows", () => {
  const keys = sampleCatalogue.flatMap((product) => product.images.map((image) => image.key));
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.every((key) => imageKeyPattern.test(key))).toBe(true);
  for (const product of sampleCatalogue) {
    expect(product.images).toHaveLength(imagesPerSampleProduct);
    for (const image of product.images) {
      expect(image.colour === null ? true : product.colours.includes(image.colour)).toBe(true);
    }
  }
  const colourWithoutPicture = sampleCatalogue.filter((product) =>
    product.colours.some((colour) => !product.images.some((image) => image.colour === colour)),
  );
  expect(colourWithoutPicture.length).toBeGreaterThanOrEqual(1);
});

test("the rest of each product sheet is filled in like the original data", () => {
  for (const product of sampleCatalogue) {
    expect(product.rating).toBeGreaterThanOrEqual(2);
    expect(product.rating).toBeLessThanOrEqual(5);
    expect(product.priceCents).toBeGreaterThan(0);
    expect(product.nameIt && product.nameEn && product.shortDescriptionIt && product.fullDescriptionEn).toBeTruthy();
  }
  expect(sampleCatalogue.filter((product) => product.sheet).length / sampleCatalogue.length).toBeGreaterThan(0.8);
  expect(sampleCatalogue.some((product) => product.isNew)).toBe(true);
  expect(sampleCatalogue.some((product) => product.isFreeShipping)).toBe(true);
  expect(sampleCatalogue.filter((product) => product.affiliateUrl?.startsWith("https://www.amazon.it/dp/")).length).toBeGreaterThanOrEqual(3);
});

test("the seeded generator repeats itself for a seed, so every install gets the same catalogue", () => {
  const first = createSeededRandom(42);
  const second = createSeededRandom(42);
  const run = Array.from({ length: 5 }, () => first());
  expect(Array.from({ length: 5 }, () => second())).toEqual(run);
  expect(run.every((value) => value >= 0 && value < 1)).toBe(true);
  expect(createSeededRandom(43)()).not.toBe(run[0]);
});

test("infant milk, infant cereals and children's nappies are sold at 10 % VAT; car seats and everything else at 22 %", () => {
  const reduced = sampleCatalogue.filter((product) => product.vatRatePercent === 10).map((product) => product.nameIt);
  expect(reduced).toEqual([
    expect.stringMatching(/^Latte in polvere /),
    expect.stringMatching(/^Crema di riso /),
    expect.stringMatching(/^Pannolini /),
  ]);
  const others = sampleCatalogue.filter((product) => product.vatRatePercent !== 10);
  expect(new Set(others.map((product) => product.vatRatePercent))).toEqual(new Set([22]));
  expect(others.some((product) => product.subcategorySlug === "seggioliniauto")).toBe(true);
});
