import { useTranslation } from "react-i18next";
import { formatMeasure } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import type { TechnicalSheet as TechnicalSheetData } from "#server/catalog/product.service.ts";

/** The technical table (docs/rules.md#product-page: length, width, height, weight, material), rows the shop left empty omitted. */
export function TechnicalSheet({ sheet, locale, headingId }: { sheet: TechnicalSheetData; locale: Locale; headingId: string }) {
  const { t } = useTranslation();
  const rows: [label: string, value: string][] = [];
  if (sheet.lengthMm !== null) rows.push([t("productPage.sheet.length"), formatMeasure(sheet.lengthMm, "mm", locale)]);
  if (sheet.widthMm !== null) rows.push([t("productPage.sheet.width"), formatMeasure(sheet.widthMm, "mm", locale)]);
  if (sheet.heightMm !== null) rows.push([t("productPage.sheet.height"), formatMeasure(sheet.heightMm, "mm", locale)]);
  if (sheet.weightGrams !== null) rows.push([t("productPage.sheet.weight"), formatMeasure(sheet.weightGrams, "g", locale)]);
  if (sheet.material) rows.push([t("productPage.sheet.material"), sheet.material]);
  return (
    <table aria-labelledby={headingId} className="w-full max-w-xl overflow-hidden rounded-2xl bg-white text-left text-sm shadow-card">
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-brand-100 last:border-b-0">
            <th scope="row" className="w-2/5 bg-brand-50 px-4 py-2.5 font-semibold">
              {label}
            </th>
            <td className="px-4 py-2.5">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
