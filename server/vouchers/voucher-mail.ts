/**
 * The mail that brings a gift card bought online to its recipient, in the buyer's language, queued through
 * the outbox for the day chosen (the mail job sends it then, with retries): the code, the amount, the
 * expiry, the buyer's message and name, and the link to the balance page.
 */
import { localizedHref } from "#common/locale.ts";
import { formatDate, formatMoney } from "#common/format.ts";
import type { Db } from "#server/db/client.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { queueEmail } from "#server/mail/outbox.ts";
import { renderEmail } from "#server/mail/templates.ts";
import { getSettings } from "#server/settings/settings.service.ts";

export async function queueGiftCardMail(
  db: Db,
  args: {
    voucherId: string;
    to: string;
    locale: "it" | "en";
    code: string;
    amountCents: number;
    expiresAt: Date;
    senderName: string;
    recipientName: string;
    message: string;
    publicUrl: string | null;
    sendAt: Date;
  },
): Promise<void> {
  const t = getTranslator(args.locale);
  const { shop } = await getSettings(db, ["shop"]);
  const amount = formatMoney(args.amountCents, args.locale);
  const expiry = formatDate(args.expiresAt, args.locale);
  await queueEmail(db, {
    to: args.to,
    kind: "gift-card-voucher",
    locale: args.locale,
    dedupeKey: `gift-card-voucher:${args.voucherId}`,
    sendAt: args.sendAt,
    ...renderEmail({
      locale: args.locale,
      shop,
      siteUrl: args.publicUrl ?? undefined,
      subject: t("vouchers.mail.subject", { sender: args.senderName, shopName: shop.name }),
      preheader: t("vouchers.mail.preheader", { amount }),
      heading: t("vouchers.mail.heading", { name: args.recipientName }),
      paragraphs: [
        t("vouchers.mail.intro", { sender: args.senderName, amount, shopName: shop.name }),
        ...(args.message ? [t("vouchers.mail.message", { sender: args.senderName, message: args.message })] : []),
        t("vouchers.mail.howTo"),
      ],
      detailsTitle: t("vouchers.mail.detailsTitle"),
      details: [
        [t("vouchers.mail.code"), args.code],
        [t("vouchers.mail.amount"), amount],
        [t("vouchers.mail.expiry"), expiry],
      ],
      action: args.publicUrl
        ? { label: t("vouchers.mail.balance"), url: `${args.publicUrl}${localizedHref("/carta-regalo", args.locale)}` }
        : undefined,
      footnote: t("vouchers.mail.footnote"),
    }),
  });
}
