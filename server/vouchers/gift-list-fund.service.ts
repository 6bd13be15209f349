/**
 * A gift list's cash funds (docs/decisions/0098-gift-list-funds.md): the owner adds or removes them on her
 * list's page, guests see them with their progress and contribute (voucher.service.ts), and the owner sees
 * who gave what and the one card the paid contributions went onto. Never paid out in cash.
 */
import { and, asc, count, desc, eq, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { giftListFunds, orders, orderVouchers } from "#server/db/schema.ts";
import { giftCardBalanceOf } from "#server/gift-cards/gift-card.service.ts";
import { getOwnGiftList } from "#server/gift-lists/gift-list.service.ts";
import { fundCardSeed, fundProgressPercent } from "./voucher";
import type { GiftListFundInput } from "./voucher.inputs";
import { voucherGiftCardCode } from "./voucher.service";

/** A list keeps at most this many funds. */
export const maxFundsPerList = 5;

export type PublicFund = {
  id: number;
  title: string;
  description: string;
  targetCents: number | null;
  collectedCents: number;
  progressPercent: number | null;
};

export async function listGiftListFunds(db: Db, giftListIds: readonly string[]): Promise<Map<string, PublicFund[]>> {
  const funds = new Map<string, PublicFund[]>();
  if (giftListIds.length === 0) return funds;
  const rows = await db
    .select()
    .from(giftListFunds)
    .where(inArray(giftListFunds.giftListId, [...giftListIds]))
    .orderBy(asc(giftListFunds.id));
  for (const row of rows) {
    const list = funds.get(row.giftListId) ?? [];
    list.push({
      id: row.id,
      title: row.title,
      description: row.description,
      targetCents: row.targetCents,
      collectedCents: row.collectedCents,
      progressPercent: fundProgressPercent(row.collectedCents, row.targetCents),
    });
    funds.set(row.giftListId, list);
  }
  return funds;
}

export type FundResult = { ok: true } | { ok: false; error: "not-found" | "too-many-funds" | "fund-has-contributions" };

/** The owner adds a fund to her list. */
export async function addGiftListFund(
  db: Db,
  args: { userId: string; giftListId: unknown; input: GiftListFundInput; now: Date },
): Promise<FundResult> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return { ok: false, error: "not-found" };
  const [existing] = await db.select({ count: count() }).from(giftListFunds).where(eq(giftListFunds.giftListId, list.id));
  if ((existing?.count ?? 0) >= maxFundsPerList) return { ok: false, error: "too-many-funds" };
  await db.insert(giftListFunds).values({ giftListId: list.id, ...args.input, createdAt: args.now });
  return { ok: true };
}

/** The owner removes a fund nobody has given to yet (paid or waiting for payment). */
export async function removeGiftListFund(db: Db, args: { userId: string; giftListId: unknown; fundId: number }): Promise<FundResult> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list) return { ok: false, error: "not-found" };
  return db.transaction(async (tx) => {
    const [fund] = await tx
      .select({ id: giftListFunds.id, collectedCents: giftListFunds.collectedCents })
      .from(giftListFunds)
      .where(and(eq(giftListFunds.id, args.fundId), eq(giftListFunds.giftListId, list.id)))
      .for("update");
    if (!fund) return { ok: false, error: "not-found" };
    const [given] = await tx.select({ count: count() }).from(orderVouchers).where(eq(orderVouchers.giftListFundId, fund.id));
    if (fund.collectedCents > 0 || (given?.count ?? 0) > 0) return { ok: false, error: "fund-has-contributions" };
    await tx.delete(giftListFunds).where(eq(giftListFunds.id, fund.id));
    return { ok: true };
  });
}

export type OwnerFund = PublicFund & {
  contributions: { giverName: string; message: string; amountCents: number; at: Date }[];
  /** The card the paid contributions went onto: its code (made again with the shop's secret) and balance. */
  card: { code: string | null; balanceCents: number; expiresAt: Date } | null;
};

/** The owner's view of her list's funds: the paid contributions, newest first, and the card. */
export async function getOwnerFunds(db: Db, args: { giftListId: string; secret: string }): Promise<OwnerFund[]> {
  const funds = (await listGiftListFunds(db, [args.giftListId])).get(args.giftListId) ?? [];
  const result: OwnerFund[] = [];
  for (const fund of funds) {
    const contributions = await db
      .select({
        giverName: orderVouchers.senderName,
        message: orderVouchers.message,
        amountCents: orderVouchers.amountCents,
        at: orderVouchers.settledAt,
      })
      .from(orderVouchers)
      .innerJoin(orders, eq(orders.id, orderVouchers.orderId))
      .where(
        and(
          eq(orderVouchers.giftListFundId, fund.id),
          isNotNull(orderVouchers.settledAt),
          isNotNull(orders.paidAt),
          // Taken back with its order (decision 0098).
          notInArray(orders.status, ["refunded", "cancelled"]),
        ),
      )
      .orderBy(desc(orderVouchers.settledAt));
    const [row] = await db.select({ giftCardId: giftListFunds.giftCardId }).from(giftListFunds).where(eq(giftListFunds.id, fund.id));
    const balance = row?.giftCardId ? await giftCardBalanceOf(db, row.giftCardId) : null;
    const code = voucherGiftCardCode(args.secret, fundCardSeed(fund.id));
    result.push({
      ...fund,
      contributions: contributions.map((entry) => ({ ...entry, at: entry.at! })),
      card: balance
        ? { code: code.endsWith(balance.codeTail) ? code : null, balanceCents: balance.balanceCents, expiresAt: balance.expiresAt }
        : null,
    });
  }
  return result;
}

/** A paid contribution refunded or cancelled no longer counts toward what the fund collected (decision 0098). */
export async function debitGiftListFund(tx: Db, args: { fundId: number; amountCents: number }): Promise<void> {
  await tx
    .update(giftListFunds)
    .set({ collectedCents: sql`greatest(${giftListFunds.collectedCents} - ${args.amountCents}, 0)` })
    .where(eq(giftListFunds.id, args.fundId));
}

/** A paid contribution: the fund's card (issued with the first one) and what it has collected. */
export async function creditGiftListFund(tx: Db, args: { fundId: number; giftCardId: number; amountCents: number }): Promise<void> {
  await tx
    .update(giftListFunds)
    .set({ giftCardId: args.giftCardId, collectedCents: sql`${giftListFunds.collectedCents} + ${args.amountCents}` })
    .where(eq(giftListFunds.id, args.fundId));
}
