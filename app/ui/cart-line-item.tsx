import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useFetcher, useFetchers, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { CartLineView } from "#server/cart/cart-view.service.ts";
import { awaitCartAnswer, FetcherMarker, useCartFetcherToasts, type CartActionData } from "./cart-toasts";
import { Icon, type IconProps } from "./icons";
import { Price, useFormatPrice } from "./price";
import { ProductImage } from "./product-image";
import { useColourName } from "#app/lib/colour-name.ts";

export type CartLineIntent = "increase" | "decrease" | "remove";

export function MinusIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 12h14" />
    </Icon>
  );
}

export function PlusIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 5v14M5 12h14" />
    </Icon>
  );
}

export function TrashIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
    </Icon>
  );
}

const lineFetcherKey = (lineId: string, intent: CartLineIntent) => `cart-line:${lineId}:${intent}`;

/** A one-button form acting on a cart line: a fetcher post with JavaScript, a plain post without. */
export function CartLineButton({
  lineId,
  intent,
  label,
  disabled = false,
  className,
  children,
}: {
  lineId: string;
  intent: CartLineIntent;
  label: string;
  disabled?: boolean;
  className: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const key = lineFetcherKey(lineId, intent);
  const fetcher = useFetcher<CartActionData>({ key });
  useCartFetcherToasts(fetcher);
  return (
    <fetcher.Form method="post" action={localizedHref("/cart", localeOfPath(location.pathname))} onSubmit={() => awaitCartAnswer(key)}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="lineId" value={lineId} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <FetcherMarker />
      <button type="submit" className={className} disabled={disabled} aria-label={label} title={label}>
        {children}
      </button>
    </fetcher.Form>
  );
}

/** The line's quantity as the customer expects it while their clicks are on their way. */
export function useOptimisticQuantity(lineId: string, quantity: number): number {
  const fetchers = useFetchers();
  let shown = quantity;
  for (const fetcher of fetchers) {
    if (fetcher.state !== "submitting") continue;
    if (fetcher.key === lineFetcherKey(lineId, "remove")) return 0;
    if (fetcher.key === lineFetcherKey(lineId, "decrease")) shown -= 1;
    if (fetcher.key === lineFetcherKey(lineId, "increase")) shown += 1;
  }
  return Math.max(0, shown);
}

export function LineNotices({ line }: { line: CartLineView }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const notices: { text: string; tone: "problem" | "info" }[] = [];
  if (line.status === "unavailable") notices.push({ text: t("cart.notice.unavailable"), tone: "problem" });
  if (line.status === "out-of-stock") notices.push({ text: t("cart.notice.outOfStock"), tone: "problem" });
  if (line.status === "reduced") notices.push({ text: t("cart.notice.reduced", { count: line.payableQuantity }), tone: "problem" });
  if (line.previousUnitCents !== null) notices.push({ text: t("cart.notice.priceChanged", { price: format(line.previousUnitCents) }), tone: "info" });
  if (line.isPreorder && line.preorderDays) notices.push({ text: t("cart.notice.preorder", { days: line.preorderDays }), tone: "info" });
  if (notices.length === 0) return null;
  return (
    <ul className="mt-2 space-y-1 text-sm">
      {notices.map((notice) => (
        <li
          key={notice.text}
          className={
            notice.tone === "problem" ? "rounded-lg bg-coral-50 px-2 py-1 font-semibold text-coral-700" : "rounded-lg bg-sun-50 px-2 py-1 text-ink"
          }
        >
          {notice.text}
        </li>
      ))}
    </ul>
  );
}

/** Colour, size (never one size) and personalisation texts of a line. */
export function LineDetails({ line }: { line: Pick<CartLineView, "colour" | "size" | "personalisation"> }) {
  const { t } = useTranslation();
  const colourName = useColourName();
  const rows: [string, string][] = [];
  if (line.colour) rows.push([t("cart.colour"), colourName(line.colour)]);
  if (line.size) rows.push([t("cart.size"), line.size]);
  for (const item of line.personalisation) rows.push([item.label, item.text]);
  if (rows.length === 0) return null;
  return (
    <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 text-sm text-muted">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt>{term}:</dt>
          <dd className="break-words text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const stepButton =
  "grid size-10 place-items-center rounded-full text-brand-800 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-muted disabled:opacity-50 disabled:hover:bg-transparent";

/** One row of the cart page: picture, name and details, unit price, quantity stepper, total, remove. */
export function CartLineItem({ line }: { line: CartLineView }) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const quantity = useOptimisticQuantity(line.id, line.quantity);
  const unitCents = line.unitCents + line.personalisationUnitCents;
  const listCents = line.listUnitCents + line.personalisationUnitCents;
  // A line being removed is hidden, not unmounted: its form must live to show the answer's toast.
  return (
    <li hidden={quantity === 0} className="grid grid-cols-[5rem_1fr] gap-x-4 gap-y-3 py-5 sm:grid-cols-[6rem_1fr_auto]">
      <div className="row-span-2 self-start overflow-hidden rounded-xl bg-sky-soft sm:row-span-1">
        <ProductImage image={line.image} sizes="96px" fallbackWidth={160} className="aspect-square size-full object-contain p-1" />
      </div>
      <div className="min-w-0">
        <h3 className="leading-snug font-semibold">
          <Link to={localizedHref(`/product/${line.productId}`, locale)} className="hover:text-brand-800 hover:underline">
            {line.name}
          </Link>
        </h3>
        <LineDetails line={line} />
        {line.personalisationUnitCents > 0 && (
          <p className="mt-1 text-sm text-muted">{t("cart.personalisationEach", { price: format(line.personalisationUnitCents) })}</p>
        )}
        <p className="mt-1 text-sm">
          <span className="sr-only">{t("cart.unitPrice")}: </span>
          <Price cents={unitCents} originalCents={listCents > unitCents ? listCents : null} size="sm" />
        </p>
        <LineNotices line={line} />
      </div>
      <div className="col-start-2 flex flex-wrap items-center justify-between gap-3 sm:col-start-3 sm:flex-col sm:items-end">
        <div
          role="group"
          aria-label={t("cart.quantityOf", { name: line.name })}
          className="flex items-center rounded-full border-2 border-brand-100 bg-white"
        >
          <CartLineButton lineId={line.id} intent="decrease" label={t("cart.decrease", { name: line.name })} className={stepButton}>
            <MinusIcon size={18} />
          </CartLineButton>
          <span className="min-w-8 text-center font-bold" data-testid="line-quantity">
            <span className="sr-only">{t("cart.quantity")}: </span>
            {quantity}
          </span>
          <CartLineButton
            lineId={line.id}
            intent="increase"
            label={t("cart.increase", { name: line.name })}
            disabled={!line.canIncrease || quantity > line.quantity}
            className={stepButton}
          >
            <PlusIcon size={18} />
          </CartLineButton>
        </div>
        <p className="text-right">
          <span className="sr-only">{t("cart.lineTotal")}: </span>
          <span className="text-lg font-bold">{format(quantity === line.quantity ? line.lineTotalCents : unitCents * quantity)}</span>
        </p>
        <CartLineButton
          lineId={line.id}
          intent="remove"
          label={t("cart.removeItem", { name: line.name })}
          className="inline-flex items-center gap-1 rounded-full px-2 py-1 text-sm font-semibold text-coral-700 hover:bg-coral-50"
        >
          <TrashIcon size={16} />
          <span aria-hidden="true">{t("cart.remove")}</span>
        </CartLineButton>
      </div>
    </li>
  );
}
