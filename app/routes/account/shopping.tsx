import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate } from "#common/format.ts";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { variantLabel } from "#common/variant-label.ts";
import { PageHeader } from "#app/ui/page-header.tsx";
import { Price } from "#app/ui/price.tsx";
import { BagIcon } from "#app/ui/icons.tsx";
import { requireUser } from "#server/http/guards.ts";
import { listPurchases } from "#server/accounts/purchases.service.ts";
import { ReviewLineAction } from "#app/ui/order-reviews.tsx";
import { listReviewableLines } from "#server/reviews/review.service.ts";
import { getWithdrawalOptions } from "#server/after-sales/withdrawal.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/shopping";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "purchases",
    "order.view",
    "order.delivery.follow",
    "reviews.write",
    "reviews.writeFor",
    "reviews.state",
    "reviews.orderSection",
    "afterSales.withdraw",
    "afterSales.withdrawOrder",
  ],
} satisfies MessagesHandle;

/** Orders handed over: the ones whose right of withdrawal may still run (each is checked in full). */
const handedOver = new Set(["shipped", "completed"]);

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireUser(context, request);
  const { db } = context.get(shopContext);
  const orders = await listPurchases(db, user.id);
  const reviewable = await listReviewableLines(
    db,
    orders.map((order) => order.id),
  );
  const now = shopNowOf(context.get(shopContext), request);
  const withdrawable: string[] = [];
  for (const order of orders.filter((candidate) => handedOver.has(candidate.status)).slice(0, 20)) {
    if ((await getWithdrawalOptions(db, { orderId: order.id, now }))?.isOffered) withdrawable.push(order.id);
  }
  return {
    meta: getPageMetaTexts(localeOfPath(url.pathname), "purchases"),
    // Each delivered line's review: "Write a review", or where it stands; and whether the order may be withdrawn from.
    orders: orders.map((order) => ({ ...order, reviewLines: reviewable.get(order.id) ?? [], isWithdrawable: withdrawable.includes(order.id) })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

type Order = Route.ComponentProps["loaderData"]["orders"][number];

/** A delivered line's review, once per product: "Write a review" or where it stands. */
function ReviewAction({ order, productId, locale }: { order: Order; productId: number | null; locale: "it" | "en" }) {
  const line = order.reviewLines.find((candidate) => candidate.productId === productId);
  if (!line) return null;
  return (
    <span className="mt-1 block">
      <ReviewLineAction orderId={order.id} line={line} locale={locale} />
    </span>
  );
}

function OrderCard({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const titleId = `order-${order.number}`;
  const variantText = (line: Order["lines"][number]) => variantLabel(t, line);
  return (
    <article aria-labelledby={titleId} className="rounded-3xl bg-white p-6 shadow-card">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id={titleId} className="text-xl font-bold">
            {t("purchases.orderNumber", { number: order.number })}
          </h2>
          <p className="text-sm text-muted">
            {t("purchases.placedOn", { date: formatDate(order.createdAt, locale) })} · {t(`purchases.delivery.${order.deliveryMethod}`)}
          </p>
        </div>
        <p className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-900">{t(`purchases.status.${order.status}`)}</p>
      </header>
      <p className="mt-3">
        <Link to={localizedHref(`/ordine/${order.id}`, locale)} className="link font-semibold">
          {t("order.view", { number: order.number })}
        </Link>
      </p>
      {order.isWithdrawable && (
        <p className="mt-3">
          <Link
            to={localizedHref(`/ordine/${order.id}/recesso`, locale)}
            className="btn-secondary"
            aria-label={t("afterSales.withdrawOrder", { number: order.number })}
          >
            {t("afterSales.withdraw")}
          </Link>
        </p>
      )}
      {order.carrier && order.trackingNumber && (
        <p className="mt-3 text-sm">
          {t("purchases.tracking", { carrier: order.carrier, tracking: order.trackingNumber })}
          {order.trackingUrl && (
            <>
              {" "}
              <a href={order.trackingUrl} className="font-semibold underline">
                {t("order.delivery.follow", { carrier: order.carrier })}
              </a>
            </>
          )}
        </p>
      )}
      <table className="mt-4 w-full text-left text-sm">
        <caption className="sr-only">{t("purchases.linesCaption", { number: order.number })}</caption>
        <thead className="border-b border-brand-100 text-muted">
          <tr>
            <th scope="col" className="py-2 pr-2 font-semibold">
              {t("purchases.product")}
            </th>
            <th scope="col" className="px-2 py-2 text-right font-semibold">
              {t("purchases.quantity")}
            </th>
            <th scope="col" className="py-2 pl-2 text-right font-semibold">
              {t("purchases.lineTotal")}
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.id} className="border-b border-brand-50 align-top">
              <td className="py-2 pr-2">
                {line.productId ? (
                  <Link to={localizedHref(`/product/${line.productId}`, locale)} className="link font-semibold">
                    {line.name}
                  </Link>
                ) : (
                  <span className="font-semibold">{line.name}</span>
                )}
                {variantText(line) && <span className="block text-muted">{variantText(line)}</span>}
                <ReviewAction order={order} productId={line.productId} locale={locale} />
              </td>
              <td className="px-2 py-2 text-right">{line.quantity}</td>
              <td className="py-2 pl-2 text-right">
                <Price cents={line.lineTotalCents} size="sm" />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2} className="pt-3 text-right font-bold">
              {t("purchases.total")}
            </th>
            <td className="pt-3 pl-2 text-right font-bold">
              <Price cents={order.totalCents} />
            </td>
          </tr>
        </tfoot>
      </table>
    </article>
  );
}

export default function ShoppingPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { orders } = loaderData;
  return (
    <>
      <PageHeader title={t("purchases.title")}>
        <p>{t("purchases.lead")}</p>
      </PageHeader>
      <div className="mx-auto max-w-4xl space-y-6 px-4 py-10">
        {orders.length === 0 ? (
          <div className="rounded-3xl bg-white p-10 text-center shadow-card">
            <span className="mx-auto grid size-16 place-items-center rounded-full bg-brand-50 text-brand-700">
              <BagIcon size={32} />
            </span>
            <h2 className="mt-4 text-2xl font-bold">{t("purchases.emptyTitle")}</h2>
            <p className="mt-2 text-muted">{t("purchases.emptyText")}</p>
            <Link to={localizedHref("/shop", locale)} className="btn-primary mt-6">
              {t("purchases.emptyCta")}
            </Link>
          </div>
        ) : (
          orders.map((order) => <OrderCard key={order.id} order={order} />)
        )}
      </div>
    </>
  );
}
