/**
 * The after-sales e-mails, in the order's language, through the outbox (once each: dedupe keys), in the
 * caller's transaction: the withdrawal's acknowledgement (the statement as received, with its date and
 * time), the return authorised (with the shop's shipping instructions) and the refund made.
 */
import type { Locale } from "#common/locale.ts";
import { formatMoney } from "#common/format.ts";
import { formatShopDateTime } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { orderPageUrl, type OrderMailLinks } from "#server/orders/order-emails.ts";
import { getSettings } from "#server/settings/settings.service.ts";

type MailOrder = { id: string; number: number; email: string; locale: string };

const localeOf = (order: MailOrder): Locale => (order.locale === "en" ? "en" : "it");

async function queueAfterSalesMail(
  db: Db,
  args: {
    order: MailOrder;
    kind: "withdrawal-received" | "return-authorised" | "refund-made" | "order-cancelled" | "exchange-shipped";
    dedupeKey: string;
    values: Record<string, string | number>;
    paragraphs: string[];
    details?: [string, string][];
    links: OrderMailLinks | null;
  },
) {
  const locale = localeOf(args.order);
  const t = getTranslator(locale);
  const { shop } = await getSettings(db, ["shop"]);
  // The exchange's texts sit in their own section of the messages.
  const section = args.kind === "exchange-shipped" ? "exchanges.emails" : `afterSales.emails.${args.kind}`;
  const text = (key: string) => t(`${section}.${key}`, { number: args.order.number, shopName: shop.name, ...args.values });
  await queueEmail(db, {
    to: args.order.email,
    kind: args.kind,
    locale,
    dedupeKey: args.dedupeKey,
    ...renderEmail({
      locale,
      shop,
      siteUrl: args.links?.publicUrl,
      subject: text("subject"),
      heading: text("heading"),
      paragraphs: args.paragraphs,
      details: args.details,
      detailsTitle: args.details ? text("detailsTitle") : undefined,
      action: args.links ? { label: t("orderEmails.viewOrder"), url: orderPageUrl(args.links, { id: args.order.id, locale }) } : undefined,
    }),
  });
}

/** The acknowledgement the law asks for "without undue delay": the statement's content and when it was received. */
export async function queueWithdrawalAcknowledgement(
  db: Db,
  args: {
    order: MailOrder;
    withdrawal: { id: string; name: string; contactEmail: string; receivedAt: Date; lines: { sku: string; name: string; quantity: number }[] };
    returnNumber: number;
    links: OrderMailLinks | null;
  },
) {
  const t = getTranslator(localeOf(args.order));
  const receivedAt = formatShopDateTime(args.withdrawal.receivedAt, localeOf(args.order), { dateStyle: "long", timeStyle: "medium" });
  await queueAfterSalesMail(db, {
    order: args.order,
    kind: "withdrawal-received",
    dedupeKey: `withdrawal-received:${args.withdrawal.id}`,
    values: { receivedAt, returnNumber: args.returnNumber },
    paragraphs: [
      t("afterSales.emails.withdrawal-received.intro", { number: args.order.number, receivedAt }),
      t("afterSales.emails.withdrawal-received.next", { returnNumber: args.returnNumber }),
    ],
    details: [
      [t("afterSales.statement.name"), args.withdrawal.name],
      [t("afterSales.statement.order"), String(args.order.number)],
      ...args.withdrawal.lines.map((line): [string, string] => [
        `${line.name} (${line.sku})`,
        t("afterSales.statement.units", { count: line.quantity }),
      ]),
      [t("afterSales.statement.contact"), t("afterSales.statement.contactByEmail", { email: args.withdrawal.contactEmail })],
      [t("afterSales.statement.receivedAt"), receivedAt],
    ],
    links: args.links,
  });
}

export async function queueReturnAuthorisedMail(
  db: Db,
  args: { order: MailOrder; returnId: string; returnNumber: number; links: OrderMailLinks | null },
) {
  const locale = localeOf(args.order);
  const t = getTranslator(locale);
  const { afterSales } = await getSettings(db, ["afterSales"]);
  await queueAfterSalesMail(db, {
    order: args.order,
    kind: "return-authorised",
    dedupeKey: `return-authorised:${args.returnId}`,
    values: { returnNumber: args.returnNumber },
    paragraphs: [
      t("afterSales.emails.return-authorised.intro", { number: args.order.number, returnNumber: args.returnNumber }),
      locale === "en" ? afterSales.returnInstructionsEn : afterSales.returnInstructionsIt,
    ],
    links: args.links,
  });
}

/**
 * The money went back: a return's refund (`refundKey` its id) or the whole order's from the back office
 * ("order:<id>"). "recorded": money the shop took itself (cash, in the shop), given back its own way; "gift_card":
 * a return's share back on the gift card the order was partly paid with.
 */
export async function queueRefundMadeMail(
  db: Db,
  args: {
    order: MailOrder;
    refundKey: string;
    amountCents: number;
    route: "card" | "bank_transfer" | "recorded" | "gift_card";
    links: OrderMailLinks | null;
  },
) {
  const t = getTranslator(localeOf(args.order));
  const amount = formatMoney(args.amountCents, localeOf(args.order));
  await queueAfterSalesMail(db, {
    order: args.order,
    kind: "refund-made",
    dedupeKey: `refund-made:${args.refundKey}`,
    values: { amount },
    paragraphs: [
      t(args.route === "gift_card" ? "giftCardRefunds.mail" : `afterSales.emails.refund-made.${args.route}`, { number: args.order.number, amount }),
    ],
    links: args.links,
  });
}

/** The shop cancelled the order (the back office's "cancel"): the customer hears it from the shop, with the refund promised. */
export async function queueOrderCancelledMail(db: Db, args: { order: MailOrder; links: OrderMailLinks | null }) {
  const t = getTranslator(localeOf(args.order));
  await queueAfterSalesMail(db, {
    order: args.order,
    kind: "order-cancelled",
    dedupeKey: `order-cancelled:${args.order.id}`,
    values: {},
    paragraphs: [t("afterSales.emails.order-cancelled.intro", { number: args.order.number })],
    links: args.links,
  });
}

/** The replacement of an exchange is on its way: its own order (`order`), made for the original order's return. */
export async function queueExchangeShippedMail(db: Db, args: { order: MailOrder; originalNumber: number; links: OrderMailLinks | null }) {
  const t = getTranslator(localeOf(args.order));
  await queueAfterSalesMail(db, {
    order: args.order,
    kind: "exchange-shipped",
    dedupeKey: `exchange-shipped:${args.order.id}`,
    values: { originalNumber: args.originalNumber },
    paragraphs: [t("exchanges.emails.intro", { number: args.order.number, originalNumber: args.originalNumber }), t("exchanges.emails.noCharge")],
    links: args.links,
  });
}
