import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { onTestFinished, expect, test } from "vitest";
import { validateXML } from "xmllint-wasm";
import { isValidGtin } from "#server/catalog/gtin.ts";
import type { Db } from "#server/db/client.ts";
import { brands, productBrands, productColours, productImages, productPriceHistory, products, productVariants } from "#server/db/schema.ts";
import { seedSampleCatalogue } from "#server/db/seed.ts";
import { createTestDb } from "#tests/db.ts";
import { createProduct, tagOnRequest } from "#tests/fixtures/cart.fixtures.ts";
import { RecallInput } from "#server/product-safety/product-safety.inputs.ts";
import { recallProduct } from "#server/product-safety/recall.service.ts";
import { setProductSpecs } from "#server/catalog/product-specs.service.ts";
import { getMerchantFeedXml } from "./merchant-feed.service";

const now = new Date("2026-11-20T10:00:00Z");
const publicUrl = "https://www.bimbifelici.example";

const schemaFile = (name: string) => ({
  fileName: name,
  contents: readFileSync(new URL(`../../tests/fixtures/google-merchant/${name}`, import.meta.url)),
});

/** The feed against the specification's schema (tests/fixtures/google-merchant), then the rules a schema cannot say. */
async function validateFeed(xml: string) {
  const result = await validateXML({
    xml: { fileName: "feed.xml", contents: xml },
    schema: schemaFile("rss-feed.xsd"),
    preload: [schemaFile("google-product.xsd")],
  });
  const errors = result.errors.map((error) => error.message);
  const items = itemsOf(xml);
  const ids = new Set<string>();
  for (const item of items) {
    const id = item.id!;
    if (ids.has(id)) errors.push(`${id}: the id is used twice`);
    ids.add(id);
    if (item.availability === "preorder" && !item.availability_date) errors.push(`${id}: a pre-order needs its availability_date`);
    if (item.sale_price && parseFloat(item.sale_price) >= parseFloat(item.price!)) errors.push(`${id}: the sale price is not below the price`);
    if (item.sale_price_effective_date && !item.sale_price) errors.push(`${id}: a sale period without a sale price`);
    if (item.sale_price_effective_date) {
      const [from, to] = item.sale_price_effective_date.split("/");
      if (!(Date.parse(from!) < Date.parse(to!))) errors.push(`${id}: the sale ends before it starts`);
    }
    if (item.gtin && !isValidGtin(item.gtin)) errors.push(`${id}: GTIN ${item.gtin} fails its check digit`);
    if (!item.gtin && !item.mpn && item.identifier_exists !== "no") errors.push(`${id}: without a GTIN or MPN, identifier_exists must be "no"`);
    if ((item.gtin || item.mpn) && item.identifier_exists === "no") errors.push(`${id}: a GTIN or MPN with identifier_exists "no"`);
    if (item.item_group_id && !(item.color || item.size)) errors.push(`${id}: a variant of a group names its colour or size`);
  }
  return { errors, items };
}

type FeedItem = Record<string, string | undefined> & { additional_image_link?: string };

function unescapeXml(text: string) {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

function itemsOf(xml: string): FeedItem[] {
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, body]) => {
    const item: FeedItem = {};
    for (const [, name, value] of body!.matchAll(/<g:([a-z_]+)>([^<]*)<\/g:\1>/g)) item[name!] ??= unescapeXml(value!);
    return item;
  });
}

async function openDb(): Promise<Db> {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

test("the sample catalogue's feed validates in both languages, one item per colour and size with a picture", { timeout: 90_000 }, async () => {
  const db = await openDb();
  await seedSampleCatalogue(db, { now });
  for (const locale of ["it", "en"] as const) {
    const { errors, items } = await validateFeed(await getMerchantFeedXml(db, { locale, publicUrl, now }));
    expect(errors).toEqual([]);
    expect(items.length).toBeGreaterThan(300);
    expect(items.some((item) => item.availability === "out_of_stock")).toBe(true);
    expect(items.some((item) => item.sale_price)).toBe(true);
    // The sample seats and strollers carry their specifications.
    expect(items.some((item) => item.age_group === "newborn" && item.attribute_name)).toBe(true);
    expect(items.some((item) => item.product_weight)).toBe(true);
    const english = locale === "en";
    expect(items.every((item) => item.link!.startsWith(`${publicUrl}${english ? "/en" : ""}/product/`))).toBe(true);
  }
});

test("an item carries its colour and size in the link and title, its offer and its period, a pre-order's date and the GTIN", async () => {
  const db = await openDb();
  const offerEnds = new Date("2026-12-08T23:00:00Z");
  const body = await createProduct(db, {
    nameIt: "Body in cotone",
    nameEn: "Cotton bodysuit",
    priceCents: 1990,
    discountPercent: 20,
    offerEndsAt: offerEnds,
    variants: [
      { colour: "white", size: "m", stock: 3 },
      { colour: "white", size: "xl", stock: 0 },
      { colour: "blue", size: "m", stock: 2, isPreorder: true, preorderDays: 10 },
    ],
  });
  await db.update(productVariants).set({ gtin: "8001234567897" }).where(eq(productVariants.id, body.variantIds[0]!));
  const [white] = await db.select({ id: productColours.id }).from(productColours).where(eq(productColours.colour, "white"));
  await db.insert(productImages).values([
    { productId: body.productId, colourId: white!.id, storageKey: "body-white-1", width: 800, height: 800 },
    { productId: body.productId, colourId: white!.id, storageKey: "body-white-2", width: 800, height: 800, position: 1 },
    { productId: body.productId, colourId: null, storageKey: "body-all", width: 800, height: 800 },
  ]);
  const [brand] = await db.insert(brands).values({ slug: "chicco", name: "Chicco" }).returning({ id: brands.id });
  await db.insert(productBrands).values({ productId: body.productId, brandId: brand!.id });
  // The price history: full price until 1 November, the offer since.
  await db.insert(productPriceHistory).values([
    { productId: body.productId, priceCents: 1990, effectivePriceCents: 1990, recordedAt: new Date("2026-10-01T08:00:00Z") },
    { productId: body.productId, priceCents: 1990, effectivePriceCents: 1592, recordedAt: new Date("2026-11-01T08:00:00Z") },
  ]);
  await db.update(products).set({ isFreeShipping: true }).where(eq(products.id, body.productId));

  // Left out: on request, unpublished, sold through an affiliate link, without any picture.
  const onRequest = await createProduct(db, { nameIt: "Su richiesta" });
  await tagOnRequest(db, onRequest.productId);
  const draft = await createProduct(db, { nameIt: "Bozza", isPublished: false });
  const affiliate = await createProduct(db, { nameIt: "Affiliato" });
  await db.update(products).set({ affiliateUrl: "https://partner.example/p/1" }).where(eq(products.id, affiliate.productId));
  await createProduct(db, { nameIt: "Senza foto" });
  for (const other of [onRequest, draft, affiliate])
    await db
      .insert(productImages)
      .values({ productId: other.productId, colourId: null, storageKey: `p-${other.productId}`, width: 800, height: 800 });

  const xml = await getMerchantFeedXml(db, { locale: "it", publicUrl, now });
  const { errors, items } = await validateFeed(xml);
  expect(errors).toEqual([]);
  expect(items.map((item) => item.title)).toEqual(["Body in cotone - Bianco, M", "Body in cotone - Bianco, XL", "Body in cotone - Blu, M"]);
  const [whiteM, whiteXl, blueM] = items;
  expect(whiteM).toMatchObject({
    link: `${publicUrl}/product/${body.productId}?colour=white&size=m`,
    image_link: `${publicUrl}/media/products/body-white-1-800.webp`,
    additional_image_link: `${publicUrl}/media/products/body-white-2-800.webp`,
    availability: "in_stock",
    price: "19.90 EUR",
    sale_price: "15.92 EUR",
    sale_price_effective_date: "2026-11-01T08:00Z/2026-12-08T23:00Z",
    brand: "Chicco",
    gtin: "8001234567897",
    condition: "new",
    color: "Bianco",
    size: "M",
  });
  expect(xml).toContain("<g:country>IT</g:country>");
  expect(xml).toContain("<g:price>0.00 EUR</g:price>");
  expect(whiteXl).toMatchObject({ availability: "out_of_stock", identifier_exists: "no", item_group_id: whiteM!.item_group_id });
  // Blue has no picture of its own: the product's picture; a pre-order ships in 10 days.
  expect(blueM).toMatchObject({
    image_link: `${publicUrl}/media/products/body-all-800.webp`,
    availability: "preorder",
    availability_date: "2026-11-30T10:00Z",
  });

  const english = itemsOf(await getMerchantFeedXml(db, { locale: "en", publicUrl, now }));
  expect(english.map((item) => [item.title, item.link])).toEqual([
    ["Cotton bodysuit - White, M", `${publicUrl}/en/product/${body.productId}?colour=white&size=m`],
    ["Cotton bodysuit - White, XL", `${publicUrl}/en/product/${body.productId}?colour=white&size=xl`],
    ["Cotton bodysuit - Blue, M", `${publicUrl}/en/product/${body.productId}?colour=blue&size=m`],
  ]);
});

test("a recalled variant leaves the feed; the model number is the MPN next to the brand and GTIN", async () => {
  const db = await openDb();
  const seat = await createProduct(db, {
    nameIt: "Seggiolino auto",
    variants: [
      { colour: "black", stock: 4 },
      { colour: "grey", stock: 4 },
    ],
  });
  await db.update(products).set({ modelNumber: "SA-1200" }).where(eq(products.id, seat.productId));
  await db.update(productVariants).set({ gtin: "8001234567897" }).where(eq(productVariants.id, seat.variantIds[0]!));
  await db.insert(productImages).values({ productId: seat.productId, colourId: null, storageKey: "seat", width: 800, height: 800 });
  const [brand] = await db.insert(brands).values({ slug: "chicco", name: "Chicco" }).returning({ id: brands.id });
  await db.insert(productBrands).values({ productId: seat.productId, brandId: brand!.id });
  const plain = await createProduct(db, { nameIt: "Bavaglino" });
  await db.insert(productImages).values({ productId: plain.productId, colourId: null, storageKey: "bib", width: 800, height: 800 });

  const before = await validateFeed(await getMerchantFeedXml(db, { locale: "it", publicUrl, now }));
  expect(before.errors).toEqual([]);
  expect(before.items.map((item) => [item.title, item.brand, item.gtin, item.mpn, item.identifier_exists])).toEqual([
    ["Seggiolino auto - Nero", "Chicco", "8001234567897", "SA-1200", undefined],
    ["Seggiolino auto - Grigio", "Chicco", undefined, "SA-1200", undefined],
    ["Bavaglino", undefined, undefined, undefined, "no"],
  ]);

  const notice = RecallInput.parse({
    variantIds: [String(seat.variantIds[1]!)],
    hazardIt: "La fibbia può aprirsi in un urto.",
    hazardEn: "The buckle may open in a crash.",
    whatToDoIt: "Smettere subito di usare il seggiolino.",
    whatToDoEn: "Stop using the seat at once.",
    remedyIt: "Rimborso completo.",
    remedyEn: "Full refund.",
  });
  expect((await recallProduct(db, { productId: seat.productId, input: notice, actorUserId: null })).ok).toBe(true);
  for (const locale of ["it", "en"] as const) {
    const after = await validateFeed(await getMerchantFeedXml(db, { locale, publicUrl, now }));
    expect(after.errors).toEqual([]);
    expect(after.items.map((item) => item.id)).toEqual([before.items[0]!.id, before.items[2]!.id]);
  }
});

test("a seat's and a stroller's specifications: age group, the stroller's weight and a product detail per line, in the feed's language", async () => {
  const db = await openDb();
  const empty = { statureMinCm: null, statureMaxCm: null, r44Group: null, hasIsofix: null, rotates360: null, ageMinMonths: null, ageMaxMonths: null };
  const none = { maxChildWeightGrams: null, weightGrams: null, foldedLengthCm: null, foldedWidthCm: null, foldedHeightCm: null };
  const seat = await createProduct(db, { nameIt: "Seggiolino girevole", nameEn: "Swivel seat" });
  await setProductSpecs(db, {
    productId: seat.productId,
    specs: {
      ...empty,
      ...none,
      kind: "car_seat",
      statureMinCm: 76,
      statureMaxCm: 150,
      hasIsofix: true,
      ageMinMonths: 15,
      ageMaxMonths: 144,
      isFromBirth: null,
      isCarrycotCompatible: null,
    },
    actorUserId: null,
  });
  const stroller = await createProduct(db, { nameIt: "Passeggino leggero", nameEn: "Light stroller" });
  await setProductSpecs(db, {
    productId: stroller.productId,
    specs: {
      ...empty,
      ...none,
      kind: "stroller",
      weightGrams: 7200,
      foldedLengthCm: 54,
      foldedWidthCm: 44,
      foldedHeightCm: 25,
      isFromBirth: true,
      isCarrycotCompatible: null,
    },
    actorUserId: null,
  });
  const plain = await createProduct(db, { nameIt: "Sonaglio" });
  for (const { productId } of [seat, stroller, plain])
    await db.insert(productImages).values({ productId, colourId: null, storageKey: `p-${productId}`, width: 800, height: 800 });

  const xml = await getMerchantFeedXml(db, { locale: "it", publicUrl, now });
  const { errors, items } = await validateFeed(xml);
  expect(errors).toEqual([]);
  expect(items.map((item) => [item.title, item.age_group, item.product_weight])).toEqual([
    ["Seggiolino girevole", "toddler", undefined],
    ["Passeggino leggero", "newborn", "7.2 kg"],
    ["Sonaglio", undefined, undefined],
  ]);
  const detailsOf = (feed: string, title: string) => {
    const item = feed.split("<item>").find((body) => body.includes(`<g:title>${title}</g:title>`))!;
    return [...item.matchAll(/<g:attribute_name>([^<]*)<\/g:attribute_name>\s*<g:attribute_value>([^<]*)<\/g:attribute_value>/g)].map(
      ([, name, value]) => `${name}: ${value}`,
    );
  };
  expect(xml).toContain("<g:section_name>Caratteristiche</g:section_name>");
  expect(detailsOf(xml, "Seggiolino girevole")).toEqual([
    "Altezza del bambino (i-Size, ECE R129): 76–150 cm",
    "ISOFIX: Sì",
    "Età del bambino: 15–144 mesi",
  ]);
  expect(detailsOf(xml, "Passeggino leggero")).toEqual([
    "Peso del passeggino: 7,2 kg",
    "Ingombro da chiuso (L × P × A): 54 × 44 × 25 cm",
    "Utilizzabile dalla nascita: Sì",
  ]);
  expect(detailsOf(xml, "Sonaglio")).toEqual([]);
  const english = await getMerchantFeedXml(db, { locale: "en", publicUrl, now });
  expect((await validateFeed(english)).errors).toEqual([]);
  expect(detailsOf(english, "Light stroller")[0]).toBe("Stroller weight: 7.2 kg");
});

test("a feed with a broken rule fails validation: the check can fail", async () => {
  const db = await openDb();
  const product = await createProduct(db, { nameIt: "Culla", variants: [{ isPreorder: true, preorderDays: 5, stock: 1 }] });
  await db.insert(productImages).values({ productId: product.productId, colourId: null, storageKey: "culla", width: 800, height: 800 });
  const xml = await getMerchantFeedXml(db, { locale: "it", publicUrl, now });
  expect((await validateFeed(xml)).errors).toEqual([]);
  const broken = xml
    .replace(/<g:availability_date>[^<]*<\/g:availability_date>\n/, "")
    .replace("<g:condition>new</g:condition>", "<g:condition>nuovo</g:condition>");
  const { errors } = await validateFeed(broken);
  expect(errors.some((error) => error.includes("condition"))).toBe(true);
  expect(errors.some((error) => error.includes("availability_date"))).toBe(true);
});
