import { useTranslation } from "react-i18next";
import { CodeEntryRow } from "./discount-code";
import { useFormatPrice } from "./price";

/** A card the server found for this checkout, as the page shows it (what it pays, priced by the server only). */
export type ShownGiftCard = { codeTail: string; cents: number; balanceCents: number };

/**
 * "Carta regalo" at checkout: checked by the server only. With `onApply` (hydrated) "Usa la carta" asks for a
 * new summary; without, it submits the form around it (`submitIntent`: the same page, priced again).
 */
export function GiftCardField({
  id,
  defaultValue,
  error,
  applied,
  paidInFull,
  onApply,
  submitIntent,
}: {
  id: string;
  defaultValue: string;
  error?: string;
  applied: ShownGiftCard | null;
  paidInFull: boolean;
  onApply?: (code: string) => void;
  submitIntent?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const described = [`${id}-hint`, error ? `${id}-error` : null, applied && !error ? `${id}-applied` : null].filter(Boolean).join(" ");
  return (
    <div className="rounded-2xl bg-white p-5 shadow-card">
      <label htmlFor={id} className="field-label">
        {t("giftCards.checkout.label")}
      </label>
      <CodeEntryRow
        id={id}
        name="giftCardCode"
        defaultValue={defaultValue}
        maxLength={40}
        describedBy={described}
        invalid={Boolean(error)}
        onApply={onApply}
        submitIntent={submitIntent}
        applyLabel={t("giftCards.checkout.apply")}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
        {t("giftCards.checkout.hint")}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        applied && (
          <p id={`${id}-applied`} className="mt-1 text-sm font-semibold text-brand-700" data-testid="gift-card-applied">
            {t("giftCards.checkout.applied", { tail: applied.codeTail, amount: format(applied.cents), balance: format(applied.balanceCents) })}
            {paidInFull && <span className="block">{t("giftCards.checkout.paidInFull")}</span>}
          </p>
        )
      )}
    </div>
  );
}
