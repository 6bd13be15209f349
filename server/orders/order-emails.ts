/**
 * The order e-mails, in the order's language, through the outbox (sent by the mail job with retries):
 * confirmation (with the bank-transfer instructions when paying by transfer), payment received, shipped
 * (carrier and tracking), ready for collection, cancelled for non-payment. Each is queued at most once
 * per order (dedupe key), in the caller's transaction. Every mail links to the order page with its token.
 */
import { describeDeliveryEstimate } from "#common/delivery-promise.ts";
import { formatDate, formatMoney } from "#common/format.ts";
import { summaryLineText, summaryPaymentTexts } from "#common/order-summary.ts";
import { variantLabel } from "#common/variant-label.ts";
import type { Db } from "#server/db/client.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { postalAddress } from "#common/shop-contacts.ts";
import type { ShopIdentity } from "#server/settings/settings.ts";
import { orderAccessToken, orderPageHref, withdrawalPageHref } from "./order-access";
import { getOrderView, withoutGiftListAddress, type OrderView } from "./order-view.service";

export type OrderMailKind = "confirmation" | "paid" | "shipped" | "ready" | "expired" | "paymentProcessing" | "paymentFailed";

/** What links in mail need: the shop's public origin and the secret the order-page tokens are made with. */
export type OrderMailLinks = { publicUrl: string; secret: string };

/** The absolute order page link of the e-mails. */
export function orderPageUrl(links: OrderMailLinks, order: Pick<OrderView, "id" | "locale">): string {
  return `${links.publicUrl}${orderPageHref(order.locale, order.id, orderAccessToken(links.secret, order.id))}`;
}

/** The absolute link to the order's withdrawal function, for the holder of the e-mail. */
export function withdrawalPageUrl(links: OrderMailLinks, order: Pick<OrderView, "id" | "locale">): string {
  return `${links.publicUrl}${withdrawalPageHref(order.locale, order.id, orderAccessToken(links.secret, order.id))}`;
}

/**
 * The right of withdrawal on a durable medium: the model instructions with the shop's details and period, the
 * model form, and the link to the order's withdrawal function (docs/decisions/0090-withdrawal-function-for-guests.md).
 */
function withdrawalInformation(t: ReturnType<typeof getTranslator>, shop: ShopIdentity, days: number, order: Pick<OrderView, "number">) {
  const address = `${shop.legalName}, ${postalAddress(shop)}`;
  const trader = `${address}, ${shop.phone}, ${shop.email}`;
  const values = { days, trader, address, number: order.number };
  return [
    { title: t("withdrawalInfo.title"), paragraphs: t("withdrawalInfo.paragraphs", { ...values, returnObjects: true }) as string[] },
    { title: t("withdrawalInfo.formTitle"), paragraphs: t("withdrawalInfo.form", { ...values, returnObjects: true }) as string[] },
  ];
}

/** "2 × Body (white, M)" */
function lineLabel(t: ReturnType<typeof getTranslator>, line: OrderView["lines"][number]): string {
  const options = variantLabel(t, line, ", ");
  const personalisation = line.personalisation.map((entry) => `${entry.label}: ${entry.text}`).join("; ");
  return `${line.quantity} × ${line.name}${options ? ` (${options})` : ""}${personalisation ? ` — ${personalisation}` : ""}`;
}

function summaryRows(t: ReturnType<typeof getTranslator>, order: OrderView): [string, string][] {
  const money = (cents: number) => formatMoney(cents, order.locale);
  const rows: [string, string][] = order.lines.map((line) => [lineLabel(t, line), money(line.lineTotalCents)]);
  // A gift card bought says where it goes: "sent to X on <day>", or to print (decision 0106).
  for (const voucher of order.vouchers.filter((entry) => entry.kind === "gift_card")) {
    const label = t("vouchers.cart.giftCard", { amount: money(voucher.amountCents) });
    const where =
      voucher.recipientEmail && voucher.deliverOn
        ? t("vouchers.cart.sendOn", { email: voucher.recipientEmail, date: formatDate(voucher.deliverOn, order.locale) })
        : t("vouchers.cart.toPrint");
    rows.push([`${label} — ${t("vouchers.cart.to", { name: voucher.recipientName })}`, where]);
  }
  for (const line of order.summary.lines) {
    const { term, value } = summaryLineText(t, line, money);
    rows.push([term, value]);
  }
  rows.push([t("orderEmails.total"), money(order.summary.totalCents)]);
  for (const row of summaryPaymentTexts(t, order.summary, money)) rows.push([row.term, row.value]);
  rows.push([
    t("orderEmails.deliveryMethod"),
    order.delivery.groupGiftContribution ? t("giftLists.group.badge") : t(`orderEmails.delivery.${order.delivery.method}`),
  ]);
  if (order.delivery.estimate) {
    // Mail is read days later: the day is named, never "tomorrow".
    const { key, values } = describeDeliveryEstimate(order.delivery.estimate, order.locale, null);
    rows.push([t("orderEmails.estimate"), t(key, values)]);
  }
  const address = order.delivery.address;
  if (order.delivery.toGiftList && order.delivery.method !== "collection") rows.push([t("orderEmails.address"), t("orderEmails.giftListAddress")]);
  else if (address) {
    rows.push([
      t("orderEmails.address"),
      `${order.firstName} ${order.lastName}, ${address.street} ${address.houseNumber}, ${address.postcode} ${address.city} (${address.province})`,
    ]);
  }
  rows.push([t("orderEmails.paymentMethod"), t(`orderEmails.payment.${order.payment.method}`)]);
  return rows;
}

function bankTransferParagraphs(t: ReturnType<typeof getTranslator>, order: OrderView): string[] {
  const transfer = order.payment.bankTransfer;
  if (!transfer || order.status !== "awaiting_payment") return [];
  return [
    t("orderEmails.bankTransfer.instructions", {
      amount: formatMoney(transfer.amountCents, order.locale),
      date: transfer.dueAt ? formatDate(transfer.dueAt, order.locale) : "",
    }),
    [
      t("orderEmails.bankTransfer.iban", { iban: transfer.iban }),
      t("orderEmails.bankTransfer.beneficiary", { beneficiary: transfer.beneficiary }),
      t("orderEmails.bankTransfer.bank", { bank: transfer.bankName }),
      t("orderEmails.bankTransfer.reason", { reason: transfer.reason }),
    ].join("\n"),
  ];
}

function bodyOf(t: ReturnType<typeof getTranslator>, kind: OrderMailKind, order: OrderView, shopAddress: string): string[] {
  const amount = formatMoney(order.summary.payments?.stillToPayCents ?? order.totals.totalCents, order.locale);
  switch (kind) {
    case "confirmation": {
      const payment =
        order.payment.method === "bank_transfer"
          ? bankTransferParagraphs(t, order)
          : order.payment.method === "cash_on_delivery"
            ? [t("orderEmails.confirmation.cashOnDelivery", { amount })]
            : order.payment.method === "in_shop"
              ? [t("orderEmails.confirmation.inShop", { amount })]
              : [t("orderEmails.confirmation.cardPaid", { amount })];
      const delivery =
        order.delivery.method === "collection"
          ? [t("orderEmails.confirmation.collection", { address: shopAddress })]
          : [t("orderEmails.confirmation.homeDelivery")];
      return [t("orderEmails.confirmation.intro", { number: order.number }), ...payment, ...delivery];
    }
    case "paid":
      return [
        t("orderEmails.paid.intro", { number: order.number, amount }),
        order.delivery.groupGiftContribution
          ? t("giftLists.group.orderNote")
          : t(order.delivery.method === "collection" ? "orderEmails.paid.collection" : "orderEmails.paid.homeDelivery"),
      ];
    case "shipped":
      return [
        t("orderEmails.shipped.intro", { number: order.number }),
        ...(order.delivery.carrier ? [t("orderEmails.shipped.carrier", { carrier: order.delivery.carrier })] : []),
        ...(order.delivery.trackingNumber ? [t("orderEmails.shipped.tracking", { trackingNumber: order.delivery.trackingNumber })] : []),
        ...(order.delivery.trackingNumber && !order.delivery.trackingUrl ? [t("orderEmails.shipped.askCarrier")] : []),
      ];
    case "ready":
      return [
        t("orderEmails.ready.intro", { number: order.number, address: shopAddress }),
        ...(order.payment.method === "in_shop" && !order.payment.paidAt ? [t("orderEmails.confirmation.inShop", { amount })] : []),
      ];
    case "expired":
      return [t("orderEmails.expired.intro", { number: order.number })];
    case "paymentProcessing":
      return [
        t("orderEmails.paymentProcessing.intro", {
          number: order.number,
          amount,
          method: t(`onlinePayments.methods.${order.payment.onlineMethod ?? "card"}`),
        }),
        t("orderEmails.paymentProcessing.next", { date: order.payment.dueAt ? formatDate(order.payment.dueAt, order.locale) : "" }),
      ];
    case "paymentFailed":
      return [t("orderEmails.paymentFailed.intro", { number: order.number, amount }), t("orderEmails.paymentFailed.next")];
  }
}

/**
 * Whether the mail carries the withdrawal information and the model form (d.lgs. 206/2005, art. 49 and Annex I):
 * the contract's confirmation (a card order's is its "paid" mail) and the mails that hand the goods over; never a
 * group gift's share, which has no goods.
 */
function tellsWithdrawal(kind: OrderMailKind, order: OrderView): boolean {
  // A replacement order's customer already withdrew, from the original order.
  if (order.delivery.groupGiftContribution || order.isExchangeReplacement) return false;
  return kind === "confirmation" || kind === "shipped" || kind === "ready" || (kind === "paid" && order.payment.method === "card");
}

/**
 * The shipped mail links to the courier's page following the parcel, when the shop knows that page; the mails
 * with the withdrawal information link to the order's withdrawal function.
 */
function linksOf(t: ReturnType<typeof getTranslator>, kind: OrderMailKind, order: OrderView, mailLinks: OrderMailLinks | null) {
  const { carrier, trackingUrl } = order.delivery;
  const links = kind === "shipped" && carrier && trackingUrl ? [{ label: t("orderEmails.shipped.follow", { carrier }), url: trackingUrl }] : [];
  if (mailLinks && tellsWithdrawal(kind, order)) links.push({ label: t("withdrawalInfo.link"), url: withdrawalPageUrl(mailLinks, order) });
  return links.length > 0 ? links : undefined;
}

/**
 * Queues one order e-mail (once per order and kind), in `db` (pass the transaction that changed the order).
 * Returns false when the order does not exist or the mail was already queued.
 */
export async function queueOrderMail(db: Db, args: { orderId: string; kind: OrderMailKind; links: OrderMailLinks | null }): Promise<boolean> {
  const found = await getOrderView(db, { orderId: args.orderId, locale: null });
  if (!found) return false;
  const view = withoutGiftListAddress(found);
  const t = getTranslator(view.locale);
  const { shop, afterSales } = await getSettings(db, ["shop", "afterSales"]);
  const shopAddress = postalAddress(shop);
  const texts = (key: string) => t(`orderEmails.${args.kind}.${key}`, { number: view.number, name: view.firstName, shopName: shop.name });
  const id = await queueEmail(db, {
    to: view.email,
    kind: `order-${args.kind}`,
    locale: view.locale,
    dedupeKey: `order-${args.kind}:${view.id}`,
    ...renderEmail({
      locale: view.locale,
      shop,
      siteUrl: args.links?.publicUrl,
      subject: texts("subject"),
      preheader: texts("preheader"),
      heading: texts("heading"),
      paragraphs: bodyOf(t, args.kind, view, shopAddress),
      links: linksOf(t, args.kind, view, args.links),
      detailsTitle: t("orderEmails.summaryTitle", { number: view.number }),
      details: summaryRows(t, view),
      // Without the links (a caller that lacks the secret) the mail still goes, without its button.
      action: args.links ? { label: t("orderEmails.viewOrder"), url: orderPageUrl(args.links, view) } : undefined,
      footnote: t("orderEmails.footnote"),
      appendix: tellsWithdrawal(args.kind, view) ? withdrawalInformation(t, shop, afterSales.withdrawalDays, view) : undefined,
    }),
  });
  return id !== null;
}
