import { useTranslation } from "react-i18next";
import { useId } from "react";
import { useFormatPrice } from "./price";

/** What the checkout knows of her card (server/loyalty/loyalty-checkout.service.ts), as the page shows it. */
export type ShownCheckoutLoyalty = {
  balance: number;
  stepPoints: number;
  stepCents: number;
  maxSteps: number;
  points: number;
  discountCents: number;
  hasExcludedLines: boolean;
};

/**
 * "Usa i punti della carta": a choice of whole steps the server allows on this order (her balance, and the
 * goods the points may pay for). The server prices and checks it again; `onChoose` asks for a new summary.
 */
export function LoyaltyPointsField({
  loyalty,
  defaultValue,
  error,
  onChoose,
}: {
  loyalty: ShownCheckoutLoyalty;
  defaultValue: string;
  error?: string;
  onChoose?: (points: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const id = useId();
  const described = [`${id}-balance`, error ? `${id}-error` : null].filter(Boolean).join(" ");
  const steps = Array.from({ length: loyalty.maxSteps }, (_, index) => (index + 1) * loyalty.stepPoints);
  return (
    <div className="rounded-2xl bg-white p-5 shadow-card" data-testid="loyalty-points">
      <label htmlFor={id} className="field-label">
        {t("loyalty.checkout.label")}
      </label>
      <select
        id={id}
        name="loyaltyPoints"
        defaultValue={defaultValue}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        disabled={steps.length === 0}
        onChange={onChoose ? (event) => onChoose(event.currentTarget.value) : undefined}
      >
        <option value="0">{t("loyalty.checkout.none")}</option>
        {steps.map((points) => (
          <option key={points} value={points}>
            {t("loyalty.stepOption", { count: points, amount: format((points / loyalty.stepPoints) * loyalty.stepCents) })}
          </option>
        ))}
      </select>
      <p id={`${id}-balance`} className="mt-1 text-sm text-muted">
        {steps.length === 0
          ? t("loyalty.checkout.notEnough", { count: loyalty.balance, step: loyalty.stepPoints })
          : t("loyalty.checkout.balance", { count: loyalty.balance })}
        {loyalty.hasExcludedLines && ` ${t("loyalty.checkout.excluded")}`}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
