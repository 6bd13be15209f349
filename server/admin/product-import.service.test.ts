import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getProductPage } from "#server/catalog/product.service.ts";
import { auditLog, products, productVariants } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { parseCsv, toCsv } from "./csv";
import { importLegacyProducts } from "./legacy-import.service";
import { csvColumns } from "./product-csv";
import { exportProductsCsv, importProductsCsv, maxCsvRows } from "./product-csv.service";

const now = new Date("2026-03-10T10:00:00Z");
const slow = { timeout: 90_000 };

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await seedTaxonomy(handle.db);
  return { db: handle.db, adminId: await createAdminUser(handle.db) };
}

function csvRow(overrides: Record<string, string>): string[] {
  const base: Record<string, string> = {
    product_sku: "CSV-1",
    name_it: "Body cotone",
    name_en: "Cotton bodysuit",
    price: "12,50",
    discount_percent: "0",
    vat_rate_percent: "22",
    is_new: "1",
    is_free_shipping: "0",
    is_on_request: "0",
    is_published: "1",
    category: "abbigliamento",
    subcategory: "Tutine-Body",
    brands: "Chicco",
    personalisation_cost: "0",
    colour: "white",
    size: "M",
    variant_sku: "CSV-1-W-M",
    stock: "5",
    is_preorder: "0",
  };
  const values = { ...base, ...overrides };
  return csvColumns.map((column) => values[column] ?? "");
}

test("CSV: a dry run lists every bad row by row and column and writes nothing; the real run imports the rest", slow, async () => {
  const { db, adminId } = await openShop();
  const text = toCsv(csvColumns, [
    csvRow({}),
    csvRow({ colour: "blue", variant_sku: "CSV-1-B-M", stock: "3" }),
    csvRow({ product_sku: "CSV-2", variant_sku: "CSV-2-U", colour: "", size: "", price: "-4", stock: "-1" }),
    csvRow({ product_sku: "CSV-3", variant_sku: "CSV-3-U", colour: "", size: "", category: "giardinaggio", discount_percent: "101" }),
    csvRow({ product_sku: "CSV-4", variant_sku: "CSV-1-W-M", colour: "", size: "" }),
  ]);
  const dry = await importProductsCsv(db, { text, dryRun: true, actorUserId: adminId, now });
  expect(dry).toMatchObject({ ok: true, rows: 5, validRows: 2, productsCreated: 1, variantsCreated: 2 });
  if (!dry.ok) throw new Error();
  expect(dry.errors).toEqual([
    { row: 4, column: "price", message: "admin.errors.priceNegative" },
    { row: 4, column: "stock", message: "admin.errors.stockNegative" },
    { row: 5, column: "discount_percent", message: "admin.errors.discountRange" },
    { row: 6, column: "variant_sku", message: "admin.errors.csvDuplicateSku" },
  ]);
  expect(await db.$count(products)).toBe(0);

  const progress: number[] = [];
  const real = await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now, onProgress: (done) => progress.push(done) });
  expect(real).toMatchObject({ ok: true, validRows: 2 });
  expect(progress.at(-1)).toBe(1);
  const [product] = await db.select().from(products).where(eq(products.sku, "CSV-1"));
  const page = await getProductPage(db, product!.id, "it", now);
  expect(page).toMatchObject({ name: "Body cotone", priceCents: 1250, isNew: true });
  expect(page!.variants.map((v) => [v.sku, v.stock])).toEqual([
    ["CSV-1-W-M", 5],
    ["CSV-1-B-M", 3],
  ]);
  expect(await db.$count(auditLog, eq(auditLog.action, "import.csv"))).toBe(1);

  // Unknown category checked against the database too.
  const unknownCategory = await importProductsCsv(db, {
    text: toCsv(csvColumns, [csvRow({ product_sku: "CSV-9", variant_sku: "CSV-9-U", category: "giardinaggio", subcategory: "" })]),
    dryRun: true,
    actorUserId: adminId,
    now,
  });
  expect(unknownCategory).toMatchObject({
    ok: true,
    validRows: 0,
    errors: [{ row: 2, column: "category", message: "admin.errors.categoryUnknown" }],
  });

  // Export, change a stock, import again: the product is updated, not duplicated.
  const exported = await exportProductsCsv(db);
  const table = parseCsv(exported);
  expect(table.header).toEqual(csvColumns);
  expect(table.rows).toHaveLength(2);
  const stockAt = csvColumns.indexOf("stock");
  const rows = table.rows.map((row) => row.cells.map((cell, index) => (index === stockAt ? "9" : cell)));
  const again = await importProductsCsv(db, { text: toCsv(csvColumns, rows), dryRun: false, actorUserId: adminId, now });
  expect(again).toMatchObject({ ok: true, errors: [], productsUpdated: 1, variantsUpdated: 2, productsCreated: 0 });
  expect((await db.select({ stock: productVariants.stock }).from(productVariants)).map((row) => row.stock)).toEqual([9, 9]);
});

test("CSV: wrong columns and too many rows refuse the whole file", slow, async () => {
  const { db, adminId } = await openShop();
  const wrong = await importProductsCsv(db, { text: "sku,nome,prezzo\nA,B,1\n", dryRun: true, actorUserId: adminId, now });
  expect(wrong).toMatchObject({ ok: false, error: "columns", unknown: ["sku", "nome", "prezzo"] });
  const line = csvRow({}).join(",");
  const huge = [csvColumns.join(","), ...Array.from({ length: 100_000 }, () => line)].join("\n");
  const tooMany = await importProductsCsv(db, { text: huge, dryRun: false, actorUserId: adminId, now });
  expect(tooMany).toEqual({ ok: false, error: "too-many-rows", rows: 100_000, limit: maxCsvRows });
  expect(await db.$count(products)).toBe(0);
});

test("legacy server-form JSON: imported with colours and size maps; repeated sku/name pairs reported", slow, async () => {
  const { db, adminId } = await openShop();
  const legacy = [
    {
      idArticolo: 24,
      sku: "LEG-A",
      nomeArticolo: "Culla Sogno",
      prezzo: 249.9,
      descrizione: "Culla in legno",
      categoria: "arredamento",
      sottoCategoria: "Culle-per-neonati",
      marca: "Foppapedretti",
      ultimiArrivi: true,
      offerta: 10,
      gratis: 1,
      correlati: "",
      schedaTecnica: { lunghezza: "90", larghezza: 50, altezza: 80, peso: "12,5", materiale: "Faggio" },
      personalizzazione: 1,
      descrizione_personalizzazione: "Nome ricamato",
      costo_personalizzazione: 5,
      coloriDisp: [
        { color: "white", image: ["culla-bianca.jpg"], size: { TAGLIA_UNICA: { stock: 3, prenotazione: "No", giorni: 0 } } },
        { color: "brown", image: [], size: { TAGLIA_UNICA: { stock: 0, prenotazione: "Si", giorni: 15 } } },
      ],
    },
    { idArticolo: 25, sku: "LEG-A", nomeArticolo: "Culla Sogno", prezzo: 249.9, categoria: "arredamento", coloriDisp: [] },
    { idArticolo: 26, sku: "LEG-B", nomeArticolo: "Gioco", prezzo: "9,90", categoria: "pianeta", coloriDisp: [] },
    { nomeArticolo: "Senza id" },
  ];
  const dry = await importLegacyProducts(db, { text: JSON.stringify(legacy), dryRun: true, actorUserId: adminId, now });
  expect(dry).toMatchObject({ ok: true, total: 4, imported: 1, duplicates: [{ sku: "LEG-A", name: "Culla Sogno", ids: ["24", "25"] }] });
  if (!dry.ok) throw new Error();
  expect(dry.issues).toEqual([
    { index: 2, idArticolo: "26", field: "category", message: "admin.errors.categoryUnknown" },
    { index: 3, idArticolo: null, field: "idArticolo", message: "admin.legacy.badEntry" },
  ]);
  expect(await db.$count(products)).toBe(0);

  const real = await importLegacyProducts(db, { text: JSON.stringify(legacy), dryRun: false, actorUserId: adminId, now });
  expect(real).toMatchObject({ ok: true, imported: 1, picturesSkipped: 1 });
  const [product] = await db.select().from(products).where(eq(products.sku, "LEG-A"));
  expect(product).toMatchObject({
    priceCents: 24990,
    discountPercent: 10,
    isNew: true,
    isFreeShipping: true,
    lengthMm: 900,
    weightGrams: 12500,
    materialIt: "Faggio",
    personalisationCostCents: 500,
  });
  const page = await getProductPage(db, product!.id, "it", now);
  expect(page!.colours.map((colour) => colour.key)).toEqual(["white", "brown"]);
  expect(page!.variants.map((v) => [v.stock, v.isPreorder, v.preorderDays])).toEqual([
    [3, false, null],
    [0, true, 15],
  ]);
  // A second run imports nothing again.
  expect(await importLegacyProducts(db, { text: JSON.stringify(legacy), dryRun: false, actorUserId: adminId, now })).toMatchObject({
    imported: 0,
    alreadyPresent: ["LEG-A"],
  });
  expect(await importLegacyProducts(db, { text: "{not json", dryRun: true, actorUserId: adminId, now })).toEqual({ ok: false, error: "not-json" });
});

test("CSV: a size's barcode is checked by its check digit, written, exported; a file without the column still imports", slow, async () => {
  const { db, adminId } = await openShop();
  const text = toCsv(csvColumns, [
    csvRow({ gtin: "800 1090 00001-9" }),
    csvRow({ product_sku: "CSV-2", variant_sku: "CSV-2-U", colour: "", size: "", gtin: "8001090000018" }),
  ]);
  const report = await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now });
  expect(report).toMatchObject({ ok: true, validRows: 1, errors: [{ row: 3, column: "gtin", message: "admin.errors.gtinInvalid" }] });
  const [variant] = await db.select({ gtin: productVariants.gtin }).from(productVariants).where(eq(productVariants.sku, "CSV-1-W-M"));
  expect(variant).toEqual({ gtin: "8001090000019" });
  const exported = parseCsv(await exportProductsCsv(db));
  expect(exported.rows[0]!.cells[exported.header.indexOf("gtin")]).toBe("8001090000019");

  // A file written before the column existed.
  const older = csvColumns.filter((column) => column !== "gtin");
  const withoutGtin = toCsv(older, [older.map((column) => csvRow({ product_sku: "CSV-3", variant_sku: "CSV-3-W-M" })[csvColumns.indexOf(column)]!)]);
  expect(await importProductsCsv(db, { text: withoutGtin, dryRun: true, actorUserId: adminId, now })).toMatchObject({
    ok: true,
    validRows: 1,
    errors: [],
  });
});
