import { useState } from "react";
import { useTranslation } from "react-i18next";
import { clampQuantity, getQuantityAdjustment, minQuantity } from "#common/variant-selection.ts";
import { useHydrated } from "./use-hydrated";

/**
 * The quantity to add: a number field (it works, with its limits, without JavaScript) between
 * "−" and "+" buttons. The value stays between 1 and `max` (the stock minus what the cart holds); a typed
 * number changed to fit is announced under the field with the reason ("you can add at most 12").
 */
export function QuantityStepper({
  id,
  value,
  max,
  onChange,
  disabled = false,
  name = "quantity",
  describedBy,
}: {
  id: string;
  value: number;
  /** The most that can still be added; below 1 the stepper is disabled. */
  max: number;
  onChange: (quantity: number) => void;
  disabled?: boolean;
  name?: string;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  // What the person is typing, kept until it is a number again (an empty field while retyping).
  const [draft, setDraft] = useState<string | null>(null);
  // The last number typed and the limit it met. Its note (why it was changed) shows while the field still
  // holds what it was changed to under that limit: a new colour or size (a new value or limit) takes it away.
  const [lastTyped, setLastTyped] = useState<{ typed: number; max: number } | null>(null);
  const adjustment =
    lastTyped && lastTyped.max === max && clampQuantity(lastTyped.typed, max) === value ? getQuantityAdjustment(lastTyped.typed, max) : null;
  const off = disabled || max < minQuantity;
  const noteId = `${id}-note`;
  const set = (quantity: number, typed = false) => {
    setDraft(null);
    setLastTyped(typed ? { typed: quantity, max } : null);
    onChange(clampQuantity(quantity, max));
  };
  const buttonClass =
    "grid size-11 shrink-0 place-items-center text-xl font-bold text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-400 disabled:hover:bg-transparent";

  return (
    <div>
      <label htmlFor={id} className="field-label">
        {t("productPage.quantity")}
      </label>
      <div className="inline-flex items-center overflow-hidden rounded-full border border-slate-400 bg-white">
        <button
          type="button"
          onClick={() => set(value - 1)}
          disabled={!hydrated || off || value <= minQuantity}
          aria-controls={id}
          className={buttonClass}
        >
          <span aria-hidden="true">−</span>
          <span className="sr-only">{t("productPage.decrease")}</span>
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={minQuantity}
          max={Math.max(minQuantity, max)}
          step={1}
          required
          value={draft ?? String(value)}
          disabled={off}
          aria-describedby={describedBy ? `${describedBy} ${noteId}` : noteId}
          onChange={(event) => {
            const text = event.currentTarget.value;
            const typed = Number(text);
            if (text === "" || !Number.isFinite(typed)) setDraft(text);
            else set(typed, true);
          }}
          onBlur={() => setDraft(null)}
          className="h-11 w-16 [appearance:textfield] border-x border-slate-300 text-center text-base font-semibold text-ink disabled:bg-slate-50 disabled:text-muted [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
        />
        <button type="button" onClick={() => set(value + 1)} disabled={!hydrated || off || value >= max} aria-controls={id} className={buttonClass}>
          <span aria-hidden="true">+</span>
          <span className="sr-only">{t("productPage.increase")}</span>
        </button>
      </div>
      <p id={noteId} role="status" className="mt-1 text-sm font-semibold text-coral-700 empty:mt-0">
        {adjustment === "atMost" && t("productPage.quantityAtMost", { count: max })}
        {adjustment === "atLeast" && t("productPage.quantityAtLeast", { count: minQuantity })}
        {adjustment === "whole" && t("productPage.quantityWhole")}
      </p>
    </div>
  );
}
