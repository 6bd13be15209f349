import type { TFunction } from "i18next";
import type { Locale } from "#common/locale.ts";
import type { SpecValue } from "#common/product-specs.ts";
import { formatMeasure } from "./technical-sheet";

/** A specification's value as the table prints it, in the page's language ("40–105 cm", "18 kg", "Sì"). */
export function specValueText(value: SpecValue, t: TFunction, locale: Locale): string {
  if (value.type === "yesNo") return t(value.value ? "productSpecs.values.yes" : "productSpecs.values.no");
  if (value.type === "text") return value.text;
  if (value.type === "weight") return formatMeasure(value.grams, "g", locale);
  if (value.type === "folded") {
    return t("productSpecs.values.folded", { length: value.lengthCm, width: value.widthCm, height: value.heightCm });
  }
  const form = value.min !== null && value.max !== null ? "range" : value.min !== null ? "from" : "upTo";
  return t(`productSpecs.values.${form}_${value.unit}`, { min: value.min, max: value.max });
}

/** A car seat's or stroller's specification table (docs/decisions/0101-product-specifications.md): a header cell per row. */
export function ProductSpecsTable({ rows, headingId }: { rows: readonly { label: string; text: string }[]; headingId: string }) {
  if (rows.length === 0) return null;
  return (
    <table aria-labelledby={headingId} className="w-full max-w-xl overflow-hidden rounded-2xl bg-white text-left text-sm shadow-card">
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-b border-brand-100 last:border-b-0">
            <th scope="row" className="w-1/2 bg-brand-50 px-4 py-2.5 font-semibold">
              {row.label}
            </th>
            <td className="px-4 py-2.5">{row.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
