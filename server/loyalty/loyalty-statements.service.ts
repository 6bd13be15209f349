/**
 * The points statement mail before points expire: once per card and expiry day (a month's points expire
 * together, server/loyalty/loyalty.ts), `noticeDays` ahead, through the shop's mail queue in her language.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { formatDate } from "#common/format.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { loyaltyCards, loyaltyEntries, profiles, users } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { formatCardNumber } from "#common/loyalty-card-number.ts";
import { markExpiryNotice } from "./loyalty.service";

/** Queues the statements due; returns how many were queued. */
export async function queueExpiryStatements(db: Db, args: { now: Date; publicUrl: string | null }): Promise<number> {
  const { loyalty, shop } = await getSettings(db, ["loyalty", "shop"]);
  const horizon = new Date(args.now.getTime() + loyalty.noticeDays * 86_400_000);
  const batches = await db
    .select({
      cardId: loyaltyEntries.cardId,
      expiresAt: loyaltyEntries.expiresAt,
      points: sql<number>`sum(${loyaltyEntries.remaining})`.mapWith(Number),
      number: loyaltyCards.number,
      balance: loyaltyCards.balance,
      email: users.email,
      name: users.name,
      locale: profiles.preferredLocale,
    })
    .from(loyaltyEntries)
    .innerJoin(loyaltyCards, eq(loyaltyCards.id, loyaltyEntries.cardId))
    .innerJoin(users, eq(users.id, loyaltyCards.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(gt(loyaltyEntries.remaining, 0), gt(loyaltyEntries.expiresAt, args.now), lte(loyaltyEntries.expiresAt, horizon)))
    .groupBy(
      loyaltyEntries.cardId,
      loyaltyEntries.expiresAt,
      loyaltyCards.number,
      loyaltyCards.balance,
      users.email,
      users.name,
      profiles.preferredLocale,
    )
    .limit(500);
  let queued = 0;
  for (const batch of batches) {
    if (!batch.expiresAt) continue;
    const expiresOn = italianDayOf(batch.expiresAt);
    const locale: Locale = batch.locale === "en" ? "en" : "it";
    const t = getTranslator(locale);
    const values = { points: batch.points, date: formatDate(batch.expiresAt, locale), balance: batch.balance, shopName: shop.name };
    const sent = await db.transaction(async (tx) => {
      if (!(await markExpiryNotice(tx, { cardId: batch.cardId, expiresOn, points: batch.points, now: args.now }))) return false;
      await queueEmail(tx, {
        to: batch.email,
        kind: "loyalty-statement",
        locale,
        dedupeKey: `loyalty-statement:${batch.cardId}:${expiresOn}`,
        ...renderEmail({
          locale,
          shop,
          siteUrl: args.publicUrl ?? undefined,
          subject: t("loyalty.statement.subject", values),
          heading: t("loyalty.statement.heading", values),
          paragraphs: [
            t("loyalty.statement.greeting", { name: batch.name }),
            t("loyalty.statement.expiring", values),
            t("loyalty.statement.spend", values),
          ],
          detailsTitle: t("loyalty.statement.detailsTitle"),
          details: [
            [t("loyalty.card.number"), formatCardNumber(batch.number)],
            [t("loyalty.card.balance"), t("loyalty.points", { count: batch.balance })],
            [t("loyalty.statement.expiringLabel", values), t("loyalty.points", { count: batch.points })],
          ],
          action: args.publicUrl
            ? { label: t("loyalty.statement.action"), url: `${args.publicUrl}${localizedHref("/carta-fedelta", locale)}` }
            : undefined,
        }),
      });
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
