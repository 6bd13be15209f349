import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { MessagesHandle } from "#common/messages.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { AdminErrorBoundary } from "#app/ui/admin-error-boundary.tsx";
import { FormAlert, Notice } from "#app/ui/admin-form.tsx";
import { TextField } from "#app/ui/form-field.tsx";
import { StarRatingIcon } from "#app/ui/icons.tsx";
import { formFields } from "#server/accounts/form-values.ts";
import { requireAdmin } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { getPageMetaTexts } from "#server/i18n/translator.ts";
import { reviewLimits } from "#common/review-limits.ts";
import { listReviewsForModeration, moderateReviewForm, type ModerationRow, type ReviewStatus } from "#server/reviews/review.service.ts";
import type { Route } from "./+types/reviews";

/** The messages this page renders besides the back office's own (app/lib/route-messages.ts); errors arrive as keys. */
export const handle = { messages: ["reviews.admin", "reviews.errors"] } satisfies MessagesHandle;

const tabs = ["pending", "published", "refused"] as const satisfies readonly ReviewStatus[];
const doneCodes = new Set(["published", "refused", "replied"]);

function tabOf(url: URL): ReviewStatus {
  const asked = url.searchParams.get("stato");
  return tabs.find((tab) => tab === asked) ?? "pending";
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const locale = localeOfPath(url.pathname);
  const status = tabOf(url);
  const done = url.searchParams.get("done");
  return {
    meta: getPageMetaTexts(locale, "reviews.admin"),
    locale,
    status,
    reviews: await listReviewsForModeration(context.get(shopContext).db, { status, locale }),
    done: done && doneCodes.has(done) ? done : null,
  };
}

export async function action({ request, url, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const fields = formFields(await request.formData());
  const result = await moderateReviewForm(context.get(shopContext).db, { raw: fields, moderatorUserId: admin.id, now: new Date() });
  if (result.ok) return redirect(`${url.pathname}?stato=${tabOf(url)}&done=${result.done}`, 303);
  const reviewId = Number(fields.reviewId) || null;
  if (result.error === "invalid") return data({ error: result.message, reviewId }, { status: 400 });
  if (result.error === "not-found") return data({ error: "reviews.errors.notFound", reviewId }, { status: 404 });
  return data({ error: `reviews.errors.${result.error}`, reviewId }, { status: 409 });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);

export default function AdminReviews({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { locale, status, reviews, done } = loaderData;
  const limits = { min: reviewLimits.textMin, max: reviewLimits.replyMax };
  return (
    <section>
      <h1 className="text-3xl font-bold">{t("reviews.admin.title")}</h1>
      <nav aria-label={t("reviews.admin.tabs.label")} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {tabs.map((tab) => (
            <li key={tab}>
              <Link
                to={`${localizedHref("/admin/recensioni", locale)}?stato=${tab}`}
                aria-current={tab === status ? "page" : undefined}
                className={`block rounded-lg px-4 py-2 font-semibold ${tab === status ? "bg-brand-700 text-white" : "border border-brand-100 bg-white text-ink hover:bg-brand-50"}`}
              >
                {t(`reviews.admin.tabs.${tab}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-4 space-y-3">
        {done && <Notice>{t(`reviews.admin.done.${done}`)}</Notice>}
        {actionData?.error && <FormAlert>{t(actionData.error, { max: reviewLimits.reasonMax })}</FormAlert>}
      </div>
      {reviews.length === 0 ? (
        <p className="mt-6">{t("reviews.admin.empty")}</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {reviews.map((review) => (
            <li key={review.id}>
              <ReviewToModerate review={review} locale={locale} limits={limits} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewToModerate({ review, locale, limits }: { review: ModerationRow; locale: "it" | "en"; limits: { min: number; max: number } }) {
  const { t } = useTranslation();
  const titleId = `review-${review.id}`;
  return (
    <article aria-labelledby={titleId} className="rounded-xl border border-brand-100 bg-white p-4">
      <h2 id={titleId} className="text-lg font-bold">
        <Link to={localizedHref(`/product/${review.productId}`, locale)} className="link">
          {review.productName}
        </Link>
      </h2>
      <p className="text-sm text-muted">
        {t("reviews.admin.byline", { author: review.authorName, number: review.orderNumber, date: formatShopDateTime(review.createdAt, locale) })}
      </p>
      <p className="mt-2 flex items-center gap-2 text-amber-700">
        <StarRatingIcon rating={review.stars} size={16} />
        <span className="text-sm text-ink">{t("reviews.admin.stars", { stars: review.stars })}</span>
      </p>
      <p className="mt-2 whitespace-pre-line" lang={review.locale}>
        {review.body}
      </p>
      {review.refusalReason && <p className="mt-2 text-sm">{t("reviews.admin.reason", { reason: review.refusalReason })}</p>}
      {review.status === "pending" && (
        <div className="mt-4 grid gap-4 md:grid-cols-2" role="group" aria-label={t("reviews.admin.actionsFor", { author: review.authorName })}>
          <Form method="post" className="space-y-2">
            <input type="hidden" name="intent" value="publish" />
            <input type="hidden" name="reviewId" value={review.id} />
            <TextField multiline rows={3} label={t("reviews.admin.replyLabel")} name="reply" maxLength={limits.max} />
            <button type="submit" className="btn-primary">
              {t("reviews.admin.publish")}
            </button>
          </Form>
          <Form method="post" className="space-y-2">
            <input type="hidden" name="intent" value="refuse" />
            <input type="hidden" name="reviewId" value={review.id} />
            <TextField multiline rows={3} label={t("reviews.admin.reasonLabel")} name="reason" required maxLength={reviewLimits.reasonMax} />
            <button type="submit" className="btn-secondary">
              {t("reviews.admin.refuse")}
            </button>
          </Form>
        </div>
      )}
      {review.status === "published" && (
        <Form method="post" className="mt-4 space-y-2">
          <input type="hidden" name="intent" value="reply" />
          <input type="hidden" name="reviewId" value={review.id} />
          <TextField multiline rows={3} label={t("reviews.admin.replyLabel")} name="reply" defaultValue={review.reply ?? ""} maxLength={limits.max} />
          <button type="submit" className="btn-secondary">
            {t("reviews.admin.saveReply")}
          </button>
        </Form>
      )}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
