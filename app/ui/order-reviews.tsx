import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { OrderReviewLine } from "#server/reviews/review.service.ts";

/** "/ordine/{id}/recensione/{product}", with the order link's token when the visitor came with it. */
export function reviewFormHref(orderId: string, productId: number, locale: Locale, token: string | null = null): string {
  return `${localizedHref(`/ordine/${orderId}/recensione/${productId}`, locale)}${token ? `?t=${encodeURIComponent(token)}` : ""}`;
}

/** A delivered line's "Write a review", or where its review stands once written. */
export function ReviewLineAction({
  orderId,
  line,
  locale,
  token,
}: {
  orderId: string;
  line: OrderReviewLine;
  locale: Locale;
  token?: string | null;
}) {
  const { t } = useTranslation();
  if (line.review) return <span className="text-sm text-muted">{t(`reviews.state.${line.review}`)}</span>;
  return (
    <Link
      to={reviewFormHref(orderId, line.productId, locale, token)}
      aria-label={t("reviews.writeFor", { product: line.name })}
      className="link text-sm font-semibold"
    >
      {t("reviews.write")}
    </Link>
  );
}

/** The order page's reviews: each delivered product with its "Write a review" (completed orders only). */
export function OrderReviews({
  orderId,
  lines,
  locale,
  token,
}: {
  orderId: string;
  lines: readonly OrderReviewLine[];
  locale: Locale;
  token: string | null;
}) {
  const { t } = useTranslation();
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby="order-reviews-title" className="rounded-2xl bg-white p-5 shadow-card sm:p-6">
      <h2 id="order-reviews-title" className="text-xl font-bold">
        {t("reviews.orderSection.title")}
      </h2>
      <p className="mt-1 text-muted">{t("reviews.orderSection.text")}</p>
      <ul className="mt-3 divide-y divide-brand-100">
        {lines.map((line) => (
          <li key={line.productId} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3">
            <span className="font-semibold">{line.name}</span>
            <ReviewLineAction orderId={orderId} line={line} locale={locale} token={token} />
          </li>
        ))}
      </ul>
    </section>
  );
}
