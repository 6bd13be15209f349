import { useTranslation } from "react-i18next";
import type { CartTotals } from "#server/cart/cart.ts";
import { useFormatPrice } from "./price";

/**
 * Subtotal, discount and personalisation lines (when there are any) and the total, as computed on the
 * server; with a discount code applied (the cart page), its line and the total after it.
 */
export function CartTotalsList({
  totals,
  code = null,
  totalCents = totals.totalCents,
}: {
  totals: CartTotals;
  code?: { term: string; cents: number } | null;
  totalCents?: number;
}) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  return (
    <dl className="mt-4 space-y-2">
      <div className="flex justify-between gap-4">
        <dt>{t("cart.subtotal")}</dt>
        <dd className="font-semibold">{format(totals.subtotalCents)}</dd>
      </div>
      {totals.discountCents > 0 && (
        <div className="flex justify-between gap-4 text-coral-700">
          <dt>{t("cart.discount")}</dt>
          <dd className="font-semibold">−{format(totals.discountCents)}</dd>
        </div>
      )}
      {code && (
        <div className="flex justify-between gap-4 text-coral-700" data-testid="cart-discount-code">
          <dt>{code.term}</dt>
          <dd className="font-semibold">−{format(code.cents)}</dd>
        </div>
      )}
      {totals.personalisationCents > 0 && (
        <div className="flex justify-between gap-4">
          <dt>{t("cart.personalisationCost")}</dt>
          <dd className="font-semibold">+{format(totals.personalisationCents)}</dd>
        </div>
      )}
      <div className="flex justify-between gap-4 border-t border-brand-100 pt-3 text-lg font-bold">
        <dt>{t("cart.total")}</dt>
        <dd data-testid="cart-total">{format(totalCents)}</dd>
      </div>
    </dl>
  );
}
