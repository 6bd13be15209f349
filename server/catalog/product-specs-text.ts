/**
 * A product's specifications in words, in the page's language: the product page's table (written on the server so
 * the page ships no labels for the many products without specifications) and the merchant feed's product details
 * (docs/decisions/0101-product-specifications.md).
 */
import type { TFunction } from "i18next";
import { formatMeasure } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import { specLinesOf, type ProductSpecs, type SpecValue } from "#common/product-specs.ts";
import { getTranslator } from "#server/i18n/translator.ts";

/** A specification's value as the table prints it, in the page's language ("40–105 cm", "18 kg", "Sì"). */
function specValueText(value: SpecValue, t: TFunction, locale: Locale): string {
  if (value.type === "yesNo") return t(value.value ? "productSpecs.values.yes" : "productSpecs.values.no");
  if (value.type === "text") return value.text;
  if (value.type === "weight") return formatMeasure(value.grams, "g", locale);
  if (value.type === "folded") {
    return t("productSpecs.values.folded", { length: value.lengthCm, width: value.widthCm, height: value.heightCm });
  }
  const form = value.min !== null && value.max !== null ? "range" : value.min !== null ? "from" : "upTo";
  return t(`productSpecs.values.${form}_${value.unit}`, { min: value.min, max: value.max });
}

/** The table's title and rows for a product's specifications; null when it has none. */
export function specTableOf(specs: ProductSpecs | null, locale: Locale) {
  if (!specs) return null;
  const t = getTranslator(locale);
  return {
    title: t("productSpecs.table.title"),
    rows: specLinesOf(specs).map((line) => ({
      label: t(`productSpecs.labels.${line.key}`),
      text: specValueText(line.value, t, locale),
      value: line.value,
    })),
  };
}
