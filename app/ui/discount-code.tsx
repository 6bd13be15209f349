import type { TFunction } from "i18next";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useFormatPrice } from "./price";

/** A code the server applied, as the pages show it (never priced here). */
export type ShownDiscountCode = {
  code: string;
  kind: "percent" | "fixed";
  percent: number | null;
  amountCents: number | null;
  isGiftListCompletion: boolean;
  discountCents: number;
};

/** "Codice BENVENUTO10 applicato: 10% di sconto." (a completion code: "... sui prodotti della tua lista"). */
export function discountAppliedText(t: TFunction, applied: ShownDiscountCode, format: (cents: number) => string): string {
  if (applied.isGiftListCompletion) return t("checkout.discount.applied", { code: applied.code, percent: applied.percent });
  return applied.kind === "percent"
    ? t("checkout.discount.appliedPercent", { code: applied.code, percent: applied.percent })
    : t("checkout.discount.appliedAmount", { code: applied.code, amount: format(applied.amountCents ?? 0) });
}

/** Why the code was refused, with the minimum spend when that is why. */
export function discountRefusalText(
  t: TFunction,
  error: string,
  minOrderCents: number | null | undefined,
  format: (cents: number) => string,
): string {
  return t(`checkout.discount.errors.${error}`, { minimum: format(minOrderCents ?? 0) });
}

/**
 * "Codice sconto": checked and priced by the server only. With `onApply` (the checkout, hydrated)
 * "Applica" asks for a new summary; without, it submits the form around it (`submitIntent` as its intent:
 * the same page, priced again).
 */
export function DiscountCodeField({
  id,
  defaultValue,
  error,
  applied,
  onApply,
  submitIntent,
  hint,
  className = "rounded-2xl bg-white p-5 shadow-card",
}: {
  id: string;
  defaultValue: string;
  error?: string;
  applied: ShownDiscountCode | null;
  onApply?: (code: string) => void;
  submitIntent?: string;
  hint?: string;
  /** Its own card by default; the cart's summary holds it as a section of its own. */
  className?: string;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const described =
    [error ? `${id}-error` : null, applied && !error ? `${id}-applied` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {t("checkout.discount.label")}
      </label>
      <CodeEntryRow
        id={id}
        name="discountCode"
        defaultValue={defaultValue}
        maxLength={100}
        describedBy={described}
        invalid={Boolean(error)}
        onApply={onApply}
        submitIntent={submitIntent}
        applyLabel={t("checkout.discount.apply")}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        applied && (
          <p id={`${id}-applied`} className="mt-1 text-sm font-semibold text-brand-700" data-testid="discount-applied">
            {discountAppliedText(t, applied, format)}
          </p>
        )
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A code's input and its apply button (discount codes, gift cards): with scripts Enter or the button applies it
 * in place (`onApply`); without, the button posts the form with `submitIntent`.
 */
export function CodeEntryRow(props: {
  id: string;
  name: string;
  defaultValue?: string;
  maxLength: number;
  describedBy: string | undefined;
  invalid: boolean;
  onApply?: (code: string) => void;
  submitIntent?: string;
  applyLabel: string;
}) {
  const { id, name, defaultValue, maxLength, describedBy, invalid, onApply, submitIntent, applyLabel } = props;
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <div className="mt-1 flex gap-2">
      <input
        ref={inputRef}
        id={id}
        name={name}
        defaultValue={defaultValue}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={maxLength}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        className="field-input min-w-0 flex-1 uppercase"
        onKeyDown={(event) => {
          if (event.key === "Enter" && onApply) {
            event.preventDefault();
            onApply(event.currentTarget.value.trim());
          }
        }}
      />
      <button
        type={onApply ? "button" : "submit"}
        name={onApply || !submitIntent ? undefined : "intent"}
        value={onApply ? undefined : submitIntent}
        className="btn-secondary shrink-0"
        onClick={onApply ? () => onApply(inputRef.current?.value.trim() ?? "") : undefined}
      >
        {applyLabel}
      </button>
    </div>
  );
}
