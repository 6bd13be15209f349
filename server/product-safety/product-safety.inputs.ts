/**
 * What the back office's product-safety and recall forms send, checked once at the edge. Every message is a
 * key under `productSafety.errors.*`, shown next to its field in the page's language.
 */
import { z } from "zod";

const errorKey = (name: string) => `productSafety.errors.${name}`;

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: errorKey("tooLong") });
const required = (max: number) => text(max).min(1, { error: errorKey("required") });
const id = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, errorKey("invalid"))
  .transform(Number);
/** "" (the form's "none" choice) is null. */
const optionalId = z.union([z.literal("").transform(() => null), id]);
const ids = z.array(id).transform((list) => [...new Set(list)]);

export const SafetyContactRole = z.enum(["manufacturer", "responsible_person"], { error: errorKey("invalid") });
export type SafetyContactRole = z.infer<typeof SafetyContactRole>;

export const SafetyContactInput = z.object({
  role: SafetyContactRole,
  name: required(200),
  postalAddress: required(500),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, errorKey("countryCode")),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, { error: errorKey("tooLong") })
    .pipe(z.email({ error: errorKey("email") })),
});
export type SafetyContactInput = z.infer<typeof SafetyContactInput>;

export const SafetyWarningInput = z.object({
  code: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, errorKey("code"))
    .max(60, { error: errorKey("tooLong") }),
  textIt: required(1000),
  textEn: required(1000),
});
export type SafetyWarningInput = z.infer<typeof SafetyWarningInput>;

export const BrandSafetyInput = z.object({ brandId: id, manufacturerId: optionalId, responsiblePersonId: optionalId });
export type BrandSafetyInput = z.infer<typeof BrandSafetyInput>;

/** A product's own safety data; a null contact takes its brand's. */
export const ProductSafetyInput = z.object({
  manufacturerId: optionalId,
  responsiblePersonId: optionalId,
  modelNumber: text(80).transform((value) => value || null),
  warningIds: ids,
});
export type ProductSafetyInput = z.infer<typeof ProductSafetyInput>;

/** A recall notice, both languages, in the structure of Implementing Regulation (EU) 2024/1435; no variant named: all of them. */
export const RecallInput = z.object({
  variantIds: ids,
  hazardIt: required(2000),
  hazardEn: required(2000),
  whatToDoIt: required(2000),
  whatToDoEn: required(2000),
  remedyIt: required(2000),
  remedyEn: required(2000),
});
export type RecallInput = z.infer<typeof RecallInput>;

export type FieldErrors = Record<string, string>;
export type ParsedSafetyForm<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The first message of each field, keyed by its name ("form" for the whole). */
export function parseSafetyForm<S extends z.ZodType>(schema: S, raw: unknown): ParsedSafetyForm<z.infer<S>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("productSafety.") ? issue.message : errorKey("invalid");
  }
  return { ok: false, errors };
}

/** A form's single values as strings and its repeated ones (`warningIds`, `variantIds`) as lists. */
export function formFields(form: FormData, lists: readonly string[] = []): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== "string") continue;
    if (lists.includes(name)) fields[name] = [...((fields[name] as string[] | undefined) ?? []), value];
    else fields[name] ??= value;
  }
  for (const name of lists) fields[name] ??= [];
  return fields;
}
