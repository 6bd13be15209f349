import { and, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import { getProductSpecs } from "#server/catalog/product-specs.service.ts";
import { auditLog, products } from "#server/db/schema.ts";
import { createTestDb } from "#tests/db.ts";
import { createAdminUser, csvRow, seedTaxonomy } from "#tests/fixtures/admin.fixtures.ts";
import { parseCsv, toCsv } from "./csv";
import { csvColumns, specColumns } from "./product-csv";
import { exportProductsCsv, importProductsCsv } from "./product-csv.service";

const now = new Date("2026-03-10T10:00:00Z");
const slow = { timeout: 90_000 };

async function openShop() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  await seedTaxonomy(handle.db);
  return { db: handle.db, adminId: await createAdminUser(handle.db) };
}

const seat = {
  spec_kind: "car_seat",
  spec_stature_min_cm: "40",
  spec_stature_max_cm: "105",
  spec_r44_group: "0+/1",
  spec_isofix: "1",
  spec_rotation_360: "sì",
  spec_age_min_months: "0",
  spec_age_max_months: "48",
  spec_max_child_weight_kg: "18,5",
};
const stroller = {
  spec_kind: "stroller",
  spec_stroller_weight_kg: "7.2",
  spec_folded_length_cm: "54",
  spec_folded_width_cm: "44",
  spec_folded_height_cm: "25",
  spec_from_birth: "1",
  spec_carrycot: "0",
};

async function productIdOf(db: Awaited<ReturnType<typeof openShop>>["db"], sku: string) {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.sku, sku));
  return row!.id;
}

test("CSV: specifications go out and come back the same; empty cells remove them, a file without the columns keeps them", slow, async () => {
  const { db, adminId } = await openShop();
  const text = toCsv(csvColumns, [
    csvRow({ product_sku: "SEAT-1", variant_sku: "SEAT-1-U", colour: "", size: "", category: "A-spasso", subcategory: "", ...seat }),
    csvRow({ product_sku: "TRIP-1", variant_sku: "TRIP-1-U", colour: "", size: "", category: "A-spasso", subcategory: "", ...stroller }),
    csvRow({}),
  ]);
  expect(await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, validRows: 3, errors: [] });
  const seatId = await productIdOf(db, "SEAT-1");
  const strollerId = await productIdOf(db, "TRIP-1");
  expect(await getProductSpecs(db, seatId)).toEqual({
    kind: "car_seat",
    statureMinCm: 40,
    statureMaxCm: 105,
    r44Group: "0+/1",
    hasIsofix: true,
    rotates360: true,
    ageMinMonths: 0,
    ageMaxMonths: 48,
    maxChildWeightGrams: 18_500,
    weightGrams: null,
    foldedLengthCm: null,
    foldedWidthCm: null,
    foldedHeightCm: null,
    isFromBirth: null,
    isCarrycotCompatible: null,
  });
  expect(await getProductSpecs(db, strollerId)).toMatchObject({
    kind: "stroller",
    weightGrams: 7200,
    foldedLengthCm: 54,
    isFromBirth: true,
    isCarrycotCompatible: false,
  });
  expect(await getProductSpecs(db, await productIdOf(db, "CSV-1"))).toBeNull();

  // The export writes them as the form does; importing it again changes nothing (no new audit row).
  const exported = await exportProductsCsv(db);
  const table = parseCsv(exported);
  const cell = (sku: string, column: string) =>
    table.rows.find((row) => row.cells[table.header.indexOf("product_sku")] === sku)!.cells[table.header.indexOf(column)];
  expect(Object.keys(specColumns).map((column) => cell("SEAT-1", column))).toEqual([
    "car_seat",
    "40",
    "105",
    "0+/1",
    "1",
    "1",
    "0",
    "48",
    "18,5",
    "",
    "",
    "",
    "",
    "",
    "",
  ]);
  expect(cell("TRIP-1", "spec_stroller_weight_kg")).toBe("7,2");
  expect(cell("TRIP-1", "spec_carrycot")).toBe("0");
  expect(cell("CSV-1", "spec_kind")).toBe("");
  const specAudits = () => db.$count(auditLog, and(eq(auditLog.action, "product.specs"), eq(auditLog.entity, "product")));
  const auditsBefore = await specAudits();
  expect(await importProductsCsv(db, { text: exported, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, errors: [] });
  expect(await specAudits()).toBe(auditsBefore);
  expect(await getProductSpecs(db, seatId)).toMatchObject({ statureMaxCm: 105, maxChildWeightGrams: 18_500 });

  // A file written before the columns existed leaves the specifications as they are.
  const older = csvColumns.filter((column) => !(column in specColumns));
  const olderRow = csvRow({ product_sku: "SEAT-1", variant_sku: "SEAT-1-U", colour: "", size: "", category: "A-spasso", subcategory: "" });
  const withoutSpecs = toCsv(older, [older.map((column) => olderRow[csvColumns.indexOf(column)]!)]);
  expect(await importProductsCsv(db, { text: withoutSpecs, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, errors: [] });
  expect(await getProductSpecs(db, seatId)).toMatchObject({ kind: "car_seat" });

  // Every specification cell empty: the product has none any more.
  const emptied = toCsv(csvColumns, [
    csvRow({ product_sku: "SEAT-1", variant_sku: "SEAT-1-U", colour: "", size: "", category: "A-spasso", subcategory: "" }),
  ]);
  expect(await importProductsCsv(db, { text: emptied, dryRun: false, actorUserId: adminId, now })).toMatchObject({ ok: true, errors: [] });
  expect(await getProductSpecs(db, seatId)).toBeNull();
});

test("CSV: a bad specification is refused by row and column, and nothing of that row changes", slow, async () => {
  const { db, adminId } = await openShop();
  const first = toCsv(csvColumns, [
    csvRow({ product_sku: "SEAT-1", variant_sku: "SEAT-1-U", colour: "", size: "", category: "A-spasso", subcategory: "", ...seat }),
  ]);
  await importProductsCsv(db, { text: first, dryRun: false, actorUserId: adminId, now });
  const seatId = await productIdOf(db, "SEAT-1");
  const row = (sku: string, overrides: Record<string, string>) =>
    csvRow({ product_sku: sku, variant_sku: `${sku}-U`, colour: "", size: "", category: "A-spasso", subcategory: "", ...overrides });
  const text = toCsv(csvColumns, [
    row("SEAT-1", { ...seat, spec_stature_min_cm: "30", name_it: "Seggiolino nuovo" }),
    row("SEAT-2", { ...seat, spec_isofix: "forse" }),
    row("SEAT-3", { ...seat, spec_stroller_weight_kg: "7" }),
    row("SEAT-4", { spec_age_max_months: "12" }),
    row("SEAT-5", { ...seat, spec_age_min_months: "50" }),
    row("TRIP-1", { ...stroller, spec_folded_height_cm: "" }),
    row("TRIP-2", { ...stroller, spec_kind: "culla" }),
    row("TRIP-3", { ...stroller, spec_r44_group: "4" }),
    row("TRIP-4", stroller),
  ]);
  const report = await importProductsCsv(db, { text, dryRun: false, actorUserId: adminId, now });
  expect(report).toMatchObject({ ok: true, rows: 9, validRows: 1, productsCreated: 1 });
  if (!report.ok) throw new Error("refused");
  expect(report.errors).toEqual([
    { row: 2, column: "spec_stature_min_cm", message: "productSpecs.errors.outOfRange" },
    { row: 3, column: "spec_isofix", message: "admin.errors.csvBoolean" },
    { row: 4, column: "spec_stroller_weight_kg", message: "productSpecsCsv.errors.notForKind" },
    { row: 5, column: "spec_kind", message: "productSpecsCsv.errors.kindMissing" },
    { row: 6, column: "spec_age_max_months", message: "productSpecs.errors.minAboveMax" },
    { row: 7, column: "spec_folded_length_cm", message: "productSpecs.errors.foldedAllThree" },
    { row: 8, column: "spec_kind", message: "productSpecs.errors.invalid" },
    { row: 9, column: "spec_r44_group", message: "productSpecsCsv.errors.notForKind" },
  ]);
  const [kept] = await db.select({ nameIt: products.nameIt }).from(products).where(eq(products.id, seatId));
  expect(kept!.nameIt).toBe("Body cotone");
  expect(await getProductSpecs(db, seatId)).toMatchObject({ statureMinCm: 40 });
  expect(await getProductSpecs(db, await productIdOf(db, "TRIP-4"))).toMatchObject({ kind: "stroller", weightGrams: 7200 });

  // Half the specification columns would read as values removed: the whole file is refused.
  const some = csvColumns.filter((column) => column !== "spec_carrycot");
  const half = toCsv(some, [some.map(() => "")]);
  expect(await importProductsCsv(db, { text: half, dryRun: true, actorUserId: adminId, now })).toEqual({
    ok: false,
    error: "columns",
    missing: ["spec_carrycot"],
    unknown: [],
  });
});
