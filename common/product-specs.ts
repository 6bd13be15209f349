/**
 * Car-seat and stroller specifications as typed data (docs/decisions/0101-product-specifications.md): what
 * the product page's specification table, the structured data, the API and the listing's filters read.
 * Weights in grams, lengths in centimetres, ages in months.
 */
export const productSpecKinds = ["car_seat", "stroller"] as const;
export type ProductSpecKind = (typeof productSpecKinds)[number];

/** The plausible bounds, written once: the back office form's hints and its checks (server/catalog/product-specs.inputs.ts) read them. */
export const specBounds = {
  statureCm: [40, 150],
  ageMonths: [0, 144],
  childWeightKg: [1, 50],
  strollerWeightKg: [1, 30],
  foldedCm: [10, 200],
} as const;

export type ProductSpecs = {
  kind: ProductSpecKind;
  statureMinCm: number | null;
  statureMaxCm: number | null;
  r44Group: string | null;
  hasIsofix: boolean | null;
  rotates360: boolean | null;
  ageMinMonths: number | null;
  ageMaxMonths: number | null;
  maxChildWeightGrams: number | null;
  weightGrams: number | null;
  foldedLengthCm: number | null;
  foldedWidthCm: number | null;
  foldedHeightCm: number | null;
  isFromBirth: boolean | null;
  isCarrycotCompatible: boolean | null;
};

/** Each line of the table names its label (`productSpecs.labels.<key>`) and a value of one of these shapes. */
export type SpecValue =
  | { type: "range"; unit: "cm" | "months"; min: number | null; max: number | null }
  | { type: "weight"; grams: number }
  | { type: "yesNo"; value: boolean }
  | { type: "text"; text: string }
  | { type: "folded"; lengthCm: number; widthCm: number; heightCm: number };
export type SpecLine = { key: string; value: SpecValue };

/** The lines the table shows, in the order a label reads; what the staff left empty is left out. */
export function specLinesOf(specs: ProductSpecs): SpecLine[] {
  const lines: SpecLine[] = [];
  const range = (key: string, unit: "cm" | "months", min: number | null, max: number | null) => {
    if (min !== null || max !== null) lines.push({ key, value: { type: "range", unit, min, max } });
  };
  const yesNo = (key: string, value: boolean | null) => {
    if (value !== null) lines.push({ key, value: { type: "yesNo", value } });
  };
  const weight = (key: string, grams: number | null) => {
    if (grams !== null) lines.push({ key, value: { type: "weight", grams } });
  };
  if (specs.kind === "car_seat") {
    range("stature", "cm", specs.statureMinCm, specs.statureMaxCm);
    if (specs.r44Group) lines.push({ key: "r44Group", value: { type: "text", text: specs.r44Group } });
    yesNo("isofix", specs.hasIsofix);
    yesNo("rotation", specs.rotates360);
  } else {
    weight("strollerWeight", specs.weightGrams);
    if (specs.foldedLengthCm !== null && specs.foldedWidthCm !== null && specs.foldedHeightCm !== null) {
      lines.push({
        key: "folded",
        value: { type: "folded", lengthCm: specs.foldedLengthCm, widthCm: specs.foldedWidthCm, heightCm: specs.foldedHeightCm },
      });
    }
    yesNo("fromBirth", specs.isFromBirth);
    yesNo("carrycot", specs.isCarrycotCompatible);
  }
  range("age", "months", specs.ageMinMonths, specs.ageMaxMonths);
  weight("maxChildWeight", specs.maxChildWeightGrams);
  return lines;
}

/** The seat is approved for a child of `heightCm`: its i-Size range covers it (both ends included). */
export function coversStature(specs: Pick<ProductSpecs, "statureMinCm" | "statureMaxCm">, heightCm: number): boolean {
  return specs.statureMinCm !== null && specs.statureMaxCm !== null && specs.statureMinCm <= heightCm && heightCm <= specs.statureMaxCm;
}

/** The product suits a child of `ageMonths`: its age range covers it (an open end is no limit). */
export function coversAge(specs: Pick<ProductSpecs, "ageMinMonths" | "ageMaxMonths">, ageMonths: number): boolean {
  if (specs.ageMinMonths === null && specs.ageMaxMonths === null) return false;
  return (specs.ageMinMonths ?? 0) <= ageMonths && ageMonths <= (specs.ageMaxMonths ?? Number.MAX_SAFE_INTEGER);
}
