/**
 * CSV export and import of the catalogue, one row per size (variant); a product without sizes is
 * one row with empty size columns. Columns are documented in docs/decisions/0017-back-office.md.
 *
 * Import: wrong columns or more than `maxCsvRows` rows refuse the whole file. Every other error is
 * reported by row (the file's line) and column; a dry run reports and writes nothing; the real run
 * imports the valid rows, `productsPerBatch` products per transaction.
 */
import { isValidGtin, normaliseGtin } from "#server/catalog/gtin.ts";
import { aliasedTable, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { storedSizeName } from "#common/sizes.ts";
import type { Db } from "#server/db/client.ts";
import {
  brands,
  categories,
  productColours,
  products,
  productSafetyWarnings,
  productVariants,
  safetyContacts,
  safetyWarnings,
  subcategories,
} from "#server/db/schema.ts";
import type { ProductSafetyInput } from "#server/product-safety/product-safety.inputs.ts";
import { getProductSafetyForm, setProductSafety } from "#server/product-safety/product-safety.service.ts";
import type { ProductSpecs } from "#common/product-specs.ts";
import { getProductSpecsOf, setProductSpecs } from "#server/catalog/product-specs.service.ts";
import { setInitialStock, setStockTo } from "#server/stock/stock-ledger.ts";
import { recordAudit } from "./audit.service";
import { parseCsv, toCsv } from "./csv";
import { csvColumns, falsyCells, optionalColumns, productColumns, safetyColumns, specColumns, truthyCells, variantColumns } from "./product-csv";
import { parseSpecCells, specCellsOf } from "./product-csv-specs";
import {
  colourPattern,
  parseWith,
  ProductInput,
  sizePattern,
  skuPattern,
  maxStock,
  type ProductInput as ProductInputType,
} from "./product-admin.inputs";
import { getProductFormValues, saveProductInTx } from "./product-admin.service";

export const maxCsvRows = 20_000;
/** Bytes are checked after rows, so a long file gets the row-limit message. */
export const maxCsvBytes = 40 * 1024 * 1024;
const productsPerBatch = 100;

const booleanColumns = new Set(["is_new", "is_free_shipping", "is_on_request", "is_published", "is_preorder"]);
const fieldToColumn = new Map(Object.entries(productColumns).map(([column, field]) => [field as string, column]));

export type CsvRowError = { row: number; column: string; message: string };
export type CsvImportReport =
  | { ok: false; error: "columns"; missing: string[]; unknown: string[] }
  | { ok: false; error: "too-many-rows"; rows: number; limit: number }
  | { ok: false; error: "empty" | "too-large" }
  | {
      ok: true;
      dryRun: boolean;
      rows: number;
      validRows: number;
      errors: CsvRowError[];
      productsCreated: number;
      productsUpdated: number;
      variantsCreated: number;
      variantsUpdated: number;
    };

// ---------------------------------------------------------------- export

const yes = (value: boolean) => (value ? "1" : "0");

const manufacturers = aliasedTable(safetyContacts, "manufacturers");
const responsiblePersons = aliasedTable(safetyContacts, "responsible_persons");

/** The safety columns of each product of `ids`, in `safetyColumns`' order. */
async function safetyCells(db: Db, ids: number[]): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ id: products.id, modelNumber: products.modelNumber, manufacturer: manufacturers.name, responsiblePerson: responsiblePersons.name })
    .from(products)
    .leftJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
    .leftJoin(responsiblePersons, eq(responsiblePersons.id, products.responsiblePersonId))
    .where(inArray(products.id, ids));
  const warnings = await db
    .select({ productId: productSafetyWarnings.productId, code: safetyWarnings.code })
    .from(productSafetyWarnings)
    .innerJoin(safetyWarnings, eq(safetyWarnings.id, productSafetyWarnings.warningId))
    .where(inArray(productSafetyWarnings.productId, ids))
    .orderBy(asc(productSafetyWarnings.productId), asc(productSafetyWarnings.position));
  const codes = new Map<number, string[]>();
  for (const row of warnings) codes.set(row.productId, [...(codes.get(row.productId) ?? []), row.code]);
  return new Map(
    rows.map((row) => [row.id, [row.modelNumber ?? "", row.manufacturer ?? "", row.responsiblePerson ?? "", (codes.get(row.id) ?? []).join("|")]]),
  );
}

export async function exportProductsCsv(db: Db): Promise<string> {
  const ids = (await db.select({ id: products.id }).from(products).orderBy(asc(products.id))).map((row) => row.id);
  const lines: string[][] = [];
  for (let start = 0; start < ids.length; start += 200) {
    const slice = ids.slice(start, start + 200);
    const safety = await safetyCells(db, slice);
    const specs = await getProductSpecsOf(db, slice);
    const variants = await db
      .select({ variant: productVariants, colour: productColours.colour })
      .from(productVariants)
      .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
      .where(inArray(productVariants.productId, slice))
      .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
    for (const id of slice) {
      const form = (await getProductFormValues(db, id))!;
      const productCells = Object.entries(productColumns).map(([column, field]) => {
        const value = form[field] ?? "";
        if (booleanColumns.has(column)) return value === "on" ? "1" : "0";
        if (column === "brands") return value.split(", ").filter(Boolean).join("|");
        if (column === "related") return value.split(", ").filter(Boolean).join("|");
        return value;
      });
      const own = variants.filter((row) => row.variant.productId === id);
      const safetyCellsOfProduct = [...safety.get(id)!, ...specCellsOf(specs.get(id) ?? null)];
      if (own.length === 0) lines.push([...productCells, ...variantColumns.map(() => ""), ...safetyCellsOfProduct]);
      for (const { variant, colour } of own)
        lines.push([
          ...productCells,
          colour ?? "",
          variant.size,
          variant.sku,
          String(variant.stock),
          yes(variant.isPreorder),
          variant.preorderDays === null ? "" : String(variant.preorderDays),
          variant.gtin ?? "",
          ...safetyCellsOfProduct,
        ]);
    }
  }
  return toCsv(csvColumns, lines);
}

// ---------------------------------------------------------------- import

const CsvVariant = z
  .object({
    colour: z
      .string()
      .trim()
      .max(40, { error: "admin.errors.tooLong" })
      .refine((value) => value === "" || colourPattern.test(value), { error: "admin.errors.colourInvalid" }),
    size: z
      .string()
      .trim()
      .max(40, { error: "admin.errors.tooLong" })
      .refine((value) => value === "" || sizePattern.test(value), { error: "admin.errors.sizeNameInvalid" }),
    variant_sku: z
      .string()
      .trim()
      .max(40, { error: "admin.errors.tooLong" })
      .refine((value) => value === "" || skuPattern.test(value), { error: "admin.errors.skuInvalid" }),
    stock: z.string().trim(),
    is_preorder: z.string(),
    preorder_days: z.string().trim(),
    gtin: z
      .string()
      .transform(normaliseGtin)
      .refine((value) => value === "" || isValidGtin(value), { error: "admin.errors.gtinInvalid" }),
  })
  .transform((value, ctx) => {
    if (value.variant_sku === "") return null;
    let stock = 0;
    if (!/^-?\d{1,9}$/.test(value.stock))
      ctx.addIssue({ code: "custom", path: ["stock"], message: value.stock === "" ? "admin.errors.required" : "admin.errors.wholeNumber" });
    else {
      stock = Number(value.stock);
      if (stock < 0) ctx.addIssue({ code: "custom", path: ["stock"], message: "admin.errors.stockNegative" });
      else if (stock > maxStock) ctx.addIssue({ code: "custom", path: ["stock"], message: "admin.errors.stockRange" });
    }
    const isPreorder = value.is_preorder === "on";
    let preorderDays: number | null = null;
    if (value.preorder_days !== "") {
      preorderDays = /^\d{1,3}$/.test(value.preorder_days) ? Number(value.preorder_days) : 0;
      if (preorderDays < 1 || preorderDays > 365)
        ctx.addIssue({ code: "custom", path: ["preorder_days"], message: "admin.errors.preorderDaysRange" });
    } else if (isPreorder) ctx.addIssue({ code: "custom", path: ["preorder_days"], message: "admin.errors.preorderDaysRequired" });
    return {
      colour: value.colour.toLowerCase() || null,
      size: storedSizeName(value.size),
      sku: value.variant_sku,
      stock,
      isPreorder,
      preorderDays: isPreorder ? preorderDays : null,
      gtin: value.gtin || null,
    };
  });
type CsvVariant = NonNullable<z.output<typeof CsvVariant>>;

/** The safety columns as written; contacts and warnings are looked up by name and code afterwards. */
const CsvSafety = z.object({
  model_number: z.string().trim().max(80, { error: "admin.errors.tooLong" }),
  manufacturer: z.string().trim().max(200, { error: "admin.errors.tooLong" }),
  responsible_person: z.string().trim().max(200, { error: "admin.errors.tooLong" }),
  safety_warnings: z.string().transform((value) => [
    ...new Set(
      value
        .split("|")
        .map((code) => code.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]),
});
type CsvSafety = z.output<typeof CsvSafety>;

/** The product's safety data the file gives; a column the file leaves out is absent (left as it is). */
type SafetyValues = Partial<ProductSafetyInput>;

type ValidRow = {
  line: number;
  product: ProductInputType;
  variant: CsvVariant | null;
  safety: CsvSafety;
  safetyValues?: SafetyValues;
  /** Absent when the file has no specification columns (the product's are left as they are). */
  specs?: ProductSpecs | null;
};

type Lookups = {
  categorySlugs: Set<string>;
  subcategoryOf: Map<string, string>;
  brandKeys: Set<string>;
  productIdBySku: Map<string, number>;
  variantOwnerBySku: Map<string, string>;
  productIds: Set<number>;
  /** Lower-case name or id -> id, per role. */
  contactIds: { manufacturer: Map<string, number>; responsible_person: Map<string, number> };
  warningIdByCode: Map<string, number>;
};

async function loadLookups(db: Db, table: { productSkus: string[]; variantSkus: string[]; related: number[] }): Promise<Lookups> {
  const cats = await db.select({ id: categories.id, slug: categories.slug }).from(categories);
  const subs = await db.select({ slug: subcategories.slug, categoryId: subcategories.categoryId }).from(subcategories);
  const catSlug = new Map(cats.map((cat) => [cat.id, cat.slug]));
  const brandRows = await db.select({ slug: brands.slug, name: brands.name }).from(brands);
  const chunks = <T>(values: T[]) => Array.from({ length: Math.ceil(values.length / 1000) }, (_, i) => values.slice(i * 1000, i * 1000 + 1000));
  const productIdBySku = new Map<string, number>();
  for (const chunk of chunks(table.productSkus))
    for (const row of await db.select({ id: products.id, sku: products.sku }).from(products).where(inArray(products.sku, chunk)))
      productIdBySku.set(row.sku, row.id);
  const variantOwnerBySku = new Map<string, string>();
  for (const chunk of chunks(table.variantSkus))
    for (const row of await db
      .select({ sku: productVariants.sku, productSku: products.sku })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(inArray(productVariants.sku, chunk)))
      variantOwnerBySku.set(row.sku, row.productSku);
  const productIds = new Set<number>();
  for (const chunk of chunks(table.related))
    for (const row of await db.select({ id: products.id }).from(products).where(inArray(products.id, chunk))) productIds.add(row.id);
  const contactIds = { manufacturer: new Map<string, number>(), responsible_person: new Map<string, number>() };
  for (const contact of await db.select({ id: safetyContacts.id, role: safetyContacts.role, name: safetyContacts.name }).from(safetyContacts)) {
    contactIds[contact.role].set(String(contact.id), contact.id);
    contactIds[contact.role].set(contact.name.toLowerCase(), contact.id);
  }
  const warningRows = await db.select({ id: safetyWarnings.id, code: safetyWarnings.code }).from(safetyWarnings);
  return {
    contactIds,
    warningIdByCode: new Map(warningRows.map((warning) => [warning.code, warning.id])),
    categorySlugs: new Set(cats.map((cat) => cat.slug)),
    subcategoryOf: new Map(subs.map((sub) => [sub.slug, catSlug.get(sub.categoryId) ?? ""])),
    brandKeys: new Set(brandRows.flatMap((brand) => [brand.slug, brand.name.toLowerCase()])),
    productIdBySku,
    variantOwnerBySku,
    productIds,
  };
}

/** Validates every row (nothing written); `dryRun: false` then imports the valid ones. */
export async function importProductsCsv(
  db: Db,
  args: { text: string; dryRun: boolean; actorUserId: string | null; now: Date; onProgress?: (done: number, total: number) => void },
): Promise<CsvImportReport> {
  const table = parseCsv(args.text, maxCsvRows);
  if (table.header.length === 0) return { ok: false, error: "empty" };
  // The specification columns come all together or not at all: half of them would read as values removed.
  const specsGiven = Object.keys(specColumns).some((column) => table.header.includes(column));
  const missing = csvColumns.filter(
    (column) => !table.header.includes(column) && (!optionalColumns.has(column) || (specsGiven && column in specColumns)),
  );
  const unknown = table.header.filter((column) => !csvColumns.includes(column));
  if (missing.length || unknown.length) return { ok: false, error: "columns", missing, unknown };
  if (table.truncated || table.rows.length > maxCsvRows) {
    // Count the rest cheaply, for the message: records are at least one line each.
    const rows = table.truncated ? args.text.split("\n").filter((line) => line.trim() !== "").length - 1 : table.rows.length;
    return { ok: false, error: "too-many-rows", rows, limit: maxCsvRows };
  }
  if (table.rows.length === 0) return { ok: false, error: "empty" };
  if (args.text.length > maxCsvBytes) return { ok: false, error: "too-large" };

  const errors: CsvRowError[] = [];
  const candidates: ValidRow[] = [];
  for (const { line, cells } of table.rows) {
    const raw = Object.fromEntries(table.header.map((column, index) => [column, cells[index] ?? ""]));
    const rowErrors: CsvRowError[] = [];
    if (cells.length !== table.header.length) rowErrors.push({ row: line, column: "-", message: "admin.errors.csvCellCount" });
    for (const column of booleanColumns) {
      const value = raw[column]!.trim().toLowerCase();
      if (truthyCells.has(value)) raw[column] = "on";
      else if (falsyCells.has(value)) raw[column] = "";
      else rowErrors.push({ row: line, column, message: "admin.errors.csvBoolean" });
    }
    const values = Object.fromEntries(
      Object.entries(productColumns).map(([column, field]) => [
        field,
        column === "brands" || column === "related" ? raw[column]!.replace(/\|/g, ",") : raw[column]!,
      ]),
    );
    const product = parseWith(ProductInput, values);
    if (!product.ok)
      for (const [field, message] of Object.entries(product.errors))
        rowErrors.push({ row: line, column: fieldToColumn.get(field) ?? field, message: message! });
    const variant = CsvVariant.safeParse(Object.fromEntries(variantColumns.map((column) => [column, raw[column] ?? ""])));
    if (!variant.success)
      for (const issue of variant.error.issues) rowErrors.push({ row: line, column: String(issue.path[0] ?? "variant_sku"), message: issue.message });
    const safety = CsvSafety.safeParse(Object.fromEntries(safetyColumns.map((column) => [column, raw[column] ?? ""])));
    if (!safety.success)
      for (const issue of safety.error.issues) rowErrors.push({ row: line, column: String(issue.path[0]), message: issue.message });
    const specs = specsGiven ? parseSpecCells(raw) : null;
    if (specs && !specs.ok) for (const error of specs.errors) rowErrors.push({ row: line, ...error });
    const unique = new Map(rowErrors.map((error) => [error.column, error]));
    if (unique.size > 0 || !product.ok || !variant.success || !safety.success) errors.push(...unique.values());
    else candidates.push({ line, product: product.input, variant: variant.data, safety: safety.data, ...(specs?.ok ? { specs: specs.specs } : {}) });
  }

  const lookups = await loadLookups(db, {
    productSkus: [...new Set(candidates.map((row) => row.product.sku))],
    variantSkus: [...new Set(candidates.flatMap((row) => (row.variant ? [row.variant.sku] : [])))],
    related: [...new Set(candidates.flatMap((row) => row.product.related))],
  });
  const seenVariantSkus = new Map<string, number>();
  const seenCombos = new Set<string>();
  const valid: ValidRow[] = [];
  for (const row of candidates) {
    const rowErrors: CsvRowError[] = [];
    const { product, variant, line } = row;
    if (!lookups.categorySlugs.has(product.category)) rowErrors.push({ row: line, column: "category", message: "admin.errors.categoryUnknown" });
    if (product.subcategory) {
      const parent = lookups.subcategoryOf.get(product.subcategory);
      if (parent === undefined) rowErrors.push({ row: line, column: "subcategory", message: "admin.errors.subcategoryUnknown" });
      else if (parent !== product.category) rowErrors.push({ row: line, column: "subcategory", message: "admin.errors.subcategoryElsewhere" });
    }
    if (product.brands.some((brand) => !lookups.brandKeys.has(brand) && !lookups.brandKeys.has(brand.toLowerCase())))
      rowErrors.push({ row: line, column: "brands", message: "admin.errors.brandUnknown" });
    if (product.related.some((id) => !lookups.productIds.has(id)))
      rowErrors.push({ row: line, column: "related", message: "admin.errors.relatedUnknown" });
    if (variant) {
      const owner = lookups.variantOwnerBySku.get(variant.sku);
      const combo = `${product.sku}\u0000${variant.colour ?? ""}\u0000${variant.size}`;
      if (seenVariantSkus.has(variant.sku)) rowErrors.push({ row: line, column: "variant_sku", message: "admin.errors.csvDuplicateSku" });
      else if (owner !== undefined && owner !== product.sku) rowErrors.push({ row: line, column: "variant_sku", message: "admin.errors.skuTaken" });
      else if (seenCombos.has(combo)) rowErrors.push({ row: line, column: "size", message: "admin.errors.sizeTaken" });
      seenVariantSkus.set(variant.sku, line);
      seenCombos.add(combo);
    }
    const safetyValues: SafetyValues = {};
    const given = (column: (typeof safetyColumns)[number]) => table.header.includes(column);
    if (given("model_number")) safetyValues.modelNumber = row.safety.model_number || null;
    for (const [column, field] of [
      ["manufacturer", "manufacturerId"],
      ["responsible_person", "responsiblePersonId"],
    ] as const) {
      if (!given(column)) continue;
      const name = row.safety[column];
      const id = name === "" ? null : (lookups.contactIds[column].get(name.toLowerCase()) ?? undefined);
      if (id === undefined)
        rowErrors.push({
          row: line,
          column,
          message: `productSafety.errors.${column === "manufacturer" ? "manufacturerUnknown" : "responsiblePersonUnknown"}`,
        });
      else safetyValues[field] = id;
    }
    if (given("safety_warnings")) {
      const warningIds = row.safety.safety_warnings.map((code) => lookups.warningIdByCode.get(code));
      if (warningIds.some((id) => id === undefined))
        rowErrors.push({ row: line, column: "safety_warnings", message: "productSafety.errors.warningUnknown" });
      else safetyValues.warningIds = warningIds as number[];
    }
    if (rowErrors.length) errors.push(...rowErrors);
    else valid.push({ ...row, safetyValues });
  }
  errors.sort((a, b) => a.row - b.row);

  const groups = new Map<string, ValidRow[]>();
  for (const row of valid) groups.set(row.product.sku, [...(groups.get(row.product.sku) ?? []), row]);
  const counts = {
    productsCreated: [...groups.keys()].filter((sku) => !lookups.productIdBySku.has(sku)).length,
    productsUpdated: [...groups.keys()].filter((sku) => lookups.productIdBySku.has(sku)).length,
    variantsCreated: valid.filter((row) => row.variant && !lookups.variantOwnerBySku.has(row.variant.sku)).length,
    variantsUpdated: valid.filter((row) => row.variant && lookups.variantOwnerBySku.has(row.variant.sku)).length,
  };
  const report = { ok: true as const, dryRun: args.dryRun, rows: table.rows.length, validRows: valid.length, errors, ...counts };
  if (args.dryRun) return report;

  const entries = [...groups.entries()];
  args.onProgress?.(0, entries.length);
  for (let start = 0; start < entries.length; start += productsPerBatch) {
    const batch = entries.slice(start, start + productsPerBatch);
    await db.transaction(async (tx) => {
      const touched: number[] = [];
      for (const [sku, rows] of batch)
        touched.push(
          await importProduct(tx, { sku, rows, existingId: lookups.productIdBySku.get(sku) ?? null, actorUserId: args.actorUserId, now: args.now }),
        );
      await recordAudit(tx, {
        actorUserId: args.actorUserId,
        action: "import.csv",
        entity: "import",
        entityId: null,
        details: { batch: start / productsPerBatch + 1, products: touched, rows: batch.reduce((sum, [, rows]) => sum + rows.length, 0) },
      });
    });
    args.onProgress?.(Math.min(start + productsPerBatch, entries.length), entries.length);
  }
  return report;
}

async function importProduct(
  tx: Db,
  args: { sku: string; rows: ValidRow[]; existingId: number | null; actorUserId: string | null; now: Date },
): Promise<number> {
  const saved = await saveProductInTx(tx, {
    productId: args.existingId,
    input: args.rows[0]!.product,
    actorUserId: args.actorUserId,
    now: args.now,
    auditDetails: { source: "csv" },
  });
  // Every reference was checked above: a refusal here means the database changed meanwhile.
  if (!saved.ok) throw new Error(`CSV import of ${args.sku} refused: ${JSON.stringify(saved)}`);
  const productId = saved.productId;
  await importSafety(tx, { productId, given: args.rows[0]!.safetyValues ?? {}, actorUserId: args.actorUserId });
  // The specification service writes only a change, with its audit row.
  const specs = args.rows[0]!.specs;
  if (specs !== undefined) await setProductSpecs(tx, { productId, specs, actorUserId: args.actorUserId });
  const colourIds = new Map(
    (
      await tx.select({ id: productColours.id, colour: productColours.colour }).from(productColours).where(eq(productColours.productId, productId))
    ).map((row) => [row.colour, row.id]),
  );
  let position = colourIds.size;
  for (const { variant } of args.rows) {
    if (!variant) continue;
    let colourId: number | null = null;
    if (variant.colour) {
      colourId = colourIds.get(variant.colour) ?? null;
      if (colourId === null) {
        const [created] = await tx
          .insert(productColours)
          .values({ productId, colour: variant.colour, position: position++ })
          .returning({ id: productColours.id });
        colourId = created!.id;
        colourIds.set(variant.colour, colourId);
      }
    }
    const [existing] = await tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.sku, variant.sku));
    const stockRecord = { reason: "Importazione CSV", actorUserId: args.actorUserId };
    if (existing) {
      await tx
        .update(productVariants)
        .set({ colourId, size: variant.size, isPreorder: variant.isPreorder, preorderDays: variant.preorderDays, gtin: variant.gtin })
        .where(eq(productVariants.id, existing.id));
      await setStockTo(tx, { variantId: existing.id, stock: variant.stock }, stockRecord);
    } else {
      const [created] = await tx
        .insert(productVariants)
        .values({
          productId,
          colourId,
          size: variant.size,
          sku: variant.sku,
          isPreorder: variant.isPreorder,
          preorderDays: variant.preorderDays,
          gtin: variant.gtin,
        })
        .returning({ id: productVariants.id });
      await setInitialStock(tx, { variantId: created!.id, stock: variant.stock }, stockRecord);
    }
  }
  return productId;
}

/** Writes the safety data the file gives over the product's own, through the product-safety service; unchanged data writes nothing. */
async function importSafety(tx: Db, args: { productId: number; given: SafetyValues; actorUserId: string | null }) {
  if (Object.keys(args.given).length === 0) return;
  const current = (await getProductSafetyForm(tx, args.productId))!.values;
  const input: ProductSafetyInput = { ...current, ...args.given };
  const keys = Object.keys(args.given) as (keyof ProductSafetyInput)[];
  if (keys.every((key) => JSON.stringify(current[key]) === JSON.stringify(input[key]))) return;
  const saved = await setProductSafety(tx, { productId: args.productId, input, actorUserId: args.actorUserId });
  if (!saved.ok) throw new Error(`CSV import of product ${args.productId}'s safety data refused: ${JSON.stringify(saved)}`);
}
