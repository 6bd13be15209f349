/**
 * The review invitation (docs/decisions/0102-customer-mails-consent.md): some days (the staff's setting)
 * after an order is delivered or collected, its buyer, a verified buyer, gets one mail with a link to
 * review each product she has not reviewed yet; never when she objected. The only writer of review_invitations.
 */
import { and, eq, isNotNull, notExists, sql } from "drizzle-orm";
import { isLocale, localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { orderLines, orders, orderStatusHistory, productReviews, reviewInvitations } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { orderAccessToken } from "#server/orders/order-access.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { daysMs, reviewInvitationWindowMs, type CustomerMailLinks } from "./customer-mails";
import { hasNotObjected, optOutUrl } from "./mail-choice.service";

const batchSize = 50;

/** When the order became completed (delivered or collected): its first move there. */
const completedAt = sql`(select min(${orderStatusHistory.createdAt}) from ${orderStatusHistory} where ${orderStatusHistory.orderId} = ${orders.id} and ${orderStatusHistory.toStatus} = 'completed')`;

/** Queues the invitations now due; returns how many. */
export async function sendDueReviewInvitations(db: Db, args: { links: CustomerMailLinks; now?: Date }): Promise<number> {
  const now = args.now ?? new Date();
  const { customerMails } = await getSettings(db, ["customerMails"]);
  if (!customerMails.reviewInvitationEnabled) return 0;
  const deliveredBefore = new Date(now.getTime() - daysMs(customerMails.reviewInvitationDays));
  const deliveredAfter = new Date(deliveredBefore.getTime() - reviewInvitationWindowMs);
  const due = await db
    .select({ id: orders.id, email: orders.email, firstName: orders.firstName, locale: orders.locale })
    .from(orders)
    .where(
      and(
        eq(orders.status, "completed"),
        sql`${completedAt} <= ${deliveredBefore.toISOString()}::timestamptz`,
        sql`${completedAt} > ${deliveredAfter.toISOString()}::timestamptz`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(reviewInvitations)
            .where(eq(reviewInvitations.orderId, orders.id)),
        ),
        hasNotObjected(orders.email),
      ),
    )
    .limit(batchSize);
  let queued = 0;
  for (const order of due) {
    if (await inviteToReview(db, { ...order, links: args.links, now })) queued += 1;
  }
  return queued;
}

async function inviteToReview(db: Db, order: { id: string; email: string; firstName: string; locale: string; links: CustomerMailLinks; now: Date }) {
  const locale: Locale = isLocale(order.locale) ? order.locale : "it";
  // Each product once, those already reviewed left out.
  const products = await db
    .selectDistinctOn([orderLines.productId], { productId: orderLines.productId, name: orderLines.name })
    .from(orderLines)
    .where(
      and(
        eq(orderLines.orderId, order.id),
        isNotNull(orderLines.productId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(productReviews)
            .where(and(eq(productReviews.orderId, order.id), eq(productReviews.productId, orderLines.productId))),
        ),
      ),
    )
    .orderBy(orderLines.productId, orderLines.name);
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .insert(reviewInvitations)
      .values({ orderId: order.id, email: order.email.toLowerCase(), sentAt: order.now })
      .onConflictDoNothing()
      .returning({ orderId: reviewInvitations.orderId });
    // Another process took it, or every product is reviewed already: recorded, nothing to send.
    if (!invitation || products.length === 0) return false;
    const t = getTranslator(locale);
    const { shop } = await getSettings(tx, ["shop"]);
    const token = orderAccessToken(order.links.secret, order.id);
    const reviewUrl = (productId: number) =>
      `${order.links.publicUrl}${localizedHref(`/ordine/${encodeURIComponent(order.id)}/recensione/${productId}?t=${encodeURIComponent(token)}`, locale)}`;
    const outboxId = await queueEmail(tx, {
      to: order.email,
      kind: "review-invitation",
      locale,
      dedupeKey: `review-invitation:${order.id}`,
      ...renderEmail({
        locale,
        shop,
        siteUrl: order.links.publicUrl,
        subject: t("customerMails.reviewInvitation.subject", { shopName: shop.name }),
        preheader: t("customerMails.reviewInvitation.preheader"),
        heading: t("customerMails.reviewInvitation.heading", { name: order.firstName }),
        paragraphs: [t("customerMails.reviewInvitation.lead")],
        links: products.map((product) => ({
          label: t("customerMails.reviewInvitation.reviewProduct", { name: product.name }),
          url: reviewUrl(product.productId!),
        })),
        footnote: t("customerMails.whyThisMail", { shopName: shop.name }),
        unsubscribe: { label: t("customerMails.optOutLink"), url: optOutUrl(order.links, locale, order.email) },
      }),
    });
    await tx.update(reviewInvitations).set({ outboxEmailId: outboxId }).where(eq(reviewInvitations.orderId, order.id));
    return true;
  });
}
