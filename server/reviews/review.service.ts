/**
 * Customers' reviews (docs/decisions/0059-verified-reviews.md), the only writer of `product_reviews`: a
 * buyer reviews a product of a completed order of theirs, once per product per order; the staff publish,
 * refuse with a reason (mailed to the buyer through the outbox) or answer; only published reviews show.
 */
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, productReviews, products, reviewStatus } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import type { OrderStatus } from "#server/orders/order-status.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { ModerateReviewInput, WriteReviewInput } from "./review.inputs";

export type ReviewStatus = (typeof reviewStatus.enumValues)[number];

/** A completed order was delivered or collected: its buyer has had the goods. */
const reviewableStatuses: ReadonlySet<OrderStatus> = new Set(["completed"]);

/**
 * Who asks: the signed-in customer, and whether they came through the order's own link (its token checked
 * at the edge). The order's link stands for its buyer, as on the order page; a staff account is no buyer.
 */
export type ReviewerProof = { userId: string | null; hasOrderLink: boolean };

export type ReviewRefusal = "not-found" | "not-delivered" | "already-reviewed";
type Refused<Code> = { ok: false; error: Code };

/** "Maria R.": the name shown under a review, never the whole surname. */
export function reviewAuthorName(firstName: string, lastName: string): string {
  const initial = lastName.trim().charAt(0).toUpperCase();
  return initial ? `${firstName.trim()} ${initial}.` : firstName.trim();
}

type ReviewableOrder = { id: string; number: number; status: OrderStatus; firstName: string; lastName: string };

async function findOrderOf(db: Db, orderId: string, proof: ReviewerProof): Promise<ReviewableOrder | null> {
  const [order] = await db
    .select({
      id: orders.id,
      number: orders.number,
      status: orders.status,
      userId: orders.userId,
      firstName: orders.firstName,
      lastName: orders.lastName,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const isBuyer = proof.hasOrderLink || (proof.userId !== null && order.userId === proof.userId);
  return isBuyer ? order : null;
}

/** The order's line for the product (its name as bought), or null when the order has no such product. */
async function findBoughtProduct(db: Db, orderId: string, productId: number) {
  const [line] = await db
    .select({ productId: orderLines.productId, name: orderLines.name })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.productId, productId)))
    .limit(1);
  return line ?? null;
}

export type ReviewFormView = {
  order: { id: string; number: number };
  product: { id: number; name: string };
  /** The name the review will be published under. */
  authorName: string;
  /** The review already written for this product and order, if any. */
  written: { status: ReviewStatus; stars: number; body: string; createdAt: Date } | null;
};

/** What the review form shows, for the buyer of a completed order that holds the product. */
export async function getReviewForm(
  db: Db,
  { orderId, productId, proof }: { orderId: string; productId: number; proof: ReviewerProof },
): Promise<{ ok: true; view: ReviewFormView } | Refused<"not-found" | "not-delivered">> {
  const order = await findOrderOf(db, orderId, proof);
  const line = order ? await findBoughtProduct(db, orderId, productId) : null;
  if (!order || !line) return { ok: false, error: "not-found" };
  if (!reviewableStatuses.has(order.status)) return { ok: false, error: "not-delivered" };
  const [written] = await db
    .select({ status: productReviews.status, stars: productReviews.stars, body: productReviews.body, createdAt: productReviews.createdAt })
    .from(productReviews)
    .where(and(eq(productReviews.orderId, orderId), eq(productReviews.productId, productId)));
  return {
    ok: true,
    view: {
      order: { id: order.id, number: order.number },
      product: { id: productId, name: line.name },
      authorName: reviewAuthorName(order.firstName, order.lastName),
      written: written ?? null,
    },
  };
}

/**
 * Saves a buyer's review, waiting for the staff. Refused, with nothing written: an order that is not the
 * asker's or lacks the product (`not-found`), one not yet delivered, a second review of the product for the
 * order (the unique constraint decides, so two posts at once keep one). Bad fields come back by field.
 */
export async function writeReview(
  db: Db,
  args: { orderId: string; productId: number; proof: ReviewerProof; locale: Locale; raw: unknown },
): Promise<{ ok: true; reviewId: number } | Refused<ReviewRefusal> | { ok: false; error: "invalid"; fields: Record<string, string> }> {
  const form = await getReviewForm(db, args);
  if (!form.ok) return form;
  if (form.view.written) return { ok: false, error: "already-reviewed" };
  const parsed = WriteReviewInput.safeParse(args.raw);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
    return { ok: false, error: "invalid", fields };
  }
  const [row] = await db
    .insert(productReviews)
    .values({
      orderId: args.orderId,
      productId: args.productId,
      userId: args.proof.userId,
      authorName: form.view.authorName,
      stars: parsed.data.stars,
      body: parsed.data.text,
      locale: args.locale,
    })
    .onConflictDoNothing({ target: [productReviews.orderId, productReviews.productId] })
    .returning({ id: productReviews.id });
  return row ? { ok: true, reviewId: row.id } : { ok: false, error: "already-reviewed" };
}

export type OrderReviewLine = { productId: number; name: string; review: ReviewStatus | null };

/**
 * Per order of `orderIds` that may be reviewed now (completed), its distinct products with the state of
 * their review: the order page's and the purchases' "Write a review". Orders not completed are absent.
 */
export async function listReviewableLines(db: Db, orderIds: readonly string[]): Promise<Map<string, OrderReviewLine[]>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([orderLines.orderId, orderLines.productId], {
      orderId: orderLines.orderId,
      productId: sql<number>`${orderLines.productId}`,
      name: orderLines.name,
      review: productReviews.status,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .leftJoin(productReviews, and(eq(productReviews.orderId, orderLines.orderId), eq(productReviews.productId, orderLines.productId)))
    .where(and(inArray(orderLines.orderId, [...orderIds]), isNotNull(orderLines.productId), inArray(orders.status, [...reviewableStatuses])))
    .orderBy(orderLines.orderId, orderLines.productId, orderLines.name);
  const byOrder = new Map<string, OrderReviewLine[]>();
  for (const { orderId, ...line } of rows) byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), line]);
  return byOrder;
}

// ---------------------------------------------------------------- the back office

export type ModerationRow = {
  id: number;
  productId: number;
  productName: string;
  orderId: string;
  orderNumber: number;
  authorName: string;
  stars: number;
  body: string;
  locale: string;
  status: ReviewStatus;
  refusalReason: string | null;
  reply: string | null;
  createdAt: Date;
};

export const moderationPageSize = 50;

/** Reviews in `status`, oldest first for those waiting (first come, first checked), newest first otherwise. */
export async function listReviewsForModeration(db: Db, { status, locale }: { status: ReviewStatus; locale: Locale }): Promise<ModerationRow[]> {
  return db
    .select({
      id: productReviews.id,
      productId: productReviews.productId,
      productName: locale === "en" ? products.nameEn : products.nameIt,
      orderId: productReviews.orderId,
      orderNumber: orders.number,
      authorName: productReviews.authorName,
      stars: productReviews.stars,
      body: productReviews.body,
      locale: productReviews.locale,
      status: productReviews.status,
      refusalReason: productReviews.refusalReason,
      reply: productReviews.reply,
      createdAt: productReviews.createdAt,
    })
    .from(productReviews)
    .innerJoin(products, eq(products.id, productReviews.productId))
    .innerJoin(orders, eq(orders.id, productReviews.orderId))
    .where(eq(productReviews.status, status))
    .orderBy(status === "pending" ? productReviews.createdAt : desc(productReviews.createdAt), productReviews.id)
    .limit(moderationPageSize);
}

export type ModerationRefusal = "not-found" | "already-moderated" | "not-published";
export type ModerationResult = { ok: true; done: "published" | "refused" | "replied" } | Refused<ModerationRefusal>;

/**
 * Publishes (with an optional reply), refuses (the reason mailed to the buyer, in the review's language)
 * or answers a published review. Publishing and refusing act only on a review still waiting: of two staff
 * deciding at once, the first decides and the second is told.
 */
export async function moderateReview(
  db: Db,
  { input, moderatorUserId, now }: { input: ModerateReviewInput; moderatorUserId: string; now: Date },
): Promise<ModerationResult> {
  const where = (status: ReviewStatus) => and(eq(productReviews.id, input.reviewId), eq(productReviews.status, status));
  const decided = { moderatedAt: now, moderatorUserId };
  return db.transaction(async (tx): Promise<ModerationResult> => {
    const changed =
      input.intent === "publish"
        ? await tx
            .update(productReviews)
            .set({ ...decided, status: "published", reply: input.reply, repliedAt: input.reply ? now : null })
            .where(where("pending"))
            .returning({ id: productReviews.id })
        : input.intent === "refuse"
          ? await tx
              .update(productReviews)
              .set({ ...decided, status: "refused", refusalReason: input.reason })
              .where(where("pending"))
              .returning({ id: productReviews.id })
          : await tx
              .update(productReviews)
              .set({ reply: input.reply, repliedAt: input.reply ? now : null })
              .where(where("published"))
              .returning({ id: productReviews.id });
    if (changed.length === 0) {
      const [exists] = await tx.select({ status: productReviews.status }).from(productReviews).where(eq(productReviews.id, input.reviewId));
      if (!exists) return { ok: false, error: "not-found" };
      return { ok: false, error: input.intent === "reply" ? "not-published" : "already-moderated" };
    }
    await recordAudit(tx, {
      actorUserId: moderatorUserId,
      action: `review.${input.intent}`,
      entity: "review",
      entityId: input.reviewId,
      details: input.intent === "refuse" ? { reason: input.reason } : { reply: input.reply },
    });
    if (input.intent === "refuse") await queueRefusalMail(tx, input.reviewId, input.reason);
    return { ok: true, done: input.intent === "publish" ? "published" : input.intent === "refuse" ? "refused" : "replied" };
  });
}

/** Parses the back office's form and moderates; a bad form is `invalid` with the first problem's key. */
export async function moderateReviewForm(
  db: Db,
  { raw, moderatorUserId, now }: { raw: unknown; moderatorUserId: string; now: Date },
): Promise<ModerationResult | { ok: false; error: "invalid"; message: string }> {
  const parsed = ModerateReviewInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "invalid", message: parsed.error.issues[0]?.message ?? "reviews.errors.notFound" };
  return moderateReview(db, { input: parsed.data, moderatorUserId, now });
}

async function queueRefusalMail(tx: Db, reviewId: number, reason: string) {
  const [review] = await tx
    .select({ locale: productReviews.locale, email: orders.email, firstName: orders.firstName, productName: orderLines.name })
    .from(productReviews)
    .innerJoin(orders, eq(orders.id, productReviews.orderId))
    .innerJoin(orderLines, and(eq(orderLines.orderId, productReviews.orderId), eq(orderLines.productId, productReviews.productId)))
    .where(eq(productReviews.id, reviewId))
    .limit(1);
  if (!review) return;
  const locale: Locale = review.locale === "en" ? "en" : "it";
  const t = getTranslator(locale);
  const { shop } = await getSettings(tx, ["shop"]);
  const values = { name: review.firstName, product: review.productName, shopName: shop.name };
  await queueEmail(tx, {
    to: review.email,
    kind: "review-refused",
    locale,
    dedupeKey: `review-refused:${reviewId}`,
    ...renderEmail({
      locale,
      shop,
      subject: t("reviews.refusedMail.subject", values),
      heading: t("reviews.refusedMail.heading", values),
      paragraphs: [t("reviews.refusedMail.intro", values), t("reviews.refusedMail.reason", { reason }), t("reviews.refusedMail.rules")],
    }),
  });
}
