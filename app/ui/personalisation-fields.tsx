import { useTranslation } from "react-i18next";
import type { PersonalisationOffer } from "#server/catalog/product.service.ts";
import { useFormatPrice } from "./price";

/**
 * The customisation texts of a customisable product, inside the add-to-cart form: one labelled
 * field per entry, named `personalisation.{index}` (the cart's contract), each with its maximum
 * length, plus the shop's description and the cost per item. Every field is needed (SPEC.md section 5).
 */
export function PersonalisationFields({ personalisation, idPrefix }: { personalisation: PersonalisationOffer; idPrefix: string }) {
  const { t } = useTranslation();
  const formatPrice = useFormatPrice();
  const descriptionId = `${idPrefix}-personalisation-description`;
  return (
    <fieldset className="rounded-2xl border border-brand-100 bg-brand-50/60 p-4" aria-describedby={descriptionId}>
      <legend className="px-1 font-bold">{t("productPage.personalisation.title")}</legend>
      <div id={descriptionId} className="mb-3 text-sm text-muted">
        <p>{personalisation.description}</p>
        <p className="mt-1 font-semibold text-ink">
          {personalisation.costCents > 0
            ? t("productPage.personalisation.cost", { price: formatPrice(personalisation.costCents) })
            : t("productPage.personalisation.free")}
        </p>
      </div>
      <div className="flex flex-col gap-3">
        {personalisation.fields.map((field, index) => {
          const id = `${idPrefix}-personalisation-${index}`;
          const hintId = `${id}-hint`;
          return (
            <div key={index}>
              <label htmlFor={id} className="field-label">
                {field.label}
              </label>
              <input
                id={id}
                name={`personalisation.${index}`}
                type="text"
                required
                maxLength={field.maxLength}
                autoComplete="off"
                aria-describedby={hintId}
                className="field-input"
              />
              <p id={hintId} className="mt-1 text-xs text-muted">
                {t("productPage.personalisation.maxLength", { count: field.maxLength })}
              </p>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
