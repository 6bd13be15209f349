import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatMoney } from "#app/lib/format.ts";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import type { OrderView } from "#server/orders/order.service.ts";
import { LineDetails } from "./cart-line-item";
import { ProductImage } from "./product-image";

const oneSize = new Set(["TAGLIA_UNICA", "tagliau"]);

/** The order's lines as they were bought (snapshot prices), and its totals, in euros. */
export function OrderLines({ order, locale }: { order: OrderView; locale: Locale }) {
  const { t } = useTranslation();
  // An order's amounts are what is charged: always euros, whatever the display currency.
  const format = (cents: number) => formatMoney(cents, locale, "EUR");
  const { totals } = order;
  return (
    <section aria-labelledby="order-lines-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="order-lines-title" className="text-xl font-bold">
        {t("order.linesTitle")}
      </h2>
      <ul aria-label={t("order.linesCaption", { number: order.number })} className="mt-3 divide-y divide-brand-100">
        {order.lines.map((line) => (
          <li key={line.id} className="grid grid-cols-[4rem_1fr_auto] items-start gap-3 py-3">
            <div className="overflow-hidden rounded-lg bg-sky-soft">
              <ProductImage image={line.image} sizes="64px" fallbackWidth={160} className="aspect-square size-full object-contain p-0.5" />
            </div>
            <div className="min-w-0">
              <p className="leading-snug font-semibold">
                {line.productId ? (
                  <Link to={localizedHref(`/product/${line.productId}`, locale)} className="hover:text-brand-800 hover:underline">
                    {line.name}
                  </Link>
                ) : (
                  line.name
                )}
              </p>
              <LineDetails line={{ ...line, size: line.size && !oneSize.has(line.size) ? line.size : null }} />
              <p className="text-sm text-muted">
                {t("order.quantity")}: {line.quantity} × {format(line.unitCents + line.personalisationUnitCents)}
              </p>
            </div>
            <p className="font-semibold whitespace-nowrap">
              <span className="sr-only">{t("order.lineTotal")}: </span>
              {format(line.lineTotalCents)}
            </p>
          </li>
        ))}
      </ul>
      <dl className="mt-3 space-y-2 border-t border-brand-100 pt-3">
        <TotalRow term={t("order.subtotal")} value={format(totals.subtotalCents)} />
        {totals.discountCents > 0 && <TotalRow term={t("order.discount")} value={`−${format(totals.discountCents)}`} />}
        {totals.personalisationCents > 0 && <TotalRow term={t("order.personalisation")} value={`+${format(totals.personalisationCents)}`} />}
        <TotalRow term={t("order.shipping")} value={totals.shippingCents === 0 ? t("order.free") : format(totals.shippingCents)} />
        {totals.paymentFeeCents > 0 && <TotalRow term={t("order.paymentFee")} value={format(totals.paymentFeeCents)} />}
        <div className="flex justify-between gap-4 border-t border-brand-100 pt-3 text-lg font-bold">
          <dt>{t("order.total")}</dt>
          <dd data-testid="order-total">{format(totals.totalCents)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-muted">{t("order.vatIncluded")}</p>
    </section>
  );
}

function TotalRow({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt>{term}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}
