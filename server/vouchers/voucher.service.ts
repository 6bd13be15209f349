/**
 * Voucher lines' use-cases, the one module that writes cart_vouchers and order_vouchers
 * (docs/decisions/0106-voucher-lines.md): a gift card bought online or a contribution to a gift list's fund
 * goes into the cart as its own line (no variant, stock or VAT), is checked again and copied onto the order
 * at checkout, and becomes a gift card when the order is paid (voucher-order-effects.ts).
 */
import crypto from "node:crypto";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { italianDayOf } from "#common/shop-calendar.ts";
import { mixingConflict } from "#server/cart/cart.ts";
import { openCartForVoucher, setCartGiftList } from "#server/cart/cart.service.ts";
import type { Db } from "#server/db/client.ts";
import { cartLines, carts, cartVouchers, giftListFunds, giftLists, orders, orderVouchers } from "#server/db/schema.ts";
import { giftCardCodeFromSeed } from "#server/gift-cards/gift-card.ts";
import { giftCardBalanceOf } from "#server/gift-cards/gift-card.service.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { BuyGiftCardInput, FundContributionInput } from "./voucher.inputs";
import {
  isDeliverDayAllowed,
  isFundContributionAllowed,
  isGiftCardAmountAllowed,
  maxVouchersPerCart,
  voucherTotalCents,
  type VoucherErrorCode,
  type VoucherKind,
} from "./voucher";

/** What a voucher line says, in the cart and on the order alike. */
type VoucherLine = {
  id: string;
  kind: VoucherKind;
  amountCents: number;
  senderName: string;
  recipientName: string;
  recipientEmail: string | null;
  message: string;
  deliverOn: string | null;
};

function voucherLineOf(row: VoucherLine): VoucherLine {
  const { id, kind, amountCents, senderName, recipientName, recipientEmail, message, deliverOn } = row;
  return { id, kind, amountCents, senderName, recipientName, recipientEmail, message, deliverOn };
}

export type CartVoucher = VoucherLine & {
  /** A fund contribution: the fund's title and its list's code and title. */
  fund: { id: number; title: string; giftListCode: string; giftListTitle: string } | null;
};

export type VoucherAddResult = { ok: true; cartId: string; voucherId: string } | { ok: false; error: VoucherErrorCode };

/** The cart's voucher lines, oldest first. */
export async function getCartVouchers(db: Db, cartId: string | null): Promise<CartVoucher[]> {
  if (!cartId) return [];
  const rows = await db
    .select({
      voucher: cartVouchers,
      fundTitle: giftListFunds.title,
      giftListCode: giftLists.code,
      giftListTitle: giftLists.title,
    })
    .from(cartVouchers)
    .leftJoin(giftListFunds, eq(giftListFunds.id, cartVouchers.giftListFundId))
    .leftJoin(giftLists, eq(giftLists.id, giftListFunds.giftListId))
    .where(eq(cartVouchers.cartId, cartId))
    .orderBy(asc(cartVouchers.createdAt), asc(cartVouchers.id));
  return rows.map(({ voucher, fundTitle, giftListCode, giftListTitle }) => ({
    ...voucherLineOf(voucher),
    fund:
      voucher.giftListFundId !== null && fundTitle !== null && giftListCode !== null && giftListTitle !== null
        ? { id: voucher.giftListFundId, title: fundTitle, giftListCode, giftListTitle }
        : null,
  }));
}

/** Whether the cart holds voucher lines only (its checkout then asks no delivery or address). */
export async function isVoucherOnlyCart(db: Db, cartId: string | null): Promise<boolean> {
  if (!cartId) return false;
  const [lines] = await db.select({ count: count() }).from(cartLines).where(eq(cartLines.cartId, cartId));
  const [vouchers] = await db.select({ count: count() }).from(cartVouchers).where(eq(cartVouchers.cartId, cartId));
  return (lines?.count ?? 0) === 0 && (vouchers?.count ?? 0) > 0;
}

/** A gift card bought online goes into the cart: an amount the shop sells, a day from today to a year on. */
export async function addGiftCardToCart(db: Db, args: { cartId: string | null; input: BuyGiftCardInput; now: Date }): Promise<VoucherAddResult> {
  const { giftCardSales } = await getSettings(db, ["giftCardSales"]);
  if (!isGiftCardAmountAllowed(args.input.amountCents, giftCardSales)) return { ok: false, error: "amount-out-of-range" };
  if (args.input.deliverOn !== null && !isDeliverDayAllowed(args.input.deliverOn, italianDayOf(args.now))) {
    return { ok: false, error: "deliver-day-out-of-range" };
  }
  return db.transaction(async (tx) => {
    const { id, cart } = await openCartForVoucher(tx, args.cartId);
    // A gift card is an ordinary purchase: never in a gift list's cart.
    const conflict = mixingConflict(cart, null);
    if (conflict) return { ok: false, error: conflict };
    if ((cart.voucherCount ?? 0) >= maxVouchersPerCart) return { ok: false, error: "too-many-vouchers" };
    const [row] = await tx
      .insert(cartVouchers)
      .values({ cartId: id, kind: "gift_card", ...args.input, createdAt: args.now })
      .returning({ id: cartVouchers.id });
    return { ok: true, cartId: id, voucherId: row!.id };
  });
}

/** A guest's contribution to a list's fund goes into the cart, which becomes that list's (docs/rules.md#gift-list-mixing). */
export async function addFundContributionToCart(
  db: Db,
  args: { cartId: string | null; input: FundContributionInput; now: Date },
): Promise<VoucherAddResult> {
  if (!isFundContributionAllowed(args.input.amountCents)) return { ok: false, error: "amount-out-of-range" };
  return db.transaction(async (tx) => {
    const fund = await openFundOf(tx, args.input.fundId);
    if (!fund) return { ok: false, error: "fund-not-found" };
    const { id, cart } = await openCartForVoucher(tx, args.cartId);
    const conflict = mixingConflict(cart, fund.giftListId);
    if (conflict) return { ok: false, error: conflict };
    if ((cart.voucherCount ?? 0) >= maxVouchersPerCart) return { ok: false, error: "too-many-vouchers" };
    const [row] = await tx
      .insert(cartVouchers)
      .values({
        cartId: id,
        kind: "fund_contribution",
        amountCents: args.input.amountCents,
        senderName: args.input.senderName,
        message: args.input.message,
        giftListFundId: fund.id,
        createdAt: args.now,
      })
      .returning({ id: cartVouchers.id });
    await setCartGiftList(tx, id, fund.giftListId);
    return { ok: true, cartId: id, voucherId: row!.id };
  });
}

/** A fund guests may still give to: its list open. */
async function openFundOf(db: Db, fundId: number): Promise<{ id: number; giftListId: string } | null> {
  const [fund] = await db
    .select({ id: giftListFunds.id, giftListId: giftListFunds.giftListId })
    .from(giftListFunds)
    .innerJoin(giftLists, eq(giftLists.id, giftListFunds.giftListId))
    .where(and(eq(giftListFunds.id, fundId), eq(giftLists.status, "open")));
  return fund ?? null;
}

/**
 * At sign-in the guest's cart joins the account's (docs/rules.md#cart): her voucher lines go along where the
 * account's cart may take them by the mixing rules; those it may not stay out, as refused lines do. How many moved.
 */
export async function moveCartVouchers(db: Db, args: { fromCartId: string; toCartId: string }): Promise<{ moved: number; refused: number }> {
  return db.transaction(async (tx) => {
    // Only a guest's cart: someone else's is never taken over, even with a valid cookie.
    const [from] = await tx.select({ userId: carts.userId }).from(carts).where(eq(carts.id, args.fromCartId)).for("update");
    if (!from || from.userId !== null) return { moved: 0, refused: 0 };
    const vouchers = await tx
      .select({ id: cartVouchers.id, kind: cartVouchers.kind, giftListId: giftListFunds.giftListId })
      .from(cartVouchers)
      .leftJoin(giftListFunds, eq(giftListFunds.id, cartVouchers.giftListFundId))
      .where(eq(cartVouchers.cartId, args.fromCartId))
      .orderBy(asc(cartVouchers.createdAt), asc(cartVouchers.id));
    let moved = 0;
    for (const voucher of vouchers) {
      const { cart } = await openCartForVoucher(tx, args.toCartId);
      const giftListId = voucher.kind === "fund_contribution" ? voucher.giftListId : null;
      if (voucher.kind === "fund_contribution" && giftListId === null) continue;
      if (mixingConflict(cart, giftListId) || (cart.voucherCount ?? 0) >= maxVouchersPerCart) continue;
      await tx.update(cartVouchers).set({ cartId: args.toCartId }).where(eq(cartVouchers.id, voucher.id));
      if (giftListId) await setCartGiftList(tx, args.toCartId, giftListId);
      moved += 1;
    }
    return { moved, refused: vouchers.length - moved };
  });
}

/** The cart page's "remove" of a voucher line; the cart is nobody's list again when nothing of the list is left. */
export async function removeCartVoucher(db: Db, args: { cartId: string | null; voucherId: string }): Promise<{ ok: boolean }> {
  if (!args.cartId || !/^[0-9a-f-]{36}$/i.test(args.voucherId)) return { ok: false };
  const cartId = args.cartId;
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(cartVouchers)
      .where(and(eq(cartVouchers.cartId, cartId), eq(cartVouchers.id, args.voucherId)))
      .returning({ id: cartVouchers.id });
    if (removed.length === 0) return { ok: false };
    await releaseEmptyCartList(tx, cartId);
    return { ok: true };
  });
}

/** Empties the cart's voucher lines (the cart's "remove all"); how many went. */
export async function clearCartVouchers(db: Db, cartId: string | null): Promise<number> {
  if (!cartId) return 0;
  return db.transaction(async (tx) => {
    const removed = await tx.delete(cartVouchers).where(eq(cartVouchers.cartId, cartId)).returning({ id: cartVouchers.id });
    if (removed.length > 0) await releaseEmptyCartList(tx, cartId);
    return removed.length;
  });
}

async function releaseEmptyCartList(tx: Db, cartId: string) {
  const [lines] = await tx.select({ count: count() }).from(cartLines).where(eq(cartLines.cartId, cartId));
  const [vouchers] = await tx.select({ count: count() }).from(cartVouchers).where(eq(cartVouchers.cartId, cartId));
  if ((lines?.count ?? 0) === 0 && (vouchers?.count ?? 0) === 0) await setCartGiftList(tx, cartId, null);
}

/**
 * Checkout's second look, in the order's transaction: every voucher line still one the shop sells (an amount
 * within today's settings, a day not past, a fund whose list is open and is this cart's list).
 */
export async function checkCartVouchers(
  tx: Db,
  args: { cartId: string; now: Date },
): Promise<{ ok: true; vouchers: CartVoucher[] } | { ok: false; error: VoucherErrorCode }> {
  const vouchers = await getCartVouchers(tx, args.cartId);
  if (vouchers.length === 0) return { ok: true, vouchers };
  const { giftCardSales } = await getSettings(tx, ["giftCardSales"]);
  const [cart] = await tx.select({ giftListId: carts.giftListId }).from(carts).where(eq(carts.id, args.cartId));
  const today = italianDayOf(args.now);
  for (const voucher of vouchers) {
    if (voucher.kind === "gift_card") {
      if (!isGiftCardAmountAllowed(voucher.amountCents, giftCardSales)) return { ok: false, error: "amount-out-of-range" };
      if (voucher.deliverOn !== null && !isDeliverDayAllowed(voucher.deliverOn, today)) return { ok: false, error: "deliver-day-out-of-range" };
      if (cart?.giftListId) return { ok: false, error: "gift-list-conflict-gift-list" };
    } else {
      const fund = voucher.fund ? await openFundOf(tx, voucher.fund.id) : null;
      if (!fund) return { ok: false, error: "fund-not-found" };
      if (cart?.giftListId !== fund.giftListId) return { ok: false, error: "gift-list-conflict-other-list" };
    }
  }
  return { ok: true, vouchers };
}

/** The voucher lines' total for the order (checkout). */
export function vouchersCents(vouchers: readonly CartVoucher[]): number {
  return voucherTotalCents(vouchers);
}

/** At checkout, in the order's transaction: the cart's voucher lines become the order's, and leave the cart. */
export async function moveCartVouchersToOrder(
  tx: Db,
  args: { cartId: string; orderId: string; vouchers: readonly CartVoucher[]; now: Date },
): Promise<void> {
  if (args.vouchers.length === 0) return;
  await tx.insert(orderVouchers).values(
    args.vouchers.map((voucher) => ({
      orderId: args.orderId,
      kind: voucher.kind,
      amountCents: voucher.amountCents,
      senderName: voucher.senderName,
      recipientName: voucher.recipientName,
      recipientEmail: voucher.recipientEmail,
      message: voucher.message,
      deliverOn: voucher.deliverOn,
      giftListFundId: voucher.fund?.id ?? null,
      createdAt: args.now,
    })),
  );
  await tx.delete(cartVouchers).where(
    and(
      eq(cartVouchers.cartId, args.cartId),
      inArray(
        cartVouchers.id,
        args.vouchers.map((voucher) => voucher.id),
      ),
    ),
  );
}

/**
 * The code of the card an order line becomes, made again from the line with the shop's secret (only its hash is
 * stored): the mail and the buyer's print page show it; a copy of the database alone cannot.
 */
export function voucherGiftCardCode(secret: string, seed: string): string {
  return giftCardCodeFromSeed(crypto.createHmac("sha256", secret).update(`gift-card-voucher:${seed}`).digest());
}

export type OrderVoucherView = VoucherLine & { isIssued: boolean; fundTitle: string | null };

/** An order's voucher lines for its pages and mails (the code itself only through `printableGiftCard`). */
export async function getOrderVouchers(db: Db, orderId: string): Promise<OrderVoucherView[]> {
  const rows = await db
    .select({ voucher: orderVouchers, fundTitle: giftListFunds.title })
    .from(orderVouchers)
    .leftJoin(giftListFunds, eq(giftListFunds.id, orderVouchers.giftListFundId))
    .where(eq(orderVouchers.orderId, orderId))
    .orderBy(asc(orderVouchers.createdAt), asc(orderVouchers.id));
  return rows.map(({ voucher, fundTitle }) => ({
    ...voucherLineOf(voucher),
    isIssued: voucher.giftCardId !== null,
    fundTitle,
  }));
}

export type PrintableGiftCard = {
  orderNumber: number;
  /** The customer who ordered (null for a guest): the caller lets only the buyer see the code. */
  orderUserId: string | null;
  code: string;
  amountCents: number;
  expiresAt: Date;
  senderName: string;
  recipientName: string;
  message: string;
  locale: string;
};

/** The print page's card: only a gift card line of a paid order (the caller has checked who may see the order). */
export async function printableGiftCard(db: Db, args: { orderId: string; voucherId: string; secret: string }): Promise<PrintableGiftCard | null> {
  if (!/^[0-9a-f-]{36}$/i.test(args.voucherId)) return null;
  const [row] = await db
    .select({ voucher: orderVouchers, orderNumber: orders.number, orderUserId: orders.userId, locale: orders.locale })
    .from(orderVouchers)
    .innerJoin(orders, eq(orders.id, orderVouchers.orderId))
    .where(and(eq(orderVouchers.id, args.voucherId), eq(orderVouchers.orderId, args.orderId), eq(orderVouchers.kind, "gift_card")));
  if (!row || row.voucher.giftCardId === null) return null;
  const card = await giftCardBalanceOf(db, row.voucher.giftCardId);
  const code = voucherGiftCardCode(args.secret, row.voucher.id);
  // A card issued without the secret has a random code this cannot make again: nothing to print.
  if (!card || !code.endsWith(card.codeTail)) return null;
  return {
    orderNumber: row.orderNumber,
    orderUserId: row.orderUserId,
    code,
    amountCents: row.voucher.amountCents,
    expiresAt: card.expiresAt,
    senderName: row.voucher.senderName,
    recipientName: row.voucher.recipientName,
    message: row.voucher.message,
    locale: row.locale,
  };
}

/** A paid voucher line is settled once, with the card it became (the paid effect skips settled lines). */
export async function settleOrderVoucher(tx: Db, args: { voucherId: string; giftCardId: number | null; now: Date }): Promise<void> {
  await tx.update(orderVouchers).set({ giftCardId: args.giftCardId, settledAt: args.now }).where(eq(orderVouchers.id, args.voucherId));
}
