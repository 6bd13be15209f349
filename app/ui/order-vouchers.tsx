import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { OrderVoucherView } from "#server/vouchers/voucher.service.ts";

/** The order page's voucher lines: where each card went, the print page's link for the buyer, a fund contribution. */
export function OrderVouchers({
  orderId,
  isPaid,
  vouchers,
  printToken,
  locale,
}: {
  orderId: string;
  isPaid: boolean;
  vouchers: readonly OrderVoucherView[];
  /** Null: not the buyer (no print link); "": signed in; else the order link's token. */
  printToken: string | null;
  locale: Locale;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="order-vouchers-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6" data-testid="order-voucher-lines">
      <h2 id="order-vouchers-title" className="text-xl font-bold">
        {t("vouchers.order.title")}
      </h2>
      <ul className="mt-3 space-y-3">
        {vouchers.map((voucher) => {
          const amount = formatMoney(voucher.amountCents, locale, "EUR");
          if (voucher.kind === "fund_contribution")
            return <li key={voucher.id}>{t("vouchers.order.fund", { amount, fund: voucher.fundTitle ?? "" })}</li>;
          const printHref = `${localizedHref(`/ordine/${orderId}/carta-regalo/${voucher.id}`, locale)}${printToken ? `?t=${encodeURIComponent(printToken)}` : ""}`;
          return (
            <li key={voucher.id}>
              <p>
                {voucher.recipientEmail && voucher.deliverOn
                  ? t("vouchers.order.giftCardSent", {
                      amount,
                      name: voucher.recipientName,
                      email: voucher.recipientEmail,
                      date: formatDate(voucher.deliverOn, locale),
                    })
                  : t("vouchers.order.giftCardPrint", { amount, name: voucher.recipientName })}
              </p>
              {!isPaid && <p className="text-sm text-muted">{t("vouchers.order.giftCardWaiting")}</p>}
              {isPaid && voucher.isIssued && !voucher.recipientEmail && printToken !== null && (
                <Link to={printHref} className="btn-secondary mt-2 inline-block">
                  {t("vouchers.order.printLink", { name: voucher.recipientName })}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
