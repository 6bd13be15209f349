import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { CartVoucher } from "#server/vouchers/voucher.service.ts";

/** What a gift card line says of its delivery: "sent to X on <day>" or "to print". */
function giftCardDelivery(t: ReturnType<typeof useTranslation>["t"], voucher: Pick<CartVoucher, "recipientEmail" | "deliverOn">, locale: Locale) {
  return voucher.recipientEmail && voucher.deliverOn
    ? t("vouchers.cart.sendOn", { email: voucher.recipientEmail, date: formatDate(voucher.deliverOn, locale) })
    : t("vouchers.cart.toPrint");
}

/** The cart's (and checkout's) voucher lines: a gift card or a fund contribution each, with "remove" on the cart page. */
export function CartVouchers({ vouchers, locale, removable }: { vouchers: readonly CartVoucher[]; locale: Locale; removable: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-brand-100" data-testid="voucher-lines" aria-label={t("vouchers.cart.title")}>
      {vouchers.map((voucher) => {
        const amount = formatMoney(voucher.amountCents, locale, "EUR");
        const what =
          voucher.kind === "gift_card"
            ? t("vouchers.cart.giftCard", { amount })
            : t("vouchers.cart.fund", { fund: voucher.fund?.title ?? "", list: voucher.fund?.giftListTitle ?? "" });
        return (
          <li key={voucher.id} className="flex flex-wrap items-start justify-between gap-3 py-4">
            <div className="min-w-0">
              <p className="font-semibold">{what}</p>
              {voucher.kind === "gift_card" ? (
                <p className="text-sm text-muted">
                  {t("vouchers.cart.to", { name: voucher.recipientName })} · {giftCardDelivery(t, voucher, locale)}
                </p>
              ) : (
                <p className="text-sm text-muted">{t("vouchers.cart.from", { name: voucher.senderName })}</p>
              )}
            </div>
            <div className="flex items-center gap-3">
              <span className="font-semibold">{amount}</span>
              {removable && (
                <Form method="post" action={localizedHref("/carta-regalo/acquista", locale)}>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="voucherId" value={voucher.id} />
                  <button
                    type="submit"
                    className="text-sm font-semibold text-coral-700 underline"
                    aria-label={t("vouchers.cart.removeLabel", { what })}
                  >
                    {t("vouchers.cart.remove")}
                  </button>
                </Form>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
