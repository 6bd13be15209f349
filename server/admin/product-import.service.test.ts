import { eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getProductPage } from "#server/catalog/product.service.ts";
import { auditLog, products, productVariants } from "#server/db/schema.ts";
import { SafetyContactInput, SafetyWarningInput } from "#server/product-safety/product-safety.inputs.ts";
import { getProductSafetyForm, saveSafetyContact, saveSafetyWarning } from "#server/product-safety/product-safety.service.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser, csvRow, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
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

/** Two manufacturers, a responsible person and three warnings, through the safety pages' own service; their ids by name or code. */
async function seedSafety(db: Awaited<ReturnType<typeof openShop>>["db"]) {
  const ids = new Map<string, number>();
  const contacts = [
    { role: "manufacturer", name: "Culle Sogno S.r.l.", postalAddress: "Via Roma 1, 20121 Milano", countryCode: "IT", email: "info@culle.example" },
    { role: "manufacturer", name: "Baby Works Ltd", postalAddress: "1 High Street, London", countryCode: "GB", email: "hello@babyworks.example" },
    {
      role: "responsible_person",
      name: "Rappresentanze UE S.p.A.",
      postalAddress: "Corso Italia 5, Torino",
      countryCode: "IT",
      email: "eu@rapp.example",
    },
  ];
  for (const contact of contacts) {
    const saved = await saveSafetyContact(db, { id: null, input: SafetyContactInput.parse(contact), actorUserId: null });
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    ids.set(contact.name, saved.id);
  }
  for (const code of ["never-unattended", "check-straps", "keep-from-fire"]) {
    const input = SafetyWarningInput.parse({ code, textIt: `Avvertenza ${code}`, textEn: `Warning ${code}` });
    const saved = await saveSafetyWarning(db, { id: null, input, actorUserId: null });
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    ids.set(code, saved.id);
  }
  return ids;
}

test("CSV: the safety data go out and come back the same; names and codes in any case", slow, async () => {
  const { db, adminId } = await openShop();
  const ids = await seedSafety(db);
  const safety = {
    model_number: "CS-200",
    manufacturer: "baby works ltd",
    responsible_person: "Rappresentanze UE S.p.A.",
    safety_warnings: "check-straps|NEVER-UNATTENDED",
  };
  const text = toCsv(csvColumns, [
    csvRow(safety),
    csvRow({ ...safety, colour: "blue", variant_sku: "CSV-1-B-M" }),
    csvRow({ product_sku: "CSV-2", variant_sku: "CSV-2-U", colour: "", size: "" }),
  ]);
  expect(await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, errors: [], productsCreated: 2 });
  const [first, second] = await db.select({ id: products.id }).from(products).orderBy(products.id);
  expect((await getProductSafetyForm(db, first!.id))!.values).toEqual({
    modelNumber: "CS-200",
    manufacturerId: ids.get("Baby Works Ltd"),
    responsiblePersonId: ids.get("Rappresentanze UE S.p.A."),
    warningIds: [ids.get("check-straps"), ids.get("never-unattended")],
  });
  // Empty cells: the brand's contacts, no model number, no warnings.
  expect((await getProductSafetyForm(db, second!.id))!.values).toEqual({
    modelNumber: null,
    manufacturerId: null,
    responsiblePersonId: null,
    warningIds: [],
  });

  const exported = await exportProductsCsv(db);
  const table = parseCsv(exported);
  const cell = (row: number, column: string) => table.rows[row]!.cells[csvColumns.indexOf(column)];
  expect([cell(0, "model_number"), cell(0, "manufacturer"), cell(0, "responsible_person"), cell(0, "safety_warnings")]).toEqual([
    "CS-200",
    "Baby Works Ltd",
    "Rappresentanze UE S.p.A.",
    "check-straps|never-unattended",
  ]);
  expect(cell(2, "safety_warnings")).toBe("");

  // Imported back unchanged: the same data, no safety change recorded.
  const safetyAudits = await db.$count(auditLog, eq(auditLog.action, "product.safety"));
  expect(await importProductsCsv(db, { text: exported, dryRun: false, actorUserId: adminId, now })).toMatchObject({
    ok: true,
    errors: [],
    productsUpdated: 2,
  });
  expect(await exportProductsCsv(db)).toBe(exported);
  expect(await db.$count(auditLog, eq(auditLog.action, "product.safety"))).toBe(safetyAudits);

  // A file written before the safety columns leaves the safety data as they are.
  const oldColumns = csvColumns.filter((column) => !["model_number", "manufacturer", "responsible_person", "safety_warnings"].includes(column));
  const old = toCsv(
    oldColumns,
    table.rows.map((row) => row.cells.filter((_, index) => oldColumns.includes(csvColumns[index]!))),
  );
  expect(await importProductsCsv(db, { text: old, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, errors: [] });
  expect((await getProductSafetyForm(db, first!.id))!.values.modelNumber).toBe("CS-200");
  expect(await exportProductsCsv(db)).toBe(exported);
});

test("CSV: an unknown manufacturer, responsible person or warning code is refused by row and nothing of that row changes", slow, async () => {
  const { db, adminId } = await openShop();
  await seedSafety(db);
  const good = { model_number: "CS-200", manufacturer: "Culle Sogno S.r.l.", safety_warnings: "check-straps" };
  await importProductsCsv(db, { text: toCsv(csvColumns, [csvRow(good)]), dryRun: false, actorUserId: adminId, now });
  const before = await exportProductsCsv(db);

  const text = toCsv(csvColumns, [
    csvRow({ ...good, model_number: "CS-300", manufacturer: "Fabbrica Inesistente" }),
    csvRow({ product_sku: "CSV-2", variant_sku: "CSV-2-U", colour: "", size: "", responsible_person: "Culle Sogno S.r.l." }),
    csvRow({ product_sku: "CSV-3", variant_sku: "CSV-3-U", colour: "", size: "", safety_warnings: "check-straps|non-esiste" }),
    csvRow({ product_sku: "CSV-4", variant_sku: "CSV-4-U", colour: "", size: "", model_number: "X".repeat(81) }),
  ]);
  const expected = [
    { row: 2, column: "manufacturer", message: "productSafety.errors.manufacturerUnknown" },
    // A manufacturer is not a responsible person.
    { row: 3, column: "responsible_person", message: "productSafety.errors.responsiblePersonUnknown" },
    { row: 4, column: "safety_warnings", message: "productSafety.errors.warningUnknown" },
    { row: 5, column: "model_number", message: "admin.errors.tooLong" },
  ];
  expect(await importProductsCsv(db, { text, dryRun: true, actorUserId: adminId, now })).toMatchObject({ ok: true, validRows: 0, errors: expected });
  expect(await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, validRows: 0, errors: expected });
  expect(await db.$count(products)).toBe(1);
  expect(await exportProductsCsv(db)).toBe(before);
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
