import { useTranslation } from "react-i18next";
import { formatAverage, formatDate } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import type { PublishedReview, ReviewSummary } from "#server/reviews/review-display.service.ts";
import { StarRatingIcon } from "./icons";

/**
 * The shop's own stars, a row of the product's details (SKU, categories, brands): named as the shop's and
 * kept away from the customers' reviews and their average, never to be read as theirs.
 */
export function ShopRatingDetail({ rating }: { rating: number }) {
  const { t } = useTranslation();
  return (
    <>
      <dt className="font-semibold">{t("reviews.product.shopRating")}</dt>
      <dd className="flex flex-wrap items-center gap-x-2" data-testid="shop-rating">
        <span className="text-amber-700">
          <StarRatingIcon rating={rating} size={16} />
        </span>
        <span className="sr-only">{t("reviews.product.shopRatingValue", { rating })}</span>
        <span className="text-muted">{t("reviews.product.shopRatingNote")}</span>
      </dd>
    </>
  );
}

/** Under the product's name: customers' average and count, linking to the reviews. */
export function ProductReviewSummary({ summary, locale }: { summary: ReviewSummary; locale: Locale }) {
  const { t } = useTranslation();
  const average = formatAverage(summary.average, locale);
  return (
    <p className="flex flex-wrap items-center gap-x-2">
      <span className="text-amber-700">
        <StarRatingIcon rating={Math.round(summary.average)} size={18} />
      </span>
      <a href="#product-reviews" className="link text-sm" data-testid="review-summary">
        {t("reviews.product.summary", { average, count: summary.count })}
      </a>
    </p>
  );
}

/** The product page's reviews: summary, the published ones newest first with the shop's replies, and how they are checked. */
export function ProductReviews({ summary, reviews, locale }: { summary: ReviewSummary | null; reviews: readonly PublishedReview[]; locale: Locale }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="product-reviews" className="mt-14">
      <h2 id="product-reviews" className="mb-3 text-2xl font-bold">
        {t("reviews.product.title")}
      </h2>
      {summary ? (
        <p className="text-lg font-semibold">
          {t("reviews.product.summary", { average: formatAverage(summary.average, locale), count: summary.count })}
        </p>
      ) : (
        <p className="text-muted">{t("reviews.product.none")}</p>
      )}
      {reviews.length > 0 && (
        <ul className="mt-4 grid gap-4 lg:grid-cols-2">
          {reviews.map((review) => (
            <li key={review.id}>
              <article aria-labelledby={`review-${review.id}`} className="h-full rounded-2xl bg-white p-5 shadow-card">
                <header className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="text-amber-700">
                    <StarRatingIcon rating={review.stars} size={16} />
                  </span>
                  <span className="sr-only">{t("reviews.product.stars", { stars: review.stars })}</span>
                  <h3 id={`review-${review.id}`} className="font-semibold">
                    {review.authorName}
                  </h3>
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-900">{t("reviews.product.verified")}</span>
                  <time dateTime={new Date(review.createdAt).toISOString()} className="text-sm text-muted">
                    {formatDate(review.createdAt, locale)}
                  </time>
                </header>
                <p className="mt-2 whitespace-pre-line" lang={review.locale}>
                  {review.body}
                </p>
                {review.reply && (
                  <div className="mt-3 border-l-4 border-brand-200 pl-3">
                    <p className="text-sm font-semibold">{t("reviews.product.shopReply")}</p>
                    <p className="text-sm whitespace-pre-line">{review.reply}</p>
                  </div>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 max-w-prose rounded-2xl bg-brand-50 p-4 text-sm">
        <h3 className="font-semibold">{t("reviews.product.howCheckedTitle")}</h3>
        <p className="mt-1">{t("reviews.product.howChecked")}</p>
      </div>
    </section>
  );
}
