/**
 * What the back office's specification form sends, checked once at the edge: numbers within what a car seat
 * or stroller can plausibly be, every range's minimum at most its maximum. Each message is a key under
 * `productSpecs.errors.*`, shown beside its field in the page's language.
 */
import { z } from "zod";
import { productSpecKinds, specBounds, type ProductSpecs } from "#common/product-specs.ts";

const errorKey = (name: string) => `productSpecs.errors.${name}`;

/** An empty field is null; otherwise a whole number within `min`..`max`. */
function wholeNumber(min: number, max: number) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === "") return null;
      const number = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
      if (Number.isNaN(number) || number < min || number > max) {
        context.addIssue({ code: "custom", message: errorKey("outOfRange"), params: { min, max } });
        return z.NEVER;
      }
      return number;
    });
}

/** Kilograms as people write them ("7,2" or "7.2"), stored as grams. */
function kilograms(minKg: number, maxKg: number) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      if (value === "") return null;
      const kg = /^\d{1,3}([.,]\d{1,3})?$/.test(value) ? Number(value.replace(",", ".")) : Number.NaN;
      if (Number.isNaN(kg) || kg < minKg || kg > maxKg) {
        context.addIssue({ code: "custom", message: errorKey("outOfRange"), params: { min: minKg, max: maxKg } });
        return z.NEVER;
      }
      return Math.round(kg * 1000);
    });
}

/** A yes/no the staff may leave unsaid: "" is unknown (the line is not shown). */
const yesNo = z.enum(["", "yes", "no"], { error: errorKey("invalid") }).transform((value) => (value === "" ? null : value === "yes"));

/** ECE R44/04 groups, one or several: "0+", "0+/1", "1/2/3". */
const r44Group = z
  .string()
  .trim()
  .transform((value) => value.replace(/\s+/g, ""))
  .refine((value) => value === "" || /^(0\+?|1|2|3)(\/(0\+?|1|2|3))*$/.test(value), errorKey("r44Group"))
  .transform((value) => (value === "" ? null : value));

/** The fields only a car seat has, and those only a stroller has; age and child weight belong to both. */
export const seatOnlyFields = ["statureMinCm", "statureMaxCm", "r44Group", "hasIsofix", "rotates360"] as const;
export const strollerOnlyFields = [
  "weightGrams",
  "foldedLengthCm",
  "foldedWidthCm",
  "foldedHeightCm",
  "isFromBirth",
  "isCarrycotCompatible",
] as const;

export const ProductSpecsInput = z
  .object({
    kind: z.enum(productSpecKinds, { error: errorKey("invalid") }),
    statureMinCm: wholeNumber(...specBounds.statureCm),
    statureMaxCm: wholeNumber(...specBounds.statureCm),
    r44Group,
    hasIsofix: yesNo,
    rotates360: yesNo,
    ageMinMonths: wholeNumber(...specBounds.ageMonths),
    ageMaxMonths: wholeNumber(...specBounds.ageMonths),
    maxChildWeightGrams: kilograms(...specBounds.childWeightKg),
    weightGrams: kilograms(...specBounds.strollerWeightKg),
    foldedLengthCm: wholeNumber(...specBounds.foldedCm),
    foldedWidthCm: wholeNumber(...specBounds.foldedCm),
    foldedHeightCm: wholeNumber(...specBounds.foldedCm),
    isFromBirth: yesNo,
    isCarrycotCompatible: yesNo,
  })
  .superRefine((specs, context) => {
    if (specs.statureMinCm !== null && specs.statureMaxCm !== null && specs.statureMinCm > specs.statureMaxCm) {
      context.addIssue({ code: "custom", path: ["statureMaxCm"], message: errorKey("minAboveMax") });
    }
    if (specs.ageMinMonths !== null && specs.ageMaxMonths !== null && specs.ageMinMonths > specs.ageMaxMonths) {
      context.addIssue({ code: "custom", path: ["ageMaxMonths"], message: errorKey("minAboveMax") });
    }
    const folded = [specs.foldedLengthCm, specs.foldedWidthCm, specs.foldedHeightCm];
    if (folded.some((value) => value !== null) && folded.some((value) => value === null)) {
      context.addIssue({ code: "custom", path: ["foldedLengthCm"], message: errorKey("foldedAllThree") });
    }
  })
  .transform((specs): ProductSpecs => {
    // A kind keeps only its own fields: a seat turned stroller in the form leaves nothing of the seat behind.
    const dropped = specs.kind === "car_seat" ? strollerOnlyFields : seatOnlyFields;
    return { ...specs, ...Object.fromEntries(dropped.map((field) => [field, null])) };
  });
export type ProductSpecsInput = z.input<typeof ProductSpecsInput>;

/** The form's "no specifications" choice removes them. */
export const ProductSpecsForm = z.union([z.object({ kind: z.literal("") }).transform(() => null), ProductSpecsInput]);

/** The form's field names, in the order the schema reads them. */
export const productSpecFields = Object.keys(ProductSpecsInput.in.shape) as (keyof ProductSpecsInput)[];

export type ParsedSpecsForm = { ok: true; value: ProductSpecs | null } | { ok: false; errors: Record<string, string> };

/** The back office form: a field it did not send reads as empty; each field's first problem is its message key. */
export function parseProductSpecsForm(form: FormData): ParsedSpecsForm {
  const fields = Object.fromEntries(["kind", ...productSpecFields].map((name) => [name, form.get(name) ?? ""]));
  if (fields.kind === "") return { ok: true, value: null };
  const parsed = ProductSpecsInput.safeParse(fields);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "kind");
    errors[field] ??= issue.message.startsWith("productSpecs.") ? issue.message : errorKey("invalid");
  }
  return { ok: false, errors };
}

/** The form's values as text, as the staff write them: grams as kilograms ("6,1" in Italian), yes/no as the select's values. */
export function productSpecsFormValues(specs: ProductSpecs | null, locale: "it" | "en"): Record<string, string> {
  if (!specs) return { kind: "" };
  const text = (value: number | string | null) => (value === null ? "" : String(value));
  const yesNo = (value: boolean | null) => (value === null ? "" : value ? "yes" : "no");
  const kg = (grams: number | null) => (grams === null ? "" : String(grams / 1000).replace(".", locale === "it" ? "," : "."));
  return {
    kind: specs.kind,
    statureMinCm: text(specs.statureMinCm),
    statureMaxCm: text(specs.statureMaxCm),
    r44Group: text(specs.r44Group),
    hasIsofix: yesNo(specs.hasIsofix),
    rotates360: yesNo(specs.rotates360),
    ageMinMonths: text(specs.ageMinMonths),
    ageMaxMonths: text(specs.ageMaxMonths),
    maxChildWeightGrams: kg(specs.maxChildWeightGrams),
    weightGrams: kg(specs.weightGrams),
    foldedLengthCm: text(specs.foldedLengthCm),
    foldedWidthCm: text(specs.foldedWidthCm),
    foldedHeightCm: text(specs.foldedHeightCm),
    isFromBirth: yesNo(specs.isFromBirth),
    isCarrycotCompatible: yesNo(specs.isCarrycotCompatible),
  };
}
