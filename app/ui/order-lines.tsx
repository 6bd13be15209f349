import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatMoney } from "#common/format.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { shownSize } from "#common/sizes.ts";
import type { OrderView } from "#server/orders/order-view.service.ts";
import { LineDetails } from "./cart-line-item";
import { OrderSummaryRows } from "./order-summary-rows";
import { ProductImage } from "./product-image";

/** The order's lines as they were bought (snapshot prices), and its totals, in euros. */
export function OrderLines({ order, locale }: { order: OrderView; locale: Locale }) {
  const { t } = useTranslation();
  // An order's amounts are what is charged: always euros, whatever the display currency.
  const format = (cents: number) => formatMoney(cents, locale, "EUR");
  return (
    <section aria-labelledby="order-lines-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="order-lines-title" className="text-xl font-bold">
        {t("order.linesTitle")}
      </h2>
      <ul aria-label={t("order.linesCaption", { number: order.number })} className="mt-3 divide-y divide-brand-100">
        {order.lines.map((line) => (
          <PricedLine
            key={line.id}
            image={line.image}
            imageSize="large"
            name={
              line.productId ? (
                <Link to={localizedHref(`/product/${line.productId}`, locale)} className="hover:text-brand-800 hover:underline">
                  {line.name}
                </Link>
              ) : (
                line.name
              )
            }
            details={
              <>
                {line.bundleName && <p className="text-sm font-semibold text-brand-800">{t("bundles.order.partOf", { name: line.bundleName })}</p>}
                <LineDetails line={{ ...line, size: shownSize(line.size) }} />
                <p className="text-sm text-muted">
                  {t("order.quantity")}: {line.quantity} × {format(line.unitCents + line.personalisationUnitCents)}
                </p>
              </>
            }
            amount={
              <>
                <span className="sr-only">{t("order.lineTotal")}: </span>
                {format(line.lineTotalCents)}
              </>
            }
          />
        ))}
      </ul>
      <OrderSummaryRows summary={order.summary} format={format} testIdPrefix="order" className="mt-3 border-t border-brand-100 pt-3" />
      <p className="mt-2 text-sm text-muted">{t("order.vatIncluded")}</p>
    </section>
  );
}

const pictureSizes = {
  small: { columns: "grid-cols-[3.5rem_1fr_auto]", sizes: "56px" },
  large: { columns: "grid-cols-[4rem_1fr_auto]", sizes: "64px" },
} as const;

/** One line of an order or of the checkout's summary: picture, name and details, the line's amount. */
export function PricedLine({
  image,
  imageSize,
  name,
  details,
  amount,
}: {
  image: OrderView["lines"][number]["image"];
  imageSize: keyof typeof pictureSizes;
  name: ReactNode;
  details: ReactNode;
  amount: ReactNode;
}) {
  const { columns, sizes } = pictureSizes[imageSize];
  return (
    <li className={`grid ${columns} items-start gap-3 py-3`}>
      <div className="overflow-hidden rounded-lg bg-sky-soft">
        <ProductImage image={image} sizes={sizes} fallbackWidth={160} className="aspect-square size-full object-contain p-0.5" />
      </div>
      <div className="min-w-0">
        <p className="leading-snug font-semibold">{name}</p>
        {details}
      </div>
      <p className="font-semibold whitespace-nowrap">{amount}</p>
    </li>
  );
}
