import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useLocation, useNavigation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { summarizeCart } from "#common/order-summary.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { LineDetails } from "#app/ui/cart-line-item.tsx";
import { CartTotalsList } from "#app/ui/cart-totals.tsx";
import { PageHeader } from "#app/ui/page-header.tsx";
import { Price, useFormatPrice } from "#app/ui/price.tsx";
import { ProductImage } from "#app/ui/product-image.tsx";
import { useToast } from "#app/ui/toaster.tsx";
import { useHydrated } from "#app/ui/use-hydrated.ts";
import { cartErrorMessage } from "./cart-action.server";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { copyBasketToCart, getBasketView } from "#server/cart/basket.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import type { MessagesHandle } from "#common/messages.ts";
import type { Route } from "./+types/basket";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = {
  messages: ["basket", "orderSummary", "giftCards.summary", "loyalty.summaryLine", "vouchers.summaryLine"],
} satisfies MessagesHandle;

export async function loader({ params, url, request, context }: Route.LoaderArgs) {
  const { db, publicUrl } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const basket = await getBasketView(db, { id: params.id, locale, now: shopNowOf(context.get(shopContext), request) });
  if (!basket) throw data(null, { status: 404 });
  return {
    basket,
    summary: summarizeCart(basket.totals),
    saved: url.searchParams.get("saved") === "1",
    shareUrl: `${publicUrl}${localizedHref(`/basket/${basket.id}`, locale)}`,
    meta: getPageMetaTexts(locale, "basket"),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

/** Copies the basket into the visitor's cart with every cart rule; answers with how each line fared. */
export async function action({ request, params, url, context }: Route.ActionArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const cartRequest = readCartRequest(request, services);
  const result = await copyBasketToCart(services.db, { id: params.id, cartId: cartRequest.cartId, locale, now: shopNowOf(services, request) });
  if (!result.ok) throw data(null, { status: 404 });
  const headers = new Headers();
  if (result.cartId !== cartRequest.cartId) headers.append("Set-Cookie", cartRequest.cookieHeaders.cart(result.cartId));
  const added = result.lines.reduce((sum, line) => sum + line.added, 0);
  const problems = result.lines
    .filter((line) => line.error !== null)
    .map((line) => ({
      name: line.name,
      added: line.added,
      wanted: line.wanted,
      message: cartErrorMessage(locale, line.error!, line.error === "stock-exceeded" ? line.added : undefined),
    }));
  return data({ added, problems }, { headers });
}

function ShareLink({ url }: { url: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { showToast } = useToast();
  const [copied, setCopied] = useState(false);
  // Without clipboard access the link is selected instead, for the person to copy by hand.
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      showToast({ kind: "success", message: t("basket.linkCopied") });
    } catch {
      document.querySelector<HTMLInputElement>("#basket-link")?.select();
    }
  };
  return (
    <section aria-labelledby="basket-saved-title" className="mb-8 rounded-2xl border-2 border-brand-200 bg-brand-50 p-5">
      <h2 id="basket-saved-title" className="text-lg font-bold">
        {t("basket.savedTitle")}
      </h2>
      <p className="mt-1">{t("basket.savedText")}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <label className="sr-only" htmlFor="basket-link">
          {t("basket.link")}
        </label>
        <input
          id="basket-link"
          readOnly
          value={url}
          className="min-w-0 flex-1 rounded-full border-2 border-brand-200 bg-white px-4 py-2 font-mono text-sm"
          onFocus={(event) => event.currentTarget.select()}
        />
        {hydrated && (
          <button type="button" className="btn-primary" onClick={() => void copyLink()}>
            {copied ? t("basket.linkCopied") : t("basket.copyLink")}
          </button>
        )}
      </div>
    </section>
  );
}

export default function BasketPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormatPrice();
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  const navigation = useNavigation();
  const { showToast } = useToast();
  const { basket, saved, shareUrl } = loaderData;
  const reportRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!actionData) return;
    if (actionData.added > 0) showToast({ kind: "success", message: t("basket.copied", { count: actionData.added }) });
    reportRef.current?.focus();
  }, [actionData, showToast, t]);

  return (
    <>
      <PageHeader title={t("basket.title")}>{t("basket.intro")}</PageHeader>
      <div className="mx-auto max-w-5xl px-4 py-8 sm:py-12">
        {saved && <ShareLink url={shareUrl} />}
        {actionData && (
          <div ref={reportRef} tabIndex={-1} role="status" className="mb-8 rounded-2xl bg-white p-5 shadow-card outline-none">
            <p className="font-bold">{t("basket.copied", { count: actionData.added })}</p>
            {actionData.problems.length > 0 && (
              <>
                <h2 className="mt-3 font-semibold">{t("basket.refusedTitle")}</h2>
                <ul className="mt-1 list-disc space-y-1 pl-5 text-sm">
                  {actionData.problems.map((problem, index) => (
                    // Two sizes of one product share its name.
                    <li key={`${index}:${problem.name}`}>
                      {problem.added > 0 ? t("basket.reducedLine", problem) : problem.name}: {problem.message}
                    </li>
                  ))}
                </ul>
              </>
            )}
            <Link to={localizedHref("/cart", locale)} className="btn-primary mt-4">
              {t("basket.goToCart")}
            </Link>
          </div>
        )}
        <ul className="divide-y divide-brand-100 rounded-2xl bg-white px-4 shadow-card sm:px-6">
          {basket.lines.map((line) => {
            const unit = line.unitCents + line.personalisationUnitCents;
            const list = line.listUnitCents + line.personalisationUnitCents;
            return (
              <li
                key={`${line.variantId}:${JSON.stringify(line.personalisation)}`}
                className="grid grid-cols-[4.5rem_1fr_auto] items-start gap-4 py-4"
              >
                <div className="overflow-hidden rounded-xl bg-sky-soft">
                  <ProductImage image={line.image} sizes="72px" fallbackWidth={160} className="aspect-square size-full object-contain p-1" />
                </div>
                <div className="min-w-0">
                  <h2 className="leading-snug font-semibold">
                    <Link to={localizedHref(`/product/${line.productId}`, locale)} className="hover:text-brand-800 hover:underline">
                      {line.name}
                    </Link>
                  </h2>
                  <LineDetails line={line} />
                  <p className="mt-1 text-sm">
                    {t("cart.quantity")}: <strong>{line.quantity}</strong> ×{" "}
                    <Price cents={unit} originalCents={list > unit ? list : null} size="sm" />
                  </p>
                  {(!line.isForSale || line.stock === 0) && (
                    <p className="mt-1 rounded-lg bg-coral-50 px-2 py-1 text-sm font-semibold text-coral-700">{t("cart.notice.outOfStock")}</p>
                  )}
                </div>
                <p className="font-bold">{format(line.lineTotalCents)}</p>
              </li>
            );
          })}
        </ul>
        <div className="mt-6 grid gap-6 sm:grid-cols-[1fr_20rem]">
          <div />
          <div className="rounded-2xl bg-white p-5 shadow-card">
            <CartTotalsList summary={loaderData.summary} />
            {basket.availableLines === 0 ? (
              <p className="mt-4 font-semibold text-coral-700">{t("basket.noneAvailable")}</p>
            ) : (
              <Form method="post" className="mt-4">
                <button type="submit" className="btn-primary w-full py-3 text-base" disabled={navigation.state === "submitting"}>
                  {t("basket.copyToCart")}
                </button>
              </Form>
            )}
          </div>
        </div>
      </div>
    </>
  );
}
