import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { expect, onTestFinished, test } from "vitest";
import { getProductPage } from "#server/catalog/product.service.ts";
import { auditLog, productImages, productPriceHistory, products, productVariants, stockMovements } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser, productForm, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { listAudit } from "./audit.service";
import { lowestPriceOfLast30Days } from "./price-history.service";
import { ColourInput, parseProductForm, parseWith, StockAdjustmentInput, VariantInput } from "./product-admin.inputs";
import { createProduct, getProductFormValues, listAdminProducts, parseAdminProductFilters, updateProduct } from "./product-admin.service";
import { createDiskMediaStore } from "#server/media/media-store.ts";
import { addColour, addProductImage, addVariant, adjustStock, listStockMovements, maxAdminImageBytes } from "./product-stock.service";

const now = new Date("2026-03-10T10:00:00Z");
const day = 24 * 60 * 60 * 1000;
/** Several transactions per test on a busy 2-core machine. */
const slow = { timeout: 90_000 };

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await seedTaxonomy(handle.db);
  const adminId = await createAdminUser(handle.db);
  return { db: handle.db, adminId };
}

function parsed(form: Record<string, string>) {
  const result = parseProductForm(form);
  if (!result.ok) throw new Error(`form refused: ${JSON.stringify(result.errors)}`);
  return result.input;
}

function variant(values: Record<string, string>) {
  const result = parseWith(VariantInput, { colourId: "", size: "", sku: "", stock: "0", isPreorder: "", preorderDays: "", ...values });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.input;
}

test("a product with two colours and three sizes: shown in the shop, audited", slow, async () => {
  const { db, adminId } = await openShop();
  const created = await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now });
  if (!created.ok) throw new Error(JSON.stringify(created));
  const id = created.productId;
  const white = await addColour(db, { productId: id, colour: "white", actorUserId: adminId });
  const blue = await addColour(db, { productId: id, colour: "blue", actorUserId: adminId });
  if (!white?.ok || !blue?.ok) throw new Error("colours refused");
  await addVariant(db, {
    productId: id,
    input: variant({ colourId: String(white.id), size: "S", sku: "BFE-T1-W-S", stock: "4" }),
    actorUserId: adminId,
  });
  await addVariant(db, {
    productId: id,
    input: variant({ colourId: String(white.id), size: "M", sku: "BFE-T1-W-M", stock: "2" }),
    actorUserId: adminId,
  });
  await addVariant(db, {
    productId: id,
    input: variant({ colourId: String(blue.id), size: "S", sku: "BFE-T1-B-S", stock: "0", isPreorder: "on", preorderDays: "20" }),
    actorUserId: adminId,
  });

  const page = await getProductPage(db, id, "it", now);
  expect(page).toMatchObject({
    name: "Passeggino Vesuvio",
    priceCents: 19990,
    isNew: true,
    brands: [{ name: "Chicco" }],
    subcategory: { slug: "passeggini-leggeri" },
  });
  expect(page!.colours.map((colour) => colour.key)).toEqual(["white", "blue"]);
  expect(page!.variants.map((v) => [v.sku, v.stock])).toEqual([
    ["BFE-T1-W-S", 4],
    ["BFE-T1-W-M", 2],
    ["BFE-T1-B-S", 0],
  ]);
  expect((await getProductPage(db, id, "en", now))!.name).toBe("Vesuvio stroller");

  const audit = await listAudit(db, {});
  expect(audit.rows.map((row) => row.action).sort()).toEqual([
    "product.colour.add",
    "product.colour.add",
    "product.create",
    "product.variant.add",
    "product.variant.add",
    "product.variant.add",
  ]);
  expect(audit.rows.every((row) => row.actorName === "Carla Admin")).toBe(true);
  expect((await listAudit(db, { entity: "variant" })).total).toBe(3);

  // The admin list finds it by name (the catalogue's search) and by size SKU.
  const byName = await listAdminProducts(db, { ...parseAdminProductFilters(new URLSearchParams("q=passeggino")) }, "it");
  expect(byName.rows.map((row) => row.id)).toEqual([id]);
  const bySku = await listAdminProducts(db, parseAdminProductFilters(new URLSearchParams("q=BFE-T1-B-S")), "it");
  expect(bySku.rows).toMatchObject([{ id, stock: 6, variantCount: 3, lowStockCount: 2 }]);
  expect((await listAdminProducts(db, parseAdminProductFilters(new URLSearchParams("lowStock=1&published=no")), "it")).total).toBe(0);
});

test("editing keeps every field; the form shows back what was saved", slow, async () => {
  const { db, adminId } = await openShop();
  const other = await createProduct(db, { input: parsed(productForm({ sku: "OTHER-1" })), actorUserId: adminId, now });
  const created = await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now });
  if (!created.ok || !other.ok) throw new Error("setup");
  const edited = productForm({
    nameIt: "Passeggino Vesuvio Plus",
    price: "1.299,00",
    discountPercent: "10",
    offerEndsOn: "2026-03-31",
    isFreeShipping: "on",
    isOnRequest: "on",
    category: "A-spasso",
    subcategory: "passeggini-gemellari",
    brands: "Cybex, Chicco",
    related: String(other.productId),
    personalisation: "Nome | Name | 12",
    personalisationCost: "5",
    affiliateUrl: "https://example.com/buy",
  });
  const saved = await updateProduct(db, { productId: created.productId, input: parsed(edited), actorUserId: adminId, now });
  expect(saved).toEqual({ ok: true, productId: created.productId });
  const form = await getProductFormValues(db, created.productId);
  expect(form).toMatchObject({
    nameIt: "Passeggino Vesuvio Plus",
    price: "1299,00",
    discountPercent: "10",
    offerEndsOn: "2026-03-31",
    isFreeShipping: "on",
    isOnRequest: "on",
    subcategory: "passeggini-gemellari",
    brands: "Cybex, Chicco",
    related: String(other.productId),
    personalisation: "Nome | Name | 12",
    personalisationCost: "5,00",
    affiliateUrl: "https://example.com/buy",
  });
  const [update] = (await listAudit(db, { entity: "product" })).rows;
  expect(update).toMatchObject({ action: "product.update", entityId: String(created.productId) });
  expect(update!.details.priceCents).toEqual({ from: 19990, to: 129900 });
});

test("price history: every change is kept, and the lowest price of the 30 days before the reduction is shown", slow, async () => {
  const { db, adminId } = await openShop();
  const created = await createProduct(db, {
    input: parsed(productForm({ price: "100" })),
    actorUserId: adminId,
    now: new Date(now.getTime() - 40 * day),
  });
  if (!created.ok) throw new Error("setup");
  const id = created.productId;
  await updateProduct(db, {
    productId: id,
    input: parsed(productForm({ price: "90" })),
    actorUserId: adminId,
    now: new Date(now.getTime() - 20 * day),
  });
  await updateProduct(db, {
    productId: id,
    input: parsed(productForm({ price: "120" })),
    actorUserId: adminId,
    now: new Date(now.getTime() - 10 * day),
  });
  // Same price again: no new row.
  await updateProduct(db, {
    productId: id,
    input: parsed(productForm({ price: "120", nameIt: "Nuovo nome" })),
    actorUserId: adminId,
    now: new Date(now.getTime() - 5 * day),
  });
  await updateProduct(db, { productId: id, input: parsed(productForm({ price: "120", discountPercent: "25" })), actorUserId: adminId, now });
  const rows = await db.select().from(productPriceHistory).where(eq(productPriceHistory.productId, id)).orderBy(productPriceHistory.recordedAt);
  expect(rows.map((row) => [row.priceCents, row.effectivePriceCents])).toEqual([
    [10000, 10000],
    [9000, 9000],
    [12000, 12000],
    [12000, 9000],
  ]);
  expect(await lowestPriceOfLast30Days(db, id, now)).toBe(9000);
  // 45 days later the 90 euro price is out of the window before the reduction (which is the current row).
  expect(await lowestPriceOfLast30Days(db, id, new Date(now.getTime() + 45 * day))).toBe(9000);
  expect(await lowestPriceOfLast30Days(db, 999_999, now)).toBeNull();
});

test("stock adjustments with a reason, their history, and never below zero", slow, async () => {
  const { db, adminId } = await openShop();
  const created = await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now });
  if (!created.ok) throw new Error("setup");
  const added = await addVariant(db, { productId: created.productId, input: variant({ sku: "ONE-1", stock: "5" }), actorUserId: adminId });
  if (!added?.ok) throw new Error("setup");
  const adjust = (delta: string, reason: string) => {
    const input = parseWith(StockAdjustmentInput, { variantId: String(added.id), delta, reason });
    if (!input.ok) return Promise.resolve(input);
    return adjustStock(db, { productId: created.productId, input: input.input, actorUserId: adminId });
  };
  expect(await adjust("3", "Arrivo fornitore")).toEqual({ ok: true, stock: 8 });
  expect(await adjust("-2", "Pezzo danneggiato")).toEqual({ ok: true, stock: 6 });
  expect(await adjust("-7", "Errore")).toEqual({ ok: false, errors: { delta: "admin.errors.stockWouldBeNegative" } });
  expect(await adjust("0", "Niente")).toMatchObject({ ok: false, errors: { delta: "admin.errors.deltaZero" } });
  expect(await adjust("2", "")).toMatchObject({ ok: false, errors: { reason: "admin.errors.required" } });
  const history = await listStockMovements(db, created.productId);
  expect(history.map((row) => [row.delta, row.reason, row.actorName])).toEqual([
    [-2, "Pezzo danneggiato", "Carla Admin"],
    [3, "Arrivo fornitore", "Carla Admin"],
    [5, "Stock iniziale", "Carla Admin"],
  ]);
  const [row] = await db.select().from(productVariants).where(eq(productVariants.id, added.id));
  expect(row!.stock).toBe(6);
  expect((await listAudit(db, { entity: "variant" })).rows.filter((r) => r.action === "stock.adjust")).toHaveLength(2);
  // Another product's size cannot be adjusted through this product.
  const other = await createProduct(db, { input: parsed(productForm({ sku: "OTHER-2" })), actorUserId: adminId, now });
  if (!other.ok) throw new Error("setup");
  expect(
    await adjustStock(db, { productId: other.productId, input: { variantId: added.id, delta: 1, reason: "x" }, actorUserId: adminId }),
  ).toBeNull();
});

test("bad input is refused with clear messages and nothing is written", slow, async () => {
  const { db, adminId } = await openShop();
  const refused = parseProductForm(productForm({ price: "-5", discountPercent: "101", lengthMm: "-3", nameIt: "" }));
  expect(refused).toMatchObject({
    ok: false,
    errors: {
      price: "admin.errors.priceNegative",
      discountPercent: "admin.errors.discountRange",
      lengthMm: "admin.errors.sizeNegative",
      nameIt: "admin.errors.required",
    },
  });
  // A barcode is optional; typed with spaces it is kept as digits; a wrong check digit is refused.
  expect(
    parseWith(VariantInput, { colourId: "", size: "M", sku: "X-1", stock: "1", isPreorder: "", preorderDays: "", gtin: "800 1090 00001-9" }),
  ).toMatchObject({
    ok: true,
    input: { gtin: "8001090000019" },
  });
  expect(parseWith(VariantInput, { colourId: "", size: "M", sku: "X-1", stock: "1", isPreorder: "", preorderDays: "", gtin: "" })).toMatchObject({
    ok: true,
    input: { gtin: null },
  });
  expect(
    parseWith(VariantInput, { colourId: "", size: "M", sku: "X-1", stock: "1", isPreorder: "", preorderDays: "", gtin: "8001090000018" }),
  ).toMatchObject({
    ok: false,
    errors: { gtin: "admin.errors.gtinInvalid" },
  });
  expect(parseWith(VariantInput, { colourId: "", size: "M", sku: "X-1", stock: "-1", isPreorder: "", preorderDays: "" })).toMatchObject({
    ok: false,
    errors: { stock: "admin.errors.stockNegative" },
  });
  expect(parseWith(VariantInput, { colourId: "", size: "M", sku: "X-1", stock: "1", isPreorder: "on", preorderDays: "" })).toMatchObject({
    ok: false,
    errors: { preorderDays: "admin.errors.preorderDaysRequired" },
  });
  expect(parseWith(ColourInput, { colour: "<script>" })).toMatchObject({ ok: false, errors: { colour: "admin.errors.colourInvalid" } });

  const unknown = await createProduct(db, { input: parsed(productForm({ category: "giardinaggio" })), actorUserId: adminId, now });
  expect(unknown).toEqual({ ok: false, errors: { category: "admin.errors.categoryUnknown" } });
  const elsewhere = await createProduct(db, {
    input: parsed(productForm({ subcategory: "lettini", brands: "Marca Ignota" })),
    actorUserId: adminId,
    now,
  });
  expect(elsewhere).toEqual({ ok: false, errors: { subcategory: "admin.errors.subcategoryElsewhere", brands: "admin.errors.brandUnknown" } });
  expect(await db.$count(products)).toBe(0);
  expect(await db.$count(auditLog)).toBe(0);

  const first = await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now });
  expect(await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now })).toEqual({
    ok: false,
    errors: { sku: "admin.errors.skuTaken" },
  });
  if (!first.ok) throw new Error("setup");
  await addVariant(db, { productId: first.productId, input: variant({ sku: "SAME-1", stock: "1" }), actorUserId: adminId });
  expect(
    await addVariant(db, { productId: first.productId, input: variant({ size: "M", sku: "SAME-1", stock: "1" }), actorUserId: adminId }),
  ).toEqual({ ok: false, errors: { sku: "admin.errors.skuTaken" } });
  expect(await db.$count(products)).toBe(1);
  expect(await db.$count(productVariants)).toBe(1);
  expect(await db.$count(stockMovements)).toBe(1);
});

test("pictures: a real image gets its variants; 20 MB, a text file named .jpg and an SVG are refused", slow, async () => {
  const { db, adminId } = await openShop();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-admin-media-"));
  onTestFinished(() => fs.rmSync(mediaDir, { recursive: true, force: true }));
  const created = await createProduct(db, { input: parsed(productForm()), actorUserId: adminId, now });
  if (!created.ok) throw new Error("setup");
  const colour = await addColour(db, { productId: created.productId, colour: "white", actorUserId: adminId });
  if (!colour?.ok) throw new Error("setup");
  const upload = (bytes: Buffer) =>
    addProductImage(db, { productId: created.productId, colourId: colour.id, bytes, media: createDiskMediaStore(mediaDir), actorUserId: adminId });

  const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#3a7" } })
    .png()
    .toBuffer();
  const ok = await upload(png);
  expect(ok).toMatchObject({ ok: true });
  const [image] = await db
    .select()
    .from(productImages)
    .where(and(eq(productImages.productId, created.productId), eq(productImages.colourId, colour.id)));
  expect(image).toMatchObject({ width: 600, height: 400 });
  expect(fs.existsSync(path.join(mediaDir, "products", `${image!.storageKey}-320.webp`))).toBe(true);

  expect(await upload(Buffer.alloc(maxAdminImageBytes * 2, 1))).toEqual({ ok: false, errors: { image: "admin.errors.imageTooLarge" } });
  expect(await upload(Buffer.from("questo non è un jpeg, solo testo"))).toEqual({ ok: false, errors: { image: "admin.errors.imageNotImage" } });
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
  );
  expect(await upload(svg)).toEqual({ ok: false, errors: { image: "admin.errors.imageNotRaster" } });
  expect(await db.$count(productImages)).toBe(1);
  expect((await listAudit(db, {})).rows.filter((row) => row.action === "product.image.add")).toHaveLength(1);
});
