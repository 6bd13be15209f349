/**
 * Gift cards' use-cases, the one module that writes gift_cards and gift_card_movements
 * (docs/decisions/0097-gift-cards.md): issue a card (counter sale, online purchase, a gift list's fund), look a
 * code up (throttled per client address for the public balance check), spend it on an order with ONE
 * conditional UPDATE inside the order's transaction, give it back when the order is let go or refunded,
 * expire and deactivate cards. Every balance change writes its signed movement.
 */
import { and, desc, eq, gt, ilike, inArray, lte, or, sql } from "drizzle-orm";
import { countAttempt, isThrottled } from "#server/accounts/login-throttle.service.ts";
import type { ThrottleRule } from "#server/accounts/login-throttle.ts";
import { recordAudit } from "#server/admin/audit.service.ts";
import type { Db } from "#server/db/client.ts";
import { giftCardMovements, giftCards } from "#server/db/schema.ts";
import {
  defaultValidityMonths,
  giftCardCodeHash,
  giftCardCodeTail,
  giftCardExpiry,
  giftCardShare,
  newGiftCardCode,
  normaliseGiftCardCode,
  type GiftCardErrorCode,
} from "./gift-card";

export type GiftCardRow = typeof giftCards.$inferSelect;

/** Unknown codes one client address may try on the balance check: a person mistyping is far below, a script far above. */
export const giftCardLookupRule: ThrottleRule = { max: 10, windowMs: 10 * 60_000 };

const throttleKeyOf = (clientIp: string) => `gift-card-code:ip:${clientIp}`;

export type IssueGiftCardArgs = {
  origin: GiftCardRow["origin"];
  amountCents: number;
  now: Date;
  /** Defaults to `defaultValidityMonths` from now. */
  expiresAt?: Date;
  recipientName?: string;
  recipientEmail?: string | null;
  message?: string;
  deliverOn?: string | null;
  locale?: string;
  purchaseOrderId?: string | null;
  actorUserId?: string | null;
  /** A code made elsewhere (a card bought online, made again from its order line); a random one by default. */
  code?: string;
};

export type IssuedGiftCard = { id: number; code: string; expiresAt: Date; amountCents: number };

/** A new card with its whole amount and its "issue" movement; the code is returned once and only its hash is kept. */
export async function issueGiftCard(tx: Db, args: IssueGiftCardArgs): Promise<IssuedGiftCard> {
  const code = args.code ?? newGiftCardCode();
  const normalised = normaliseGiftCardCode(code);
  if (!normalised) throw new Error("issueGiftCard: the code given is not a valid card code");
  const expiresAt = args.expiresAt ?? giftCardExpiry(args.now, defaultValidityMonths);
  const [card] = await tx
    .insert(giftCards)
    .values({
      codeHash: giftCardCodeHash(normalised),
      codeTail: giftCardCodeTail(normalised),
      origin: args.origin,
      initialCents: args.amountCents,
      balanceCents: args.amountCents,
      purchaseOrderId: args.purchaseOrderId ?? null,
      recipientName: args.recipientName ?? "",
      recipientEmail: args.recipientEmail ?? null,
      message: args.message ?? "",
      deliverOn: args.deliverOn ?? null,
      locale: args.locale ?? "it",
      expiresAt,
      actorUserId: args.actorUserId ?? null,
      createdAt: args.now,
      updatedAt: args.now,
    })
    .returning({ id: giftCards.id });
  await tx.insert(giftCardMovements).values({
    giftCardId: card!.id,
    kind: "issue",
    amountCents: args.amountCents,
    actorUserId: args.actorUserId ?? null,
    createdAt: args.now,
  });
  return { id: card!.id, code, expiresAt, amountCents: args.amountCents };
}

export type GiftCardLookup =
  { ok: true; card: GiftCardRow } | { ok: false; error: Extract<GiftCardErrorCode, "invalid-code" | "not-found" | "expired" | "inactive"> };

/** A card by its code as typed: a typo is refused by the check character before any lookup. */
export async function findGiftCard(db: Db, args: { code: string; now: Date }): Promise<GiftCardLookup> {
  const normalised = normaliseGiftCardCode(args.code);
  if (!normalised) return { ok: false, error: "invalid-code" };
  const [card] = await db
    .select()
    .from(giftCards)
    .where(eq(giftCards.codeHash, giftCardCodeHash(normalised)));
  if (!card) return { ok: false, error: "not-found" };
  if (!card.isActive) return { ok: false, error: "inactive" };
  if (card.expiresAt.getTime() <= args.now.getTime()) return { ok: false, error: "expired" };
  return { ok: true, card };
}

export type GiftCardBalance = { codeTail: string; balanceCents: number; initialCents: number; expiresAt: Date };

/**
 * The balance check anyone may make (page and API): every miss (a well-formed code that is no card) counts
 * against the client address; over the limit every check is refused until the window passes.
 */
export async function checkGiftCardBalance(
  db: Db,
  args: { code: string; clientIp: string; now: Date },
): Promise<{ ok: true; balance: GiftCardBalance } | { ok: false; error: Exclude<GiftCardErrorCode, "empty" | "balance-changed"> }> {
  const key = throttleKeyOf(args.clientIp);
  if (await isThrottled(db, key, giftCardLookupRule, args.now)) return { ok: false, error: "throttled" };
  const found = await findGiftCard(db, args);
  if (!found.ok) {
    if (found.error === "not-found" && !(await countAttempt(db, key, giftCardLookupRule, args.now)).allowed) return { ok: false, error: "throttled" };
    return found;
  }
  const { codeTail, balanceCents, initialCents, expiresAt } = found.card;
  return { ok: true, balance: { codeTail, balanceCents, initialCents, expiresAt } };
}

/** What a typed card would pay of `dueCents` now (the checkout's summary): nothing is taken. */
export async function previewGiftCard(
  db: Db,
  args: { code: string; dueCents: number; now: Date },
): Promise<{ ok: true; giftCardCents: number; codeTail: string; balanceCents: number } | { ok: false; error: GiftCardErrorCode }> {
  const found = await findGiftCard(db, args);
  if (!found.ok) return found;
  if (found.card.balanceCents === 0) return { ok: false, error: "empty" };
  return {
    ok: true,
    giftCardCents: giftCardShare(found.card.balanceCents, args.dueCents),
    codeTail: found.card.codeTail,
    balanceCents: found.card.balanceCents,
  };
}

/**
 * Takes what the card pays of `dueCents` for the order, in the order's transaction: ONE conditional UPDATE
 * (still active, not expired, balance at least the amount), so two checkouts racing for the last balance on
 * two processes cannot both have it: the loser finds too little and is refused ("balance-changed").
 * `expectedCents` is what the customer saw in the summary: a different share is refused too.
 */
export async function spendGiftCard(
  tx: Db,
  args: { code: string; dueCents: number; expectedCents?: number; orderId: string; actorUserId: string | null; now: Date },
): Promise<{ ok: true; giftCardId: number; cents: number } | { ok: false; error: GiftCardErrorCode }> {
  const found = await findGiftCard(tx, args);
  if (!found.ok) return found;
  const cents = giftCardShare(found.card.balanceCents, args.dueCents);
  if (cents === 0) return { ok: false, error: "empty" };
  if (args.expectedCents !== undefined && cents !== args.expectedCents) return { ok: false, error: "balance-changed" };
  const taken = await tx
    .update(giftCards)
    .set({ balanceCents: sql`${giftCards.balanceCents} - ${cents}`, updatedAt: args.now })
    .where(
      and(
        eq(giftCards.id, found.card.id),
        eq(giftCards.isActive, true),
        gt(giftCards.expiresAt, args.now),
        sql`${giftCards.balanceCents} >= ${cents}`,
      ),
    )
    .returning({ id: giftCards.id });
  if (taken.length === 0) return { ok: false, error: "balance-changed" };
  await tx.insert(giftCardMovements).values({
    giftCardId: found.card.id,
    kind: "spend",
    amountCents: -cents,
    orderId: args.orderId,
    actorUserId: args.actorUserId,
    createdAt: args.now,
  });
  return { ok: true, giftCardId: found.card.id, cents };
}

/**
 * A paid contribution to a gift list's fund goes onto the fund's card (docs/decisions/0098-gift-list-funds.md):
 * its amount and balance grow, a "fund_contribution" movement records it, and the expiry moves to
 * `expiresAt` when that is later (the card lasts from the last gift).
 */
export async function addFundContribution(
  tx: Db,
  args: { giftCardId: number; amountCents: number; orderId: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx
    .update(giftCards)
    .set({
      initialCents: sql`${giftCards.initialCents} + ${args.amountCents}`,
      balanceCents: sql`${giftCards.balanceCents} + ${args.amountCents}`,
      expiresAt: sql`greatest(${giftCards.expiresAt}, ${args.expiresAt.toISOString()}::timestamptz)`,
      updatedAt: args.now,
    })
    .where(eq(giftCards.id, args.giftCardId));
  await tx.insert(giftCardMovements).values({
    giftCardId: args.giftCardId,
    kind: "fund_contribution",
    amountCents: args.amountCents,
    orderId: args.orderId,
    createdAt: args.now,
  });
}

/**
 * A paid contribution refunded or cancelled comes off the fund's card as far as it is unspent (decision 0098): the
 * balance goes down by the smaller of `amountCents` and what the card holds, with a negative "fund_contribution"
 * movement for the order. Once per card and order (a second call finds the movement). Returns the cents taken off.
 */
export async function takeBackFundContribution(
  tx: Db,
  args: { giftCardId: number; amountCents: number; orderId: string; now: Date },
): Promise<number> {
  const [card] = await tx.select({ balanceCents: giftCards.balanceCents }).from(giftCards).where(eq(giftCards.id, args.giftCardId)).for("update");
  if (!card) return 0;
  const [earlier] = await tx
    .select({ id: giftCardMovements.id })
    .from(giftCardMovements)
    .where(
      and(
        eq(giftCardMovements.giftCardId, args.giftCardId),
        eq(giftCardMovements.orderId, args.orderId),
        eq(giftCardMovements.kind, "fund_contribution"),
        lte(giftCardMovements.amountCents, 0),
      ),
    );
  if (earlier) return 0;
  const cents = Math.min(args.amountCents, card.balanceCents);
  // What was loaded stays in initial_cents, as a spend does: the balance alone says what is left.
  if (cents > 0) {
    await tx
      .update(giftCards)
      .set({ balanceCents: sql`${giftCards.balanceCents} - ${cents}`, updatedAt: args.now })
      .where(eq(giftCards.id, args.giftCardId));
  }
  await tx.insert(giftCardMovements).values({
    giftCardId: args.giftCardId,
    kind: "fund_contribution",
    // 0 when all of it was spent: the movement still records that the contribution was taken back.
    amountCents: cents === 0 ? 0 : -cents,
    orderId: args.orderId,
    createdAt: args.now,
  });
  return cents;
}

/** What a card holds now (its balance and expiry), or null. */
export async function giftCardBalanceOf(
  db: Db,
  id: number,
): Promise<Pick<GiftCardRow, "codeTail" | "initialCents" | "balanceCents" | "expiresAt" | "isActive"> | null> {
  const [card] = await db
    .select({
      codeTail: giftCards.codeTail,
      initialCents: giftCards.initialCents,
      balanceCents: giftCards.balanceCents,
      expiresAt: giftCards.expiresAt,
      isActive: giftCards.isActive,
    })
    .from(giftCards)
    .where(eq(giftCards.id, id));
  return card ?? null;
}

/**
 * A card bought online and refunded: stopped only while nothing of it was spent (docs/decisions/0106-voucher-lines.md).
 * True when it was stopped; false when it was already spent in part (the staff settle it by hand) or stopped.
 */
export async function deactivateUnspentGiftCard(tx: Db, args: { id: number; now: Date }): Promise<boolean> {
  const stopped = await tx
    .update(giftCards)
    .set({ isActive: false, updatedAt: args.now })
    .where(and(eq(giftCards.id, args.id), eq(giftCards.isActive, true), sql`${giftCards.balanceCents} = ${giftCards.initialCents}`))
    .returning({ id: giftCards.id });
  if (stopped.length === 0) return false;
  await tx.insert(giftCardMovements).values({ giftCardId: args.id, kind: "deactivation", amountCents: 0, createdAt: args.now });
  return true;
}

/** Per card, what the order still holds of it: its spends less what went back. */
async function heldByOrder(tx: Db, orderId: string): Promise<{ giftCardId: number; heldCents: number }[]> {
  const rows = await tx
    .select({ giftCardId: giftCardMovements.giftCardId, net: sql<number>`coalesce(sum(${giftCardMovements.amountCents}), 0)`.mapWith(Number) })
    .from(giftCardMovements)
    .where(and(eq(giftCardMovements.orderId, orderId), inArray(giftCardMovements.kind, ["spend", "give_back", "refund"])))
    .groupBy(giftCardMovements.giftCardId);
  return rows.filter((row) => row.net < 0).map((row) => ({ giftCardId: row.giftCardId, heldCents: -row.net }));
}

/**
 * What an order took from cards goes back to them, once: "give_back" when the unpaid order is cancelled or
 * expires, "refund" when goods it paid for are refunded (up to `upToCents`, the refund's amount).
 */
export async function giveBackToGiftCards(
  tx: Db,
  args: { orderId: string; kind: "give_back" | "refund"; upToCents?: number; actorUserId?: string | null; now: Date },
): Promise<number> {
  let left = args.upToCents ?? Number.MAX_SAFE_INTEGER;
  let given = 0;
  for (const held of await heldByOrder(tx, args.orderId)) {
    const cents = Math.min(held.heldCents, left);
    if (cents <= 0) break;
    await tx
      .update(giftCards)
      .set({ balanceCents: sql`${giftCards.balanceCents} + ${cents}`, updatedAt: args.now })
      .where(eq(giftCards.id, held.giftCardId));
    await tx.insert(giftCardMovements).values({
      giftCardId: held.giftCardId,
      kind: args.kind,
      amountCents: cents,
      orderId: args.orderId,
      actorUserId: args.actorUserId ?? null,
      createdAt: args.now,
    });
    left -= cents;
    given += cents;
  }
  return given;
}

/** A late payment of a let-go order takes its card share again, or refuses (false) when the card no longer has it. */
export async function retakeGiftCards(tx: Db, args: { orderId: string; giftCardCents: number; now: Date }): Promise<boolean> {
  if (args.giftCardCents === 0) return true;
  const [last] = await tx
    .select({ giftCardId: giftCardMovements.giftCardId })
    .from(giftCardMovements)
    .where(and(eq(giftCardMovements.orderId, args.orderId), eq(giftCardMovements.kind, "spend")))
    .orderBy(desc(giftCardMovements.id))
    .limit(1);
  if (!last) return true;
  const taken = await tx
    .update(giftCards)
    .set({ balanceCents: sql`${giftCards.balanceCents} - ${args.giftCardCents}`, updatedAt: args.now })
    .where(and(eq(giftCards.id, last.giftCardId), eq(giftCards.isActive, true), sql`${giftCards.balanceCents} >= ${args.giftCardCents}`))
    .returning({ id: giftCards.id });
  if (taken.length === 0) return false;
  await tx
    .insert(giftCardMovements)
    .values({ giftCardId: last.giftCardId, kind: "spend", amountCents: -args.giftCardCents, orderId: args.orderId, createdAt: args.now });
  return true;
}

/** The staff stop a card (lost, sold by mistake): its balance can no longer be spent; the movement records who. */
export async function deactivateGiftCard(tx: Db, args: { id: number; actorUserId: string | null; now: Date }): Promise<boolean> {
  const stopped = await tx
    .update(giftCards)
    .set({ isActive: false, updatedAt: args.now })
    .where(and(eq(giftCards.id, args.id), eq(giftCards.isActive, true)))
    .returning({ id: giftCards.id });
  if (stopped.length === 0) return false;
  await tx
    .insert(giftCardMovements)
    .values({ giftCardId: args.id, kind: "deactivation", amountCents: 0, actorUserId: args.actorUserId, createdAt: args.now });
  return true;
}

/** Cards past their expiry lose what is left (an "expiry" movement each); the daily job's work. Returns how many. */
export async function expireGiftCards(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: giftCards.id, balanceCents: giftCards.balanceCents })
      .from(giftCards)
      .where(and(lte(giftCards.expiresAt, now), gt(giftCards.balanceCents, 0)))
      .orderBy(giftCards.id)
      .for("update", { skipLocked: true });
    for (const card of due) {
      await tx.update(giftCards).set({ balanceCents: 0, updatedAt: now }).where(eq(giftCards.id, card.id));
      await tx.insert(giftCardMovements).values({ giftCardId: card.id, kind: "expiry", amountCents: -card.balanceCents, createdAt: now });
    }
    return due.length;
  });
}

export type GiftCardListRow = Pick<
  GiftCardRow,
  "id" | "codeTail" | "origin" | "initialCents" | "balanceCents" | "isActive" | "recipientName" | "recipientEmail" | "expiresAt" | "createdAt"
>;

/** The back office's list, newest first: `search` is a whole code, a code's last four characters, or a recipient's name or e-mail. */
export async function listGiftCards(db: Db, args: { search?: string | null; limit?: number }): Promise<GiftCardListRow[]> {
  const search = args.search?.trim() ?? "";
  const normalised = search ? normaliseGiftCardCode(search) : null;
  const where = !search
    ? undefined
    : normalised
      ? eq(giftCards.codeHash, giftCardCodeHash(normalised))
      : or(
          eq(giftCards.codeTail, search.toUpperCase()),
          ilike(giftCards.recipientName, `%${search.replace(/[\\%_]/g, "\\$&")}%`),
          ilike(giftCards.recipientEmail, `%${search.replace(/[\\%_]/g, "\\$&")}%`),
        );
  return db
    .select({
      id: giftCards.id,
      codeTail: giftCards.codeTail,
      origin: giftCards.origin,
      initialCents: giftCards.initialCents,
      balanceCents: giftCards.balanceCents,
      isActive: giftCards.isActive,
      recipientName: giftCards.recipientName,
      recipientEmail: giftCards.recipientEmail,
      expiresAt: giftCards.expiresAt,
      createdAt: giftCards.createdAt,
    })
    .from(giftCards)
    .where(where)
    .orderBy(desc(giftCards.createdAt), desc(giftCards.id))
    .limit(args.limit ?? 100);
}

/** One card and its movements, oldest first. */
export async function getGiftCard(db: Db, id: number): Promise<{ card: GiftCardRow; movements: (typeof giftCardMovements.$inferSelect)[] } | null> {
  const [card] = await db.select().from(giftCards).where(eq(giftCards.id, id));
  if (!card) return null;
  const movements = await db.select().from(giftCardMovements).where(eq(giftCardMovements.giftCardId, id)).orderBy(giftCardMovements.id);
  return { card, movements };
}

/** A card sold at the counter: issued with its audit row in one transaction; the code is returned once, to print. */
export async function sellGiftCardAtCounter(
  db: Db,
  args: { amountCents: number; validityMonths: number; recipientName: string; actorUserId: string; now: Date },
): Promise<IssuedGiftCard> {
  return db.transaction(async (tx) => {
    const card = await issueGiftCard(tx, {
      origin: "counter",
      amountCents: args.amountCents,
      expiresAt: giftCardExpiry(args.now, args.validityMonths),
      recipientName: args.recipientName,
      actorUserId: args.actorUserId,
      now: args.now,
    });
    await recordAudit(tx, {
      actorUserId: args.actorUserId,
      action: "gift-card.counter-sale",
      entity: "gift-card",
      entityId: card.id,
      details: { amountCents: args.amountCents },
    });
    return card;
  });
}

/** The staff deactivate a card from the back office, with its audit row. */
export async function deactivateGiftCardByStaff(db: Db, args: { id: number; actorUserId: string; now: Date }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const stopped = await deactivateGiftCard(tx, args);
    if (stopped) await recordAudit(tx, { actorUserId: args.actorUserId, action: "gift-card.deactivate", entity: "gift-card", entityId: args.id });
    return stopped;
  });
}
