import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useLocation, useRevalidator, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { formatDate } from "#common/format.ts";
import { localeOfPath, localizedHref, type Locale } from "#common/locale.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { OrderDelivery, OrderHistory, OrderPayment } from "#app/ui/order-details.tsx";
import { OrderLines } from "#app/ui/order-lines.tsx";
import { OrderReviews } from "#app/ui/order-reviews.tsx";
import { WithdrawalPanel } from "#app/ui/withdrawal-panel.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { getOrderView, withoutGiftListAddress } from "#server/orders/order-view.service.ts";
import { startCardPayment } from "#server/payments/payment.service.ts";
import { listReviewableLines } from "#server/reviews/review.service.ts";
import { listOrderInvoices } from "#server/invoices/invoice.service.ts";
import { OrderInvoices } from "#app/ui/order-invoices.tsx";
import { getWithdrawalOptions } from "#server/after-sales/withdrawal.service.ts";
import { exchangeOriginOf, listExchangesOfOrder } from "#server/after-sales/exchanges.service.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { orderAccessToken, orderPageHref } from "#server/orders/order-access.ts";
import { ExchangeList } from "#app/ui/exchange-list.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/order";
import { getOrderVouchers } from "#server/vouchers/voucher.service.ts";
import { OrderVouchers } from "#app/ui/order-vouchers.tsx";
import { readOrderAccess } from "./order-access.server";
import { withdrawalHref } from "./withdrawal.server";

const OrderId = z.uuid();

/**
 * The order, for whoever may see it: the holder of the link's token (the browser that placed it, the
 * confirmation e-mail), the signed-in customer who placed it, or an admin. Anyone else gets the same
 * 404 as for an order that does not exist.
 */
async function findVisibleOrder(context: Readonly<RouterContextProvider>, request: Request, url: URL, rawOrderId: string) {
  const { db } = context.get(shopContext);
  const order = OrderId.safeParse(rawOrderId).success ? await getOrderView(db, { orderId: rawOrderId, locale: localeOfPath(url.pathname) }) : null;
  if (!order) throw data(null, { status: 404 });
  const access = await readOrderAccess(context, request, url, order.id, order.userId);
  return { order, access };
}

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "orderSummary",
    "giftCards.summary",
    "loyalty.summaryLine",
    "order",
    "bundles.order",
    "orderStatus",
    "purchases.status",
    "giftLists.group.badge",
    "giftLists.group.orderNote",
    "admin.order.historyNotes",
    "delivery",
    "reviews.write",
    "reviews.writeFor",
    "reviews.state",
    "reviews.orderSection",
    "invoices.customer",
    "afterSales.withdraw",
    "afterSales.orderPanel",
    "afterSales.history",
    "afterSales.routes",
    "giftCardRefunds.route",
    "onlinePayments.methods",
    "guaranteeClaims.linkFromOrder",
    "exchanges",
    "vouchers.order",
    "vouchers.summaryLine",
  ],
} satisfies MessagesHandle;

export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const { order, access } = await findVisibleOrder(context, request, url, params.orderId);
  const locale = localeOfPath(url.pathname);
  const t = getTranslator(locale);
  const { db } = context.get(shopContext);
  // Its buyer reviews what was delivered: through the order's link, or signed in as the customer who ordered.
  const { hasOrderLink, token } = access;
  const isBuyer = hasOrderLink || (order.userId !== null && access.userId === order.userId);
  const reviewLines = isBuyer ? ((await listReviewableLines(db, [order.id])).get(order.id) ?? []) : [];
  const invoices = order.invoice ? await listOrderInvoices(db, order.id) : [];
  // An order still waiting for its money has nothing to withdraw from yet (it expires or is cancelled).
  const withdrawal =
    order.status === "awaiting_payment"
      ? null
      : await getWithdrawalOptions(db, { orderId: order.id, now: shopNowOf(context.get(shopContext), request) });
  const vouchers = await getOrderVouchers(db, order.id);
  // Exchanges asked on this order, or the order this one replaces (decision 0105); a guest's links carry their own tokens.
  const exchanges = await listExchangesOfOrder(db, order.id);
  const exchangeOf = await exchangeOriginOf(db, order.id);
  const secret = resolveAuthSecret(context.get(shopContext).env);
  const linkTo = (id: string) => (hasOrderLink ? orderPageHref(locale, id, orderAccessToken(secret, id)) : localizedHref(`/ordine/${id}`, locale));
  const related = [
    ...exchanges.flatMap((exchange) => (exchange.replacement ? [exchange.replacement.id] : [])),
    ...(exchangeOf ? [exchangeOf.orderId] : []),
  ];
  return {
    invoices,
    exchanges,
    exchangeOf,
    orderHrefs: Object.fromEntries(related.map((id) => [id, linkTo(id)])),
    // The print page's link (and so the code) is for the buyer only: signed in, or holding the order's link.
    vouchers: { lines: vouchers, printToken: isBuyer ? (hasOrderLink ? token : "") : null },
    meta: { title: t("order.title", { number: order.number }), description: t("order.metaDescription") },
    // The giver's page: a gift-list order's address is the family's, never shown (the back office has it).
    order: withoutGiftListAddress(order),
    payProblem: url.searchParams.get("pagamento") === "non-disponibile",
    reviews: { lines: reviewLines, token: hasOrderLink ? token : null },
    // A delivered order's buyer may report a faulty item under the legal guarantee (decision 0103).
    guaranteeHref:
      isBuyer && order.status === "completed"
        ? `${localizedHref(`/ordine/${order.id}/garanzia`, locale)}${hasOrderLink && token ? `?t=${encodeURIComponent(token)}` : ""}`
        : null,
    withdrawal: withdrawal && {
      window: withdrawal.window,
      isOffered: withdrawal.isOffered,
      isReplacement: withdrawal.isReplacement,
      statements: withdrawal.statements.length,
      href: withdrawalHref(locale, order.id, url.searchParams.get("t")),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

/** "Paga ora": back to the open card payment session (or a new one). */
export async function action({ request, url, params, context }: Route.ActionArgs) {
  const { order } = await findVisibleOrder(context, request, url, params.orderId);
  const form = await request.formData();
  if (form.get("intent") !== "pay") throw data(null, { status: 400 });
  const payment = await startCardPayment(context.get(shopContext), { orderId: order.id, locale: localeOfPath(url.pathname) });
  if (payment.ok) return redirect(payment.redirectUrl, 303);
  const back = new URL(url);
  back.searchParams.set("pagamento", "non-disponibile");
  return redirect(`${back.pathname}${back.search}`, 303);
}

const refreshEveryMs = 3000;
const refreshTimes = 5;

/** While a card payment's confirmation is on its way, ask again a few times (JavaScript only). */
function useRefreshWhileCardPending(pending: boolean) {
  const revalidator = useRevalidator();
  const done = useRef(0);
  useEffect(() => {
    if (!pending || done.current >= refreshTimes) return;
    const timer = window.setTimeout(() => {
      done.current += 1;
      // The fresh order arrives through the loader data; the promise only says when.
      void revalidator.revalidate();
    }, refreshEveryMs);
    return () => window.clearTimeout(timer);
  }, [pending, revalidator]);
}

const closedStatuses = new Set(["cancelled", "expired", "refunded"]);

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale: Locale = localeOfPath(pathname);
  const root = useRootData();
  const shop = root?.shop;
  const { order, payProblem, invoices, withdrawal } = loaderData;
  const cardPending = order.status === "awaiting_payment" && order.payment.method === "card";
  useRefreshWhileCardPending(cardPending && order.payment.status === "pending");
  const heading = closedStatuses.has(order.status) ? t("order.title", { number: order.number }) : t("order.thanks", { number: order.number });
  return (
    <>
      <PageHeader title={heading}>
        <p>
          {t("order.placedOn", { date: formatDate(order.createdAt, locale) })} ·{" "}
          <span className="font-semibold text-ink" data-testid="order-status">
            {t("order.status", { status: t(`purchases.status.${order.status}`) })}
          </span>
        </p>
        <p className="text-base">{t("order.emailSent", { email: order.email })}</p>
      </PageHeader>
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:py-10 lg:grid-cols-[1fr_22rem] lg:items-start">
        <div className="space-y-6">
          <OrderPayment order={order} locale={locale} payProblem={payProblem} />
          <OrderLines order={order} locale={locale} />
          {loaderData.vouchers.lines.length > 0 && (
            <OrderVouchers
              orderId={order.id}
              isPaid={order.payment.paidAt !== null}
              vouchers={loaderData.vouchers.lines}
              printToken={loaderData.vouchers.printToken}
              locale={locale}
            />
          )}
          {order.invoice && <OrderInvoices orderId={order.id} documents={invoices} locale={locale} />}
          <OrderReviews orderId={order.id} lines={loaderData.reviews.lines} locale={locale} token={loaderData.reviews.token} />
        </div>
        <div className="space-y-6">
          {shop && <OrderDelivery order={order} shop={shop} />}
          {loaderData.exchangeOf && (
            <p className="rounded-2xl bg-white p-5 font-semibold shadow-card" data-testid="exchange-of">
              <Link to={loaderData.orderHrefs[loaderData.exchangeOf.orderId] ?? "#"} className="link">
                {t("exchanges.replacementOf", { number: loaderData.exchangeOf.orderNumber, returnNumber: loaderData.exchangeOf.returnNumber })}
              </Link>
            </p>
          )}
          {loaderData.exchanges.length > 0 && (
            <section aria-labelledby="exchanges-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
              <h2 id="exchanges-title" className="text-xl font-bold">
                {t("exchanges.list.heading")}
              </h2>
              <ExchangeList
                exchanges={loaderData.exchanges}
                name={(orderLineId) => order.lines.find((line) => line.id === orderLineId)?.name ?? ""}
                orderHref={(id) => loaderData.orderHrefs[id] ?? "#"}
              />
            </section>
          )}
          {withdrawal && <WithdrawalPanel withdrawal={withdrawal} locale={locale} />}
          {loaderData.guaranteeHref && (
            <Link to={loaderData.guaranteeHref} className="btn-secondary inline-block" data-testid="guarantee-link">
              {t("guaranteeClaims.linkFromOrder")}
            </Link>
          )}
          <OrderHistory order={order} locale={locale} />
          <div className="flex flex-wrap gap-3">
            {root?.user && (
              <Link to={localizedHref("/shopping", locale)} className="btn-secondary">
                {t("order.myOrders")}
              </Link>
            )}
            <Link to={localizedHref("/shop", locale)} className="btn-primary">
              {t("order.continueShopping")}
            </Link>
          </div>
        </div>
      </div>
    </>
  );
}
