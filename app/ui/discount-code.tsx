import type { TFunction } from "i18next";

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

/** The summary's line: "Codice sconto BENVENUTO10 (−10%)", or without the percent for a fixed amount. */
export function discountLineTerm(t: TFunction, applied: ShownDiscountCode): string {
  return applied.kind === "percent"
    ? t("checkout.discount.summaryLine", { code: applied.code, percent: applied.percent })
    : t("checkout.discount.summaryLineAmount", { code: applied.code });
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
