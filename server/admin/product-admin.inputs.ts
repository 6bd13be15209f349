/**
 * What the back office's product forms send, checked once at the edge. Every message is a key
 * under `admin.errors.*`, shown next to its field in the page's language.
 */
import { isValidGtin, normaliseGtin } from "#server/catalog/gtin.ts";
import { z } from "zod";
import { storedSizeName } from "#common/sizes.ts";

export const productTextLimits = { sku: 40, name: 200, shortDescription: 1000, fullDescription: 20_000, material: 200, url: 500 } as const;
export const maxStock = 100_000;
export const maxPriceCents = 10_000_000;

/** "12", "12,5", "12.50", "1.299,00", "€ 12,50" -> cents; never a float. */
export function parseEuroCents(raw: string): { ok: true; cents: number } | { ok: false; error: string } {
  let text = raw.replace(/[\s€]/g, "");
  if (text === "") return { ok: false, error: "admin.errors.required" };
  if (text.startsWith("-")) return { ok: false, error: "admin.errors.priceNegative" };
  if (/^\d{1,3}(\.\d{3})+,\d{1,2}$/.test(text)) text = text.replace(/\./g, "");
  const match = /^(\d{1,8})(?:[.,](\d{1,2}))?$/.exec(text);
  if (!match) return { ok: false, error: "admin.errors.priceInvalid" };
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  if (cents > maxPriceCents) return { ok: false, error: "admin.errors.priceTooHigh" };
  return { ok: true, cents };
}

/** Cents back to the form's "12,50". */
export function formatEuroInput(cents: number): string {
  return `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, "0")}`;
}

const text = (max: number) => z.string().trim().max(max, { error: "admin.errors.tooLong" });
const required = (max: number) => text(max).min(1, { error: "admin.errors.required" });
const flag = z.preprocess((value) => value === "on" || value === "true" || value === "1" || value === true, z.boolean());

const euros = (optional: boolean) =>
  z.string().transform((raw, ctx) => {
    if (optional && raw.trim() === "") return 0;
    const parsed = parseEuroCents(raw);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.error });
      return z.NEVER;
    }
    return parsed.cents;
  });

/** A whole number in [min, max]; "" gives null when optional. */
const whole = (min: number, max: number, errors: { negative?: string; range: string }, optional = false) =>
  z.string().transform((raw, ctx): number | null => {
    const value = raw.trim();
    if (value === "") {
      if (optional) return null;
      ctx.addIssue({ code: "custom", message: "admin.errors.required" });
      return z.NEVER;
    }
    if (!/^-?\d{1,9}$/.test(value)) {
      ctx.addIssue({ code: "custom", message: "admin.errors.wholeNumber" });
      return z.NEVER;
    }
    const number = Number(value);
    if (number < 0 && min >= 0) {
      ctx.addIssue({ code: "custom", message: errors.negative ?? errors.range });
      return z.NEVER;
    }
    if (number < min || number > max) {
      ctx.addIssue({ code: "custom", message: errors.range });
      return z.NEVER;
    }
    return number;
  });

/** The same, never empty: the value is always a number. */
const wholeRequired = (min: number, max: number, errors: { negative?: string; range: string }) =>
  whole(min, max, errors).transform((value) => value as number);

const slugList = z.string().transform((raw) =>
  raw
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean),
);

const idList = z.string().transform((raw, ctx) => {
  const parts = raw
    .split(/[,\s]+/)
    .map((part) => part.trim())
    .filter((part) => part && part !== "undefined");
  if (parts.some((part) => !/^\d{1,9}$/.test(part))) {
    ctx.addIssue({ code: "custom", message: "admin.errors.relatedInvalid" });
    return z.NEVER;
  }
  return [...new Set(parts.map(Number))].slice(0, 8);
});

/** One line per field: "Nome | Name | 20". */
const personalisationLines = z.string().transform((raw, ctx) => {
  const lines = raw
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  const fields: { labelIt: string; labelEn: string; maxLength: number }[] = [];
  for (const line of lines) {
    const [labelIt = "", labelEn = "", max = "30"] = line.split("|").map((part) => part.trim());
    const maxLength = Number(max);
    if (!labelIt || !labelEn || !/^\d{1,3}$/.test(max) || maxLength < 1 || maxLength > 200 || labelIt.length > 80 || labelEn.length > 80) {
      ctx.addIssue({ code: "custom", message: "admin.errors.personalisationInvalid" });
      return z.NEVER;
    }
    fields.push({ labelIt, labelEn, maxLength });
  }
  if (fields.length > 5) {
    ctx.addIssue({ code: "custom", message: "admin.errors.personalisationTooMany" });
    return z.NEVER;
  }
  return fields.length ? fields : null;
});

const dateOnly = z.string().transform((raw, ctx): string | null => {
  const value = raw.trim();
  if (value === "") return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    ctx.addIssue({ code: "custom", message: "admin.errors.dateInvalid" });
    return z.NEVER;
  }
  return value;
});

const httpsUrl = z.string().transform((raw, ctx): string | null => {
  const value = raw.trim();
  if (value === "") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: "custom", message: "admin.errors.urlInvalid" });
    return z.NEVER;
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || value.length > productTextLimits.url) {
    ctx.addIssue({ code: "custom", message: "admin.errors.urlInvalid" });
    return z.NEVER;
  }
  return url.toString();
});

export const skuPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const sku = required(productTextLimits.sku).regex(skuPattern, { error: "admin.errors.skuInvalid" });

export const ProductInput = z.object({
  sku,
  nameIt: required(productTextLimits.name),
  nameEn: required(productTextLimits.name),
  shortDescriptionIt: text(productTextLimits.shortDescription).default(""),
  shortDescriptionEn: text(productTextLimits.shortDescription).default(""),
  fullDescriptionIt: text(productTextLimits.fullDescription).default(""),
  fullDescriptionEn: text(productTextLimits.fullDescription).default(""),
  price: euros(false),
  discountPercent: whole(0, 100, { negative: "admin.errors.discountRange", range: "admin.errors.discountRange" }, true).transform(
    (value) => value ?? 0,
  ),
  offerEndsOn: dateOnly.default(""),
  vatRatePercent: whole(0, 100, { range: "admin.errors.vatRange" }, true).transform((value) => value ?? 22),
  isNew: flag,
  isFreeShipping: flag,
  /**
   * Out of the loyalty card (infant formula, docs/decisions/0099-loyalty-card.md). "" leaves it as it is: a CSV
   * without the column changes nothing; the product page always sends "on" or "off".
   */
  isLoyaltyExcluded: z.preprocess(
    (value) => (value === "" || value === undefined ? undefined : value === "on" || value === "true" || value === "1" || value === true),
    z.boolean().optional(),
  ),
  isOnRequest: flag,
  isPublished: flag,
  category: required(80),
  subcategory: text(80).default(""),
  brands: slugList.default([]),
  related: idList.default([]),
  lengthMm: whole(0, 100_000, { negative: "admin.errors.sizeNegative", range: "admin.errors.sizeRange" }, true),
  widthMm: whole(0, 100_000, { negative: "admin.errors.sizeNegative", range: "admin.errors.sizeRange" }, true),
  heightMm: whole(0, 100_000, { negative: "admin.errors.sizeNegative", range: "admin.errors.sizeRange" }, true),
  weightGrams: whole(0, 1_000_000, { negative: "admin.errors.sizeNegative", range: "admin.errors.sizeRange" }, true),
  materialIt: text(productTextLimits.material).default(""),
  materialEn: text(productTextLimits.material).default(""),
  personalisation: personalisationLines.default(null),
  personalisationDescriptionIt: text(1000).default(""),
  personalisationDescriptionEn: text(1000).default(""),
  personalisationCost: euros(true),
  affiliateUrl: httpsUrl.default(null),
});
export type ProductInput = z.output<typeof ProductInput>;

export const productFormFields = [
  "sku",
  "nameIt",
  "nameEn",
  "shortDescriptionIt",
  "shortDescriptionEn",
  "fullDescriptionIt",
  "fullDescriptionEn",
  "price",
  "discountPercent",
  "offerEndsOn",
  "vatRatePercent",
  "isNew",
  "isFreeShipping",
  "isLoyaltyExcluded",
  "isOnRequest",
  "isPublished",
  "category",
  "subcategory",
  "brands",
  "related",
  "lengthMm",
  "widthMm",
  "heightMm",
  "weightGrams",
  "materialIt",
  "materialEn",
  "personalisation",
  "personalisationDescriptionIt",
  "personalisationDescriptionEn",
  "personalisationCost",
  "affiliateUrl",
] as const;

export type FieldErrors = Partial<Record<string, string>>;
export type Parsed<T> = { ok: true; input: T } | { ok: false; errors: FieldErrors; values: Record<string, string> };

/** Strings only (a file where text was expected counts as empty), trimmed of control characters. */
export function formValues(form: FormData | Record<string, unknown>, fields: readonly string[]): Record<string, string> {
  const get = (name: string) => (form instanceof FormData ? form.get(name) : form[name]);
  return Object.fromEntries(
    fields.map((field) => {
      const value = get(field);
      return [field, typeof value === "string" ? value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").slice(0, 25_000) : ""];
    }),
  );
}

export function parseWith<S extends z.ZodType>(schema: S, values: Record<string, string>): Parsed<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, input: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message.startsWith("admin.") ? issue.message : "admin.errors.invalid";
  }
  return { ok: false, errors, values };
}

export function parseProductForm(form: FormData | Record<string, unknown>): Parsed<ProductInput> {
  return parseWith(ProductInput, formValues(form, productFormFields));
}

export const sizePattern = /^[\p{L}\p{N}][\p{L}\p{N} +._-]{0,39}$/u;

/** A size's barcode number, optional: spaces and dashes typed between groups are dropped, the check digit checked. */
const gtin = text(20)
  .transform(normaliseGtin)
  .refine((value) => value === "" || isValidGtin(value), { error: "admin.errors.gtinInvalid" })
  .transform((value) => value || null);

export const VariantInput = z
  .object({
    colourId: whole(1, 2_000_000_000, { range: "admin.errors.invalid" }, true),
    size: text(40)
      .transform(storedSizeName)
      .pipe(z.string().regex(sizePattern, { error: "admin.errors.sizeNameInvalid" })),
    sku,
    stock: wholeRequired(0, maxStock, { negative: "admin.errors.stockNegative", range: "admin.errors.stockRange" }),
    isPreorder: flag,
    preorderDays: whole(1, 365, { range: "admin.errors.preorderDaysRange" }, true),
    gtin: gtin.prefault(""),
  })
  .superRefine((value, ctx) => {
    if (value.isPreorder && value.preorderDays === null)
      ctx.addIssue({ code: "custom", path: ["preorderDays"], message: "admin.errors.preorderDaysRequired" });
  });
export type VariantInput = z.output<typeof VariantInput>;

/** Editing a size: its stock changes only through an adjustment with a reason. */
export const VariantUpdateInput = z
  .object({
    variantId: wholeRequired(1, 2_000_000_000, { range: "admin.errors.invalid" }),
    sku,
    isPreorder: flag,
    preorderDays: whole(1, 365, { range: "admin.errors.preorderDaysRange" }, true),
    gtin: gtin.prefault(""),
  })
  .superRefine((value, ctx) => {
    if (value.isPreorder && value.preorderDays === null)
      ctx.addIssue({ code: "custom", path: ["preorderDays"], message: "admin.errors.preorderDaysRequired" });
  });
export type VariantUpdateInput = z.output<typeof VariantUpdateInput>;

export const StockAdjustmentInput = z.object({
  variantId: wholeRequired(1, 2_000_000_000, { range: "admin.errors.invalid" }),
  delta: wholeRequired(-maxStock, maxStock, { range: "admin.errors.deltaRange" }).refine((value) => value !== 0, { error: "admin.errors.deltaZero" }),
  reason: required(200),
});
export type StockAdjustmentInput = z.output<typeof StockAdjustmentInput>;

export const colourPattern = /^[\p{L}][\p{L}\p{N} -]{0,39}$/u;
export const ColourInput = z.object({
  colour: required(40)
    .transform((value) => value.toLowerCase())
    .pipe(z.string().regex(colourPattern, { error: "admin.errors.colourInvalid" })),
});
