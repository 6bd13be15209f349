import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { CartVoucher, OrderVoucherView } from "#server/vouchers/voucher.service.ts";

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
