/**
 * What voucher lines do when their order is paid or refunded (server/orders/order-effects.ts), in the order's
 * transaction (docs/decisions/0106-voucher-lines.md, 0098-gift-list-funds.md): a gift card line becomes a card,
 * once, and its mail is queued for the day chosen; a fund contribution goes onto the fund's one card. A paid order
 * refunded or cancelled stops a bought card still unspent and takes a contribution off the fund's card as far as
 * it is unspent. An unpaid order let go had issued nothing, so nothing goes back.
 */
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { italianMidnight } from "#common/shop-calendar.ts";
import type { Db } from "#server/db/client.ts";
import { giftListFunds, giftLists, orderVouchers, users } from "#server/db/schema.ts";
import { giftCardExpiry } from "#server/gift-cards/gift-card.ts";
import { addFundContribution, deactivateUnspentGiftCard, issueGiftCard, takeBackFundContribution } from "#server/gift-cards/gift-card.service.ts";
import type { EffectOrder, OrderEffects } from "#server/orders/order-effects.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { queueGiftCardMail } from "./voucher-mail";
import { fundCardSeed } from "./voucher";
import { settleOrderVoucher, voucherGiftCardCode } from "./voucher.service";
import { creditGiftListFund, debitGiftListFund } from "./gift-list-fund.service";

type OrderVoucherRow = typeof orderVouchers.$inferSelect;

async function issueBoughtCard(
  tx: Db,
  voucher: OrderVoucherRow,
  args: { order: EffectOrder; now: Date; publicUrl: string | null; secret: string | null; validityMonths: number },
) {
  const card = await issueGiftCard(tx, {
    origin: "online",
    amountCents: voucher.amountCents,
    now: args.now,
    expiresAt: giftCardExpiry(args.now, args.validityMonths),
    recipientName: voucher.recipientName,
    recipientEmail: voucher.recipientEmail,
    message: voucher.message,
    deliverOn: voucher.deliverOn,
    locale: args.order.locale,
    purchaseOrderId: args.order.id,
    // Without the secret the code cannot be made again: the mail still carries it, the print page then shows none.
    code: args.secret ? voucherGiftCardCode(args.secret, voucher.id) : undefined,
  });
  if (voucher.recipientEmail) {
    await queueGiftCardMail(tx, {
      voucherId: voucher.id,
      to: voucher.recipientEmail,
      locale: args.order.locale === "en" ? "en" : "it",
      code: card.code,
      amountCents: card.amountCents,
      expiresAt: card.expiresAt,
      senderName: voucher.senderName,
      recipientName: voucher.recipientName,
      message: voucher.message,
      publicUrl: args.publicUrl,
      // The day chosen, from the Italian morning; today's goes at once.
      sendAt: voucher.deliverOn ? new Date(Math.max(args.now.getTime(), italianMidnight(voucher.deliverOn).getTime() + 8 * 3_600_000)) : args.now,
    });
  }
  return card.id;
}

async function addToFundCard(
  tx: Db,
  voucher: OrderVoucherRow,
  args: { order: EffectOrder; now: Date; secret: string | null; validityMonths: number },
) {
  const [fund] = await tx
    .select({ id: giftListFunds.id, giftCardId: giftListFunds.giftCardId, ownerName: users.name, ownerEmail: users.email })
    .from(giftListFunds)
    .innerJoin(giftLists, eq(giftLists.id, giftListFunds.giftListId))
    .innerJoin(users, eq(users.id, giftLists.ownerUserId))
    .where(eq(giftListFunds.id, voucher.giftListFundId!))
    .for("update", { of: giftListFunds });
  // The list (and its fund) was deleted meanwhile: the money is the staff's to give back.
  if (!fund) return null;
  const expiresAt = giftCardExpiry(args.now, args.validityMonths);
  let giftCardId = fund.giftCardId;
  if (giftCardId === null) {
    const card = await issueGiftCard(tx, {
      origin: "fund",
      amountCents: voucher.amountCents,
      now: args.now,
      expiresAt,
      recipientName: fund.ownerName,
      recipientEmail: fund.ownerEmail,
      locale: args.order.locale,
      code: args.secret ? voucherGiftCardCode(args.secret, fundCardSeed(fund.id)) : undefined,
    });
    giftCardId = card.id;
  } else {
    await addFundContribution(tx, { giftCardId, amountCents: voucher.amountCents, orderId: args.order.id, expiresAt, now: args.now });
  }
  await creditGiftListFund(tx, { fundId: fund.id, giftCardId, amountCents: voucher.amountCents });
  return giftCardId;
}

export const voucherOrderEffects: Pick<OrderEffects, "paid" | "released"> = {
  async paid(tx, { order, now, publicUrl, secret }) {
    if (order.voucherCents === 0) return { note: null };
    // Each line once: a second run of the paid effect finds them settled.
    const due = await tx
      .select()
      .from(orderVouchers)
      .where(and(eq(orderVouchers.orderId, order.id), isNull(orderVouchers.settledAt)))
      .orderBy(orderVouchers.createdAt, orderVouchers.id)
      .for("update");
    if (due.length === 0) return { note: null };
    const { giftCardSales } = await getSettings(tx, ["giftCardSales"]);
    for (const voucher of due) {
      const args = { order, now, publicUrl, secret, validityMonths: giftCardSales.validityMonths };
      const giftCardId = voucher.kind === "gift_card" ? await issueBoughtCard(tx, voucher, args) : await addToFundCard(tx, voucher, args);
      await settleOrderVoucher(tx, { voucherId: voucher.id, giftCardId, now });
    }
    return { note: null };
  },

  async released(tx, { order, to, now }) {
    // Only a paid order settled its lines: one refunded, or cancelled after payment, takes them back.
    if (to === "expired" || order.voucherCents === 0) return;
    const settled = await tx
      .select({
        kind: orderVouchers.kind,
        giftCardId: orderVouchers.giftCardId,
        fundId: orderVouchers.giftListFundId,
        amountCents: orderVouchers.amountCents,
      })
      .from(orderVouchers)
      .where(and(eq(orderVouchers.orderId, order.id), isNotNull(orderVouchers.settledAt), isNotNull(orderVouchers.giftCardId)))
      .orderBy(orderVouchers.createdAt, orderVouchers.id);
    for (const row of settled) if (row.kind === "gift_card") await deactivateUnspentGiftCard(tx, { id: row.giftCardId!, now });
    // A fund's contributions, summed per fund (two lines of one order to one fund come off together).
    const funds = new Map<number, { giftCardId: number; amountCents: number }>();
    for (const row of settled) {
      if (row.kind !== "fund_contribution" || row.fundId === null) continue;
      const fund = funds.get(row.fundId) ?? { giftCardId: row.giftCardId!, amountCents: 0 };
      fund.amountCents += row.amountCents;
      funds.set(row.fundId, fund);
    }
    for (const [fundId, fund] of funds) {
      // The fund's row first, then its card: the order the paid effect locks them in.
      await debitGiftListFund(tx, { fundId, amountCents: fund.amountCents });
      await takeBackFundContribution(tx, { giftCardId: fund.giftCardId, amountCents: fund.amountCents, orderId: order.id, now });
    }
  },
};
