/**
 * The loyalty card's use-cases, the one module that writes loyalty_cards, loyalty_entries and
 * loyalty_expiry_notices (docs/decisions/0099-loyalty-card.md). Every change to a balance is one
 * conditional UPDATE of the card row (never below zero: of two spends of the same points one wins) and one
 * entry saying who (customer, staff, job) and why. Points added keep what is left of them until they
 * expire; spending takes the oldest first.
 */
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { loyaltyCards, loyaltyEntries, loyaltyExpiryNotices } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { cardNumberOf, expiryOf, pointsFor, type LoyaltyError } from "./loyalty";

/** The privacy text she agrees to when joining; a new text gets a new version (the card keeps which one). */
export const loyaltyConsentVersion = "2026-11";

export type LoyaltyEntryKind =
  "order-earned" | "order-redeemed" | "order-returned" | "refund-taken-back" | "counter-earned" | "counter-redeemed" | "expired";

export type LoyaltyActor = { kind: "customer" | "staff" | "job"; userId: string | null };

type Card = typeof loyaltyCards.$inferSelect;

export type LoyaltyResult<T> = ({ ok: true } & T) | { ok: false; error: LoyaltyError };

export async function getCardOfUser(db: Db, userId: string): Promise<Card | null> {
  const [card] = await db.select().from(loyaltyCards).where(eq(loyaltyCards.userId, userId));
  return card ?? null;
}

/** Joining is her choice: only with the privacy text agreed to; a second join is refused. */
export async function joinLoyaltyCard(db: Db, args: { userId: string; consent: boolean; now: Date }): Promise<LoyaltyResult<{ card: Card }>> {
  if (!args.consent) return { ok: false, error: "consent-needed" };
  return db.transaction(async (tx) => {
    if (await getCardOfUser(tx, args.userId)) return { ok: false, error: "already-joined" } as const;
    // The number comes from the card's own id, so it is printed once and never reused.
    const [made] = await tx
      .insert(loyaltyCards)
      .values({
        number: `new:${args.userId}`,
        userId: args.userId,
        consentedAt: args.now,
        consentVersion: loyaltyConsentVersion,
        createdAt: args.now,
      })
      .onConflictDoNothing()
      .returning({ id: loyaltyCards.id });
    const [card] = made
      ? await tx
          .update(loyaltyCards)
          .set({ number: cardNumberOf(made.id) })
          .where(eq(loyaltyCards.id, made.id))
          .returning()
      : [];
    if (!card) return { ok: false, error: "already-joined" } as const;
    return { ok: true, card } as const;
  });
}

type EntryFacts = {
  kind: LoyaltyEntryKind;
  actor: LoyaltyActor;
  now: Date;
  orderId?: string | null;
  receiptNumber?: string | null;
  receiptCents?: number | null;
  settledRefundCents?: number | null;
  note?: string | null;
};

function entryRow(cardId: number, points: number, facts: EntryFacts) {
  return {
    cardId,
    kind: facts.kind,
    points,
    actorKind: facts.actor.kind,
    actorUserId: facts.actor.userId,
    orderId: facts.orderId ?? null,
    receiptNumber: facts.receiptNumber ?? null,
    receiptCents: facts.receiptCents ?? null,
    settledRefundCents: facts.settledRefundCents ?? null,
    note: facts.note ?? null,
    createdAt: facts.now,
  };
}

/** Adds points that expire `expiryMonths` after today; false when the entry already exists (a receipt counted once). */
async function addPoints(tx: Db, cardId: number, points: number, facts: EntryFacts, expiryMonths: number): Promise<boolean> {
  const [entry] = await tx
    .insert(loyaltyEntries)
    .values({ ...entryRow(cardId, points, facts), remaining: points, expiresAt: expiryOf(facts.now, expiryMonths) })
    .onConflictDoNothing()
    .returning({ id: loyaltyEntries.id });
  if (!entry) return false;
  if (points > 0) {
    await tx
      .update(loyaltyCards)
      .set({ balance: sql`${loyaltyCards.balance} + ${points}` })
      .where(eq(loyaltyCards.id, cardId));
  }
  return true;
}

/**
 * Takes `points` off the card, the oldest first, or nothing when the balance is short. The conditional
 * UPDATE also locks the card's row until commit: a second spend waits here, then sees the new balance.
 */
async function takePoints(tx: Db, cardId: number, points: number, facts: EntryFacts): Promise<boolean> {
  if (points <= 0) return points === 0;
  const [taken] = await tx
    .update(loyaltyCards)
    .set({ balance: sql`${loyaltyCards.balance} - ${points}` })
    .where(and(eq(loyaltyCards.id, cardId), sql`${loyaltyCards.balance} >= ${points}`))
    .returning({ id: loyaltyCards.id });
  if (!taken) return false;
  const lots = await tx
    .select({ id: loyaltyEntries.id, remaining: loyaltyEntries.remaining })
    .from(loyaltyEntries)
    .where(and(eq(loyaltyEntries.cardId, cardId), gt(loyaltyEntries.remaining, 0)))
    .orderBy(asc(loyaltyEntries.expiresAt), asc(loyaltyEntries.id));
  let left = points;
  for (const lot of lots) {
    if (left === 0) break;
    const used = Math.min(lot.remaining, left);
    await tx
      .update(loyaltyEntries)
      .set({ remaining: lot.remaining - used })
      .where(eq(loyaltyEntries.id, lot.id));
    left -= used;
  }
  await tx.insert(loyaltyEntries).values(entryRow(cardId, -points, facts));
  return true;
}

// ---------------------------------------------------------------- orders

/** Spends the order's points in the order's transaction; false when the balance no longer has them. */
export async function spendPointsOnOrder(tx: Db, args: { cardId: number; orderId: string; points: number; actorUserId: string | null; now: Date }) {
  return takePoints(tx, args.cardId, args.points, {
    kind: "order-redeemed",
    actor: { kind: "customer", userId: args.actorUserId },
    orderId: args.orderId,
    now: args.now,
  });
}

/** Points an order spent and has not had back: its redeemed entries less its returned ones. */
async function pointsHeldBy(tx: Db, orderId: string): Promise<{ cardId: number; points: number } | null> {
  const rows = await tx
    .select({ cardId: loyaltyEntries.cardId, points: sql<number>`sum(${loyaltyEntries.points})`.mapWith(Number) })
    .from(loyaltyEntries)
    .where(and(eq(loyaltyEntries.orderId, orderId), inArray(loyaltyEntries.kind, ["order-redeemed", "order-returned"])))
    .groupBy(loyaltyEntries.cardId);
  const row = rows[0];
  return row ? { cardId: row.cardId, points: -row.points } : null;
}

/** An order let go before it was paid (cancelled, expired) gives its points back, once, expiring afresh. */
export async function givePointsBackOfOrder(tx: Db, args: { orderId: string; now: Date }) {
  const held = await pointsHeldBy(tx, args.orderId);
  if (!held || held.points <= 0) return;
  const { loyalty } = await getSettings(tx, ["loyalty"]);
  await addPoints(
    tx,
    held.cardId,
    held.points,
    { kind: "order-returned", actor: { kind: "job", userId: null }, orderId: args.orderId, now: args.now },
    loyalty.expiryMonths,
  );
}

/** A late payment of a let-go order spends its points again; false when they are gone meanwhile. */
export async function retakePointsOfOrder(tx: Db, args: { orderId: string; userId: string | null; points: number; now: Date }) {
  if (args.points <= 0 || !args.userId) return true;
  const held = await pointsHeldBy(tx, args.orderId);
  if (held && held.points > 0) return true;
  const card = await getCardOfUser(tx, args.userId);
  if (!card) return false;
  return spendPointsOnOrder(tx, { cardId: card.id, orderId: args.orderId, points: args.points, actorUserId: args.userId, now: args.now });
}

/**
 * The points an order earned, credited once its withdrawal period is over (the settlement decides when): on
 * the goods paid less `refundedCents` refunded so far. Written even at 0 points, so the order is settled
 * and not looked at again; false when it was credited already.
 */
export async function creditOrderPoints(
  tx: Db,
  args: { cardId: number; orderId: string; points: number; refundedCents: number; now: Date },
): Promise<boolean> {
  const { loyalty } = await getSettings(tx, ["loyalty"]);
  const facts: EntryFacts = {
    kind: "order-earned",
    actor: { kind: "job", userId: null },
    orderId: args.orderId,
    settledRefundCents: args.refundedCents,
    now: args.now,
  };
  return addPoints(tx, args.cardId, args.points, facts, loyalty.expiryMonths);
}

/**
 * A refund after the points were credited takes back the points of the money refunded, as far as the
 * balance still has them (points spent meanwhile stay spent: the entry notes what was due).
 */
export async function takeBackRefundedPoints(
  tx: Db,
  args: { cardId: number; orderId: string; points: number; refundedCents: number; now: Date },
): Promise<number> {
  const [card] = await tx.select({ balance: loyaltyCards.balance }).from(loyaltyCards).where(eq(loyaltyCards.id, args.cardId)).for("update");
  const points = Math.min(args.points, card?.balance ?? 0);
  const facts: EntryFacts = {
    kind: "refund-taken-back",
    actor: { kind: "job", userId: null },
    orderId: args.orderId,
    settledRefundCents: args.refundedCents,
    note: points < args.points ? `due ${args.points}` : null,
    now: args.now,
  };
  if (points > 0) await takePoints(tx, args.cardId, points, facts);
  else await tx.insert(loyaltyEntries).values(entryRow(args.cardId, 0, facts));
  return points;
}

// ---------------------------------------------------------------- the shop's counter

/** Points for a till receipt, once per receipt number (a second scan of the same receipt changes nothing). */
export async function addCounterPoints(
  db: Db,
  args: { cardId: number; receiptNumber: string; receiptCents: number; actorUserId: string; now: Date },
): Promise<LoyaltyResult<{ points: number }>> {
  const { loyalty } = await getSettings(db, ["loyalty"]);
  const points = pointsFor(args.receiptCents, loyalty.pointsPerEuro);
  if (points <= 0) return { ok: false, error: "nothing-to-earn" };
  return db.transaction(async (tx) => {
    const [card] = await tx.select({ id: loyaltyCards.id }).from(loyaltyCards).where(eq(loyaltyCards.id, args.cardId));
    if (!card) return { ok: false, error: "card-not-found" } as const;
    const facts: EntryFacts = {
      kind: "counter-earned",
      actor: { kind: "staff", userId: args.actorUserId },
      receiptNumber: args.receiptNumber,
      receiptCents: args.receiptCents,
      now: args.now,
    };
    const added = await addPoints(tx, card.id, points, facts, loyalty.expiryMonths);
    return added ? ({ ok: true, points } as const) : ({ ok: false, error: "receipt-already-counted" } as const);
  });
}

/** Points spent at the till, in the staff's steps: the discount to give on the receipt. */
export async function redeemAtCounter(
  db: Db,
  args: { cardId: number; points: number; actorUserId: string; now: Date; note: string | null },
): Promise<LoyaltyResult<{ discountCents: number }>> {
  const { loyalty } = await getSettings(db, ["loyalty"]);
  if (!Number.isSafeInteger(args.points) || args.points <= 0 || args.points % loyalty.stepPoints !== 0) return { ok: false, error: "not-a-step" };
  return db.transaction(async (tx) => {
    const facts: EntryFacts = { kind: "counter-redeemed", actor: { kind: "staff", userId: args.actorUserId }, note: args.note, now: args.now };
    const taken = await takePoints(tx, args.cardId, args.points, facts);
    if (!taken) return { ok: false, error: "not-enough-points" } as const;
    return { ok: true, discountCents: (args.points / loyalty.stepPoints) * loyalty.stepCents } as const;
  });
}

// ---------------------------------------------------------------- expiry

/** Points past their expiry leave the balance, a card at a time, with one "expired" entry each. */
export async function expirePoints(db: Db, now: Date): Promise<number> {
  const cards = await db
    .selectDistinct({ cardId: loyaltyEntries.cardId })
    .from(loyaltyEntries)
    .where(and(gt(loyaltyEntries.remaining, 0), lte(loyaltyEntries.expiresAt, now)))
    .limit(500);
  let expired = 0;
  for (const { cardId } of cards) {
    expired += await db.transaction(async (tx) => {
      // The card's row first, as every spend locks it: the lots read below cannot change meanwhile.
      await tx.select({ id: loyaltyCards.id }).from(loyaltyCards).where(eq(loyaltyCards.id, cardId)).for("update");
      const due = and(eq(loyaltyEntries.cardId, cardId), gt(loyaltyEntries.remaining, 0), lte(loyaltyEntries.expiresAt, now));
      const [lots] = await tx
        .select({ points: sql<number>`coalesce(sum(${loyaltyEntries.remaining}), 0)`.mapWith(Number) })
        .from(loyaltyEntries)
        .where(due);
      const points = lots?.points ?? 0;
      if (points === 0) return 0;
      await tx.update(loyaltyEntries).set({ remaining: 0 }).where(due);
      await tx
        .update(loyaltyCards)
        .set({ balance: sql`${loyaltyCards.balance} - ${points}` })
        .where(eq(loyaltyCards.id, cardId));
      await tx.insert(loyaltyEntries).values(entryRow(cardId, -points, { kind: "expired", actor: { kind: "job", userId: null }, now }));
      return points;
    });
  }
  return expired;
}

/** Marks a card's statement for an expiry day as sent; false when it went already (one mail per batch). */
export async function markExpiryNotice(tx: Db, args: { cardId: number; expiresOn: string; points: number; now: Date }): Promise<boolean> {
  const [row] = await tx
    .insert(loyaltyExpiryNotices)
    .values({ cardId: args.cardId, expiresOn: args.expiresOn, points: args.points, createdAt: args.now })
    .onConflictDoNothing()
    .returning({ cardId: loyaltyExpiryNotices.cardId });
  return Boolean(row);
}
