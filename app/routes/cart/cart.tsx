import { useTranslation } from "react-i18next";
import { z } from "zod";
import { Form, Link, useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { summarizeCart } from "#common/order-summary.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { CartLineItem } from "#app/ui/cart-line-item.tsx";
import { CartTotalsList } from "#app/ui/cart-totals.tsx";
import { DiscountCodeField, discountRefusalText, type ShownDiscountCode } from "#app/ui/discount-code.tsx";
import { useFormatPrice } from "#app/ui/price.tsx";
import { DeliveryPromise } from "#app/ui/delivery-promise.tsx";
import { awaitCartAnswer, FetcherMarker, type CartActionData } from "#app/ui/cart-toasts.tsx";
import { BagIcon } from "#app/ui/icons.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { handleCartAction } from "./cart-action.server";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import { checkDiscountCode, type AppliedDiscountCode } from "#server/coupons/coupon.service.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { promiseDelivery, longestPreorderDays } from "#server/checkout/delivery-estimate.ts";
import { getDeliveryCalendar } from "#server/checkout/delivery-estimate.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { getCartVouchers, vouchersCents } from "#server/vouchers/voucher.service.ts";
import { CartVouchers } from "#app/ui/cart-vouchers.tsx";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/cart";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: [
    "cart",
    "delivery",
    "checkout.discount",
    "orderSummary",
    "giftCards.summary",
    "loyalty.summaryLine",
    "vouchers.cart",
    "vouchers.summaryLine",
  ],
} satisfies MessagesHandle;

/** What the page shows of an applied code (its id and per-line shares stay on the server). */
const shownCodeOf = ({ code, kind, percent, amountCents, isGiftListCompletion, discountCents }: AppliedDiscountCode): ShownDiscountCode => ({
  code,
  kind,
  percent,
  amountCents,
  isGiftListCompletion,
  discountCents,
});

/** A code typed in the cart (`?discountCode=`), read leniently: anything else is no code. */
const TypedCode = z.string().trim().min(1).max(100).nullable().catch(null);

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const { cartId } = readCartRequest(request, services);
  const [cart, vouchers] = await Promise.all([
    getCartView(services.db, { cartId, locale, now: shopNowOf(services, request) }),
    getCartVouchers(services.db, cartId),
  ]);
  // A gift-list cart goes to the list's address: its checkout tells the one delivery it gets.
  const deliveryPromise =
    cart.lines.length > 0 && !cart.giftList
      ? promiseDelivery({
          now: shopNowOf(services, request),
          preorderDays: longestPreorderDays(cart.lines),
          calendar: await getDeliveryCalendar(services.db),
        })
      : null;
  // A code is priced here as at checkout, where the delivery chosen is checked too (decision 0066); it goes there in the link.
  const typed = TypedCode.parse(url.searchParams.get("discountCode"));
  const user = typed && cart.lines.length > 0 ? await getSessionUser(context, request) : null;
  const checked =
    typed && cart.lines.length > 0
      ? await checkDiscountCode(services.db, {
          typed,
          userId: user?.id ?? null,
          email: user?.email ?? null,
          isGiftListCart: Boolean(cart.giftList),
          shipsFree: null,
          now: shopNowOf(services, request),
          lines: cart.lines,
        })
      : null;
  const discount = !typed
    ? null
    : checked?.ok
      ? {
          typed,
          applied: shownCodeOf(checked.applied),
          error: null,
          minOrderCents: null,
        }
      : {
          typed,
          applied: null,
          error: checked?.error ?? null,
          minOrderCents: checked?.ok === false ? (checked.minOrderCents ?? null) : null,
        };
  const summary = summarizeCart(cart.totals, checked?.ok ? checked.applied : null, vouchersCents(vouchers));
  return { cart, vouchers, summary, deliveryPromise, discount, meta: getPageMetaTexts(locale, "cart") };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

/**
 * One action for every cart form of the site (intent = add, increase, decrease, remove, clear,
 * share): see cart-action.server.ts.
 */
export async function action({ request, url, context }: Route.ActionArgs) {
  return handleCartAction(context.get(shopContext), request, localeOfPath(url.pathname));
}

const clearFetcherKey = "cart-clear";

function ClearCartForm() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const fetcher = useFetcher<CartActionData>({ key: clearFetcherKey });
  return (
    <fetcher.Form method="post" action={localizedHref("/cart", localeOfPath(pathname))} onSubmit={() => awaitCartAnswer(clearFetcherKey)}>
      <input type="hidden" name="intent" value="clear" />
      <input type="hidden" name="redirectTo" value={pathname} />
      <FetcherMarker />
      <button type="submit" className="btn-secondary border-coral-600 text-coral-700 hover:bg-coral-50">
        {t("cart.clear")}
      </button>
    </fetcher.Form>
  );
}

export default function CartPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const { cart, discount } = loaderData;
  const format = useFormatPrice();
  const checkoutHref = `${localizedHref("/checkout", locale)}${discount?.applied ? `?${new URLSearchParams({ discountCode: discount.applied.code })}` : ""}`;
  const clearing = useFetcher({ key: clearFetcherKey }).state === "submitting";
  const lines = clearing ? [] : cart.lines;

  return (
    <>
      <PageHeader title={t("cart.title")} />
      <div className="mx-auto max-w-5xl px-4 py-8 sm:py-12">
        {lines.length === 0 && loaderData.vouchers.length === 0 ? (
          <div className="mx-auto max-w-md rounded-2xl bg-white p-8 text-center shadow-card">
            <BagIcon size={48} className="mx-auto text-brand-700" />
            <p className="mt-4 text-lg font-semibold">{t("cart.empty")}</p>
            <Link to={localizedHref("/shop", locale)} className="btn-primary mt-6">
              {t("cart.emptyCta")}
            </Link>
          </div>
        ) : (
          <div className="grid gap-8 lg:grid-cols-[1fr_22rem] lg:items-start">
            {/*
              The summary first: on a phone its total and the way to checkout are on the first screen, above the
              floating chat button's corner, which would cover a total further down. Beside the lines on a large screen.
            */}
            <aside
              aria-labelledby="cart-summary-title"
              className="rounded-2xl bg-white p-6 shadow-card lg:sticky lg:top-4 lg:col-start-2 lg:row-start-1"
            >
              <h2 id="cart-summary-title" className="text-xl font-bold">
                {t("cart.summary")}
              </h2>
              <CartTotalsList summary={loaderData.summary} />
              <p className="mt-2 text-sm text-muted">{t("cart.vatIncluded")}</p>
              {loaderData.deliveryPromise && <DeliveryPromise promise={loaderData.deliveryPromise} className="mt-3" />}
              <Form method="get">
                <DiscountCodeField
                  id="cart-discountCode"
                  className="mt-4 border-t border-brand-100 pt-4"
                  defaultValue={discount?.typed ?? ""}
                  error={discount?.error ? discountRefusalText(t, discount.error, discount.minOrderCents, format) : undefined}
                  applied={discount?.applied ?? null}
                  hint={t("cart.discountHint")}
                />
              </Form>
              {cart.hasProblems ? (
                <>
                  <p className="mt-4 rounded-xl bg-coral-50 p-3 text-sm font-semibold text-coral-700" id="checkout-blocked">
                    {t("cart.checkoutBlocked")}
                  </p>
                  <button
                    type="button"
                    className="btn-primary mt-4 w-full py-3 text-base disabled:cursor-not-allowed disabled:opacity-60"
                    disabled
                    aria-describedby="checkout-blocked"
                  >
                    {t("cart.checkout")}
                  </button>
                </>
              ) : (
                <Link to={checkoutHref} className="btn-primary mt-4 w-full py-3 text-base">
                  {t("cart.checkout")}
                </Link>
              )}
              <Form method="post" className="mt-6 border-t border-brand-100 pt-4">
                <input type="hidden" name="intent" value="share" />
                <p className="text-sm text-muted" id="share-hint">
                  {t("cart.shareHint")}
                </p>
                <button type="submit" className="btn-secondary mt-2 w-full" aria-describedby="share-hint">
                  {t("cart.share")}
                </button>
              </Form>
            </aside>

            <section aria-labelledby="cart-lines-title" className="rounded-2xl bg-white px-4 shadow-card sm:px-6 lg:col-start-1 lg:row-start-1">
              <h2 id="cart-lines-title" className="sr-only">
                {t("cart.linesLabel")}
              </h2>
              {cart.giftList && (
                <p className="mt-4 rounded-xl bg-lilac-soft px-3 py-2 font-semibold">
                  {t("cart.giftList", { title: cart.giftList.title, code: cart.giftList.code })}
                </p>
              )}
              <ul className="divide-y divide-brand-100" data-testid="cart-lines">
                {lines.map((line) => (
                  <CartLineItem key={line.id} line={line} />
                ))}
              </ul>
              {loaderData.vouchers.length > 0 && <CartVouchers vouchers={loaderData.vouchers} locale={locale} removable />}
              <div className="flex flex-wrap items-center justify-between gap-3 border-t border-brand-100 py-4">
                <Link to={localizedHref("/shop", locale)} className="font-semibold text-brand-800 underline-offset-4 hover:underline">
                  {t("cart.continueShopping")}
                </Link>
                <ClearCartForm />
              </div>
            </section>
          </div>
        )}
      </div>
    </>
  );
}
