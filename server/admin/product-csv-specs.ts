/**
 * The product CSV's specification columns (product-csv.ts `specColumns`): written and read as the back office's
 * specification form writes them, and checked by its schema (server/catalog/product-specs.inputs.ts), so a file
 * and the form accept the same values. docs/decisions/0101-product-specifications.md.
 */
import type { ProductSpecs } from "#common/product-specs.ts";
import { ProductSpecsInput, productSpecsFormValues, seatOnlyFields, strollerOnlyFields } from "#server/catalog/product-specs.inputs.ts";
import { falsyCells, specColumns, truthyCells } from "./product-csv";

type SpecField = (typeof specColumns)[keyof typeof specColumns];

const columnOfField = new Map(Object.entries(specColumns).map(([column, field]) => [field as string, column]));
const yesNoFields: ReadonlySet<string> = new Set(["hasIsofix", "rotates360", "isFromBirth", "isCarrycotCompatible"]);

/** A product's cells in `specColumns`' order: all empty for a product without specifications. */
export function specCellsOf(specs: ProductSpecs | null): string[] {
  const values = productSpecsFormValues(specs, "it");
  return Object.values(specColumns).map((field) => {
    const value = values[field] ?? "";
    if (yesNoFields.has(field)) return value === "" ? "" : value === "yes" ? "1" : "0";
    return value;
  });
}

export type SpecCellsResult = { ok: true; specs: ProductSpecs | null } | { ok: false; errors: { column: string; message: string }[] };

/**
 * A row's specification cells: all empty is "no specifications" (any it had are removed); a value the kind does
 * not have is refused rather than dropped, so nothing in the file is silently lost.
 */
export function parseSpecCells(raw: Readonly<Record<string, string | undefined>>): SpecCellsResult {
  const errors: { column: string; message: string }[] = [];
  const values = {} as Record<SpecField, string>;
  for (const [column, field] of Object.entries(specColumns) as [string, SpecField][]) {
    const cell = (raw[column] ?? "").trim();
    if (!yesNoFields.has(field)) values[field] = field === "kind" ? cell.toLowerCase() : cell;
    else if (cell === "") values[field] = "";
    else if (truthyCells.has(cell.toLowerCase())) values[field] = "yes";
    else if (falsyCells.has(cell.toLowerCase())) values[field] = "no";
    else errors.push({ column, message: "admin.errors.csvBoolean" });
  }
  if (values.kind === "") {
    const given = Object.entries(specColumns).some(([column, field]) => field !== "kind" && (raw[column] ?? "").trim() !== "");
    return given
      ? { ok: false, errors: [{ column: "spec_kind", message: "productSpecsCsv.errors.kindMissing" }] }
      : errors.length
        ? { ok: false, errors }
        : { ok: true, specs: null };
  }
  const foreign = values.kind === "car_seat" ? strollerOnlyFields : values.kind === "stroller" ? seatOnlyFields : [];
  for (const field of foreign)
    if (values[field] !== "") errors.push({ column: columnOfField.get(field)!, message: "productSpecsCsv.errors.notForKind" });
  const parsed = ProductSpecsInput.safeParse(values);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const column = columnOfField.get(String(issue.path[0] ?? "kind")) ?? "spec_kind";
      if (!errors.some((error) => error.column === column))
        errors.push({ column, message: issue.message.startsWith("productSpecs.") ? issue.message : "productSpecs.errors.invalid" });
    }
  return errors.length > 0 || !parsed.success ? { ok: false, errors } : { ok: true, specs: parsed.data };
}
