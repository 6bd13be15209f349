import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { usePendingAddQuantity } from "./add-to-cart-form";
import { CartLineButton, TrashIcon, useOptimisticQuantity } from "./cart-line-item";
import { useColourName } from "#app/lib/colour-name.ts";
import { CartAnswerToasts } from "./cart-toasts";
import { CountBadge } from "./count-badge";
import { BagIcon } from "./icons";
import { useFormatPrice } from "./price";
import { ProductImage } from "./product-image";
import { useDisclosure } from "./use-disclosure";

type MiniCartLine = NonNullable<ReturnType<typeof useRootData>>["cart"]["lines"][number];

function MiniCartLineItem({ line, locale }: { line: MiniCartLine; locale: Locale }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const colourName = useColourName();
  const quantity = useOptimisticQuantity(line.id, line.quantity);
  // Size is null for one-size variants (isOneSize in common/sizes.ts): never shown (docs/rules.md#product-page).
  const details = [line.colour ? `${t("cart.colour")}: ${colourName(line.colour)}` : null, line.size ? `${t("cart.size")}: ${line.size}` : null]
    .filter(Boolean)
    .join(" · ");
  return (
    // Hidden, not unmounted, while being removed: its form shows the answer's toast.
    <li hidden={quantity === 0} className="flex gap-3 py-3">
      <div className="size-14 shrink-0 overflow-hidden rounded-lg bg-sky-soft">
        <ProductImage image={line.image} sizes="56px" fallbackWidth={160} className="size-full object-contain p-0.5" />
      </div>
      <div className="min-w-0 flex-1 text-sm">
        <Link to={localizedHref(`/product/${line.productId}`, locale)} className="line-clamp-2 font-semibold hover:text-brand-800 hover:underline">
          {line.name}
        </Link>
        {details && <p className="text-muted">{details}</p>}
        <p className="text-muted">
          {t("miniCart.quantity", { count: quantity })} × {format(line.unitCents)}
        </p>
        <p className="font-bold">{format(quantity === line.quantity ? line.lineTotalCents : line.unitCents * quantity)}</p>
      </div>
      <CartLineButton
        lineId={line.id}
        intent="remove"
        label={t("miniCart.remove", { name: line.name })}
        className="grid size-9 place-items-center rounded-full text-coral-700 hover:bg-coral-50"
      >
        <TrashIcon size={18} />
      </CartLineButton>
    </li>
  );
}

/**
 * The cart icon with its count and the dropdown of the cart's lines (header, every page). The count
 * is the root loader's plus the adds still on their way.
 */
export function MiniCart({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps } = useDisclosure();
  const cart = useRootData()?.cart;
  const pending = usePendingAddQuantity();
  const count = (cart?.count ?? 0) + pending;
  const lines = cart?.lines ?? [];
  const voucherCount = cart?.voucherCount ?? 0;
  return (
    <details {...detailsProps} className="relative" data-testid="mini-cart">
      <CartAnswerToasts />
      <summary {...summaryProps} className="relative grid size-11 place-items-center rounded-full hover:bg-brand-50">
        <BagIcon />
        <CountBadge count={count} />
        <span className="sr-only">{t("miniCart.label", { count })}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-[min(22rem,calc(100vw-1.5rem))] rounded-2xl border border-brand-100 bg-white p-4 shadow-card">
        <p className="font-bold">{t("miniCart.title")}</p>
        {lines.length === 0 && voucherCount === 0 ? (
          <p className="mt-2 text-muted">{t("miniCart.empty")}</p>
        ) : lines.length === 0 ? (
          <>
            <MiniCartVouchers count={voucherCount} cents={cart?.voucherCents ?? 0} />
            <MiniCartSubtotal cents={cart?.subtotalCents ?? 0} />
          </>
        ) : (
          <>
            {cart?.giftList && (
              <p className="mt-2 rounded-lg bg-lilac-soft px-2 py-1 text-sm">
                {t("cart.giftList", { title: cart.giftList.title, code: cart.giftList.code })}
              </p>
            )}
            <ul className="max-h-[min(22rem,50vh)] divide-y divide-brand-100 overflow-y-auto">
              {lines.map((line) => (
                <MiniCartLineItem key={line.id} line={line} locale={locale} />
              ))}
            </ul>
            {voucherCount > 0 && <MiniCartVouchers count={voucherCount} cents={cart?.voucherCents ?? 0} />}
            <MiniCartSubtotal cents={cart?.subtotalCents ?? 0} />
          </>
        )}
        <div className="mt-4 grid gap-2">
          <Link to={localizedHref("/cart", locale)} className="btn-secondary w-full">
            {t("miniCart.viewCart")}
          </Link>
          {(lines.length > 0 || voucherCount > 0) && (
            <Link to={localizedHref("/checkout", locale)} className="btn-primary w-full">
              {t("miniCart.checkout")}
            </Link>
          )}
        </div>
      </div>
    </details>
  );
}

/** Gift cards and fund contributions are counted, not listed (the cart page shows them), with what they add. */
function MiniCartVouchers({ count, cents }: { count: number; cents: number }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  return (
    <p className="mt-2 flex justify-between text-sm">
      <span>{t("miniCart.vouchers", { count })}</span>
      <span className="font-bold">{format(cents)}</span>
    </p>
  );
}

function MiniCartSubtotal({ cents }: { cents: number }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  return (
    <p className="mt-2 flex justify-between border-t border-brand-100 pt-3 font-bold">
      <span>{t("miniCart.subtotal")}</span>
      <span>{format(cents)}</span>
    </p>
  );
}
