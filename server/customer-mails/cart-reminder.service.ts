/**
 * The abandoned-cart reminder (docs/decisions/0102-customer-mails-consent.md): a signed-in customer who
 * has bought before and has not objected, whose cart has held goods untouched longer than the staff's
 * delay, gets one mail listing the lines with a link back to the cart; nothing once the cart is empty
 * (it became an order) or she ordered since. The only writer of cart_reminders.
 */
import { and, desc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { formatMoney } from "#common/format.ts";
import { isLocale, localizedHref, type Locale } from "#common/locale.ts";
import { getCartView } from "#server/cart/cart-view.service.ts";
import type { Db } from "#server/db/client.ts";
import { cartLines, cartReminders, carts, orders, users } from "#server/db/schema.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { cartReminderGapMs, cartReminderWindowMs, hoursMs, saleStatuses, type CustomerMailLinks } from "./customer-mails";
import { hasNotObjected, optOutUrl } from "./mail-choice.service";

/** Reminders queued in one run at most: the rest wait for the next run. */
const batchSize = 50;

/** Queues the reminders now due; returns how many. */
export async function sendDueCartReminders(db: Db, args: { links: CustomerMailLinks; now?: Date }): Promise<number> {
  const now = args.now ?? new Date();
  const { customerMails } = await getSettings(db, ["customerMails"]);
  if (!customerMails.cartReminderEnabled) return 0;
  const idleSince = new Date(now.getTime() - hoursMs(customerMails.cartReminderDelayHours));
  const oldest = new Date(idleSince.getTime() - cartReminderWindowMs);
  const gapStart = new Date(now.getTime() - cartReminderGapMs);
  const due = await db
    .select({ cartId: carts.id, email: users.email, name: users.name, userId: users.id })
    .from(carts)
    .innerJoin(users, eq(users.id, carts.userId))
    .where(
      and(
        lte(carts.updatedAt, idleSince),
        gt(carts.updatedAt, oldest),
        sql`exists (select 1 from ${cartLines} where ${cartLines.cartId} = ${carts.id})`,
        // An existing customer: an order of hers became a sale.
        sql`exists (select 1 from ${orders} where ${orders.userId} = ${users.id} and ${inArray(orders.status, [...saleStatuses])})`,
        // Nothing ordered since the cart was last touched (from another device, say).
        sql`not exists (select 1 from ${orders} where ${orders.userId} = ${users.id} and ${orders.createdAt} >= ${carts.updatedAt})`,
        // Once per state of the cart, and at most once per gap whatever she changes.
        sql`not exists (select 1 from ${cartReminders} where ${cartReminders.cartId} = ${carts.id} and (${cartReminders.sentAt} >= ${carts.updatedAt} or ${cartReminders.sentAt} > ${gapStart.toISOString()}::timestamptz))`,
        hasNotObjected(users.email),
      ),
    )
    .orderBy(carts.updatedAt)
    .limit(batchSize);
  let queued = 0;
  for (const cart of due) {
    if (await remindOfCart(db, { ...cart, links: args.links, now })) queued += 1;
  }
  return queued;
}

async function remindOfCart(db: Db, args: { cartId: string; email: string; name: string; userId: string; links: CustomerMailLinks; now: Date }) {
  const [lastOrder] = await db
    .select({ locale: orders.locale })
    .from(orders)
    .where(eq(orders.userId, args.userId))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  const locale: Locale = isLocale(lastOrder?.locale) ? lastOrder.locale : "it";
  const view = await getCartView(db, { cartId: args.cartId, locale, now: args.now });
  const lines = view.lines.filter((line) => line.isForSale);
  if (lines.length === 0) return false;
  return db.transaction(async (tx) => {
    // The cart's own updatedAt (microseconds), so a second process finds the same key and inserts nothing.
    const [reminder] = await tx
      .insert(cartReminders)
      .values({
        cartId: args.cartId,
        cartUpdatedAt: sql`(select ${carts.updatedAt} from ${carts} where ${carts.id} = ${args.cartId})`,
        email: args.email.toLowerCase(),
        sentAt: args.now,
      })
      .onConflictDoNothing()
      .returning({ id: cartReminders.id });
    if (!reminder) return false;
    const t = getTranslator(locale);
    const { shop } = await getSettings(tx, ["shop"]);
    const firstName = args.name.trim().split(/\s+/)[0] ?? "";
    const outboxId = await queueEmail(tx, {
      to: args.email,
      kind: "cart-reminder",
      locale,
      dedupeKey: `cart-reminder:${reminder.id}`,
      ...renderEmail({
        locale,
        shop,
        siteUrl: args.links.publicUrl,
        subject: t("customerMails.cartReminder.subject"),
        preheader: t("customerMails.cartReminder.preheader"),
        heading: t("customerMails.cartReminder.heading", { name: firstName }),
        paragraphs: [t("customerMails.cartReminder.lead")],
        detailsTitle: t("customerMails.cartReminder.inYourCart"),
        details: [
          ...lines.map((line): [string, string] => [
            t("customerMails.cartReminder.line", { name: line.name, count: line.quantity }),
            formatMoney(line.lineTotalCents, locale),
          ]),
          [t("customerMails.cartReminder.total"), formatMoney(view.totals.totalCents, locale)],
        ],
        action: { label: t("customerMails.cartReminder.backToCart"), url: `${args.links.publicUrl}${localizedHref("/cart", locale)}` },
        footnote: t("customerMails.whyThisMail", { shopName: shop.name }),
        unsubscribe: { label: t("customerMails.optOutLink"), url: optOutUrl(args.links, locale, args.email) },
      }),
    });
    await tx.update(cartReminders).set({ outboxEmailId: outboxId }).where(eq(cartReminders.id, reminder.id));
    return true;
  });
}
