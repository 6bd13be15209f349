import { formatAverage } from "#common/format.ts";
import type { Locale } from "#common/locale.ts";
import type { ReviewSummary } from "#server/reviews/review-display.service.ts";
import { StarRatingIcon } from "./icons";
import type { SharedTexts } from "./use-shared-texts";

/** Customers' average and count on a product card: stars, "4,5 (2)", and the whole sentence for screen readers. */
export function CardReviewSummary({ summary, locale, text }: { summary: ReviewSummary; locale: Locale; text: SharedTexts["text"] }) {
  const average = formatAverage(summary.average, locale);
  return (
    <p className="flex items-center gap-1.5 text-sm text-muted">
      <span className="text-amber-700">
        <StarRatingIcon rating={Math.round(summary.average)} size={14} />
      </span>
      <span aria-hidden="true">
        {average} ({summary.count})
      </span>
      <span className="sr-only">{text("reviews.product.summary", { average, count: summary.count })}</span>
    </p>
  );
}
