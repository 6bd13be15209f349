import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { formatDate, formatMoney } from "#common/format.ts";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { printableGiftCard } from "#server/vouchers/voucher.service.ts";
import { findOrderAccess } from "../checkout/order-access.server";
import type { Route } from "./+types/gift-card-print";

/** The messages this page renders (app/lib/route-messages.ts). */
export const handle = { messages: ["vouchers.print"] } satisfies MessagesHandle;

/**
 * /ordine/:orderId/carta-regalo/:voucherId: the card "I'll print it", with its code, for the buyer only (signed in
 * as the customer who ordered, or holding the order's link); anyone else, an admin too, gets a 404.
 */
export async function loader({ request, url, params, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const card = await printableGiftCard(services.db, {
    orderId: params.orderId,
    voucherId: params.voucherId,
    secret: resolveAuthSecret(services.env),
  });
  const access = card ? await findOrderAccess(context, request, url, params.orderId, card.orderUserId) : null;
  const isBuyer = access !== null && (access.hasOrderLink || (card?.orderUserId !== null && access.userId === card?.orderUserId));
  if (!isBuyer) throw data(null, { status: 404 });
  if (!card) throw data(null, { status: 404 });
  const token = url.searchParams.get("t");
  return {
    meta: getPageMetaTexts(locale, "vouchers.print"),
    card: { ...card, orderUserId: null, expiresAt: card.expiresAt.toISOString() },
    site: new URL(services.publicUrl).host,
    orderHref: `${localizedHref(`/ordine/${params.orderId}`, locale)}${token ? `?t=${encodeURIComponent(token)}` : ""}`,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [...pageMeta(matches, loaderData?.meta), { name: "robots", content: "noindex" }];

/** A personal answer: never kept by a shared cache (decision 0083). */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function GiftCardPrintPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "it";
  const { card } = loaderData;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <article
        className="rounded-3xl border-4 border-dashed border-brand-300 bg-white p-8 text-center shadow-card print:shadow-none"
        data-testid="printable-gift-card"
      >
        <h1 className="text-3xl font-bold">{t("vouchers.print.title")}</h1>
        <p className="mt-4 text-lg">{t("vouchers.print.for", { name: card.recipientName })}</p>
        <p className="mt-4 text-4xl font-bold text-brand-800">{formatMoney(card.amountCents, locale, "EUR")}</p>
        <p className="mt-4 text-sm text-muted">{t("vouchers.print.code")}</p>
        <p className="font-mono text-2xl font-bold tracking-wider" data-testid="gift-card-code">
          {card.code}
        </p>
        <p className="mt-2">{t("vouchers.print.expiry", { date: formatDate(card.expiresAt, locale) })}</p>
        {card.message && <p className="mt-6 whitespace-pre-line italic">«{card.message}»</p>}
        <p className="mt-4 font-semibold">{t("vouchers.print.from", { name: card.senderName })}</p>
        <p className="mt-6 text-sm text-muted">{t("vouchers.print.howTo", { site: loaderData.site })}</p>
      </article>
      <div className="mt-6 flex flex-wrap gap-3 print:hidden">
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          {t("vouchers.print.print")}
        </button>
        <Link to={loaderData.orderHref} className="btn-secondary">
          {t("vouchers.print.back")}
        </Link>
      </div>
    </div>
  );
}
