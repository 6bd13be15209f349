/**
 * What the loyalty card shows: to her (account page, API) her number, balance, the next points to expire
 * and the history; to the staff at the counter the cards found by number, e-mail or phone.
 */
import { and, asc, desc, eq, gt, ilike, or, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { loyaltyCards, loyaltyEntries, orders, profiles, users } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { LoyaltySettings } from "#server/settings/settings.ts";
import { italianDayOf } from "#common/shop-calendar.ts";
import { normaliseCardNumber } from "./loyalty";
import type { LoyaltyEntryKind } from "./loyalty.service";

export type LoyaltyHistoryRow = {
  id: number;
  kind: LoyaltyEntryKind;
  points: number;
  at: Date;
  orderNumber: number | null;
  receiptNumber: string | null;
  actorKind: "customer" | "staff" | "job";
  note: string | null;
};

export type LoyaltyCardView = {
  id: number;
  number: string;
  balance: number;
  joinedAt: Date;
  /** The earliest points still to expire: how many, and the Italian day they go. */
  nextExpiry: { points: number; on: string } | null;
  history: LoyaltyHistoryRow[];
  rules: Pick<LoyaltySettings, "pointsPerEuro" | "stepPoints" | "stepCents" | "expiryMonths">;
};

const historyLimit = 100;

async function cardView(db: Db, card: typeof loyaltyCards.$inferSelect): Promise<LoyaltyCardView> {
  const history = await db
    .select({
      id: loyaltyEntries.id,
      kind: loyaltyEntries.kind,
      points: loyaltyEntries.points,
      at: loyaltyEntries.createdAt,
      orderNumber: orders.number,
      receiptNumber: loyaltyEntries.receiptNumber,
      actorKind: loyaltyEntries.actorKind,
      note: loyaltyEntries.note,
    })
    .from(loyaltyEntries)
    .leftJoin(orders, eq(orders.id, loyaltyEntries.orderId))
    .where(eq(loyaltyEntries.cardId, card.id))
    .orderBy(desc(loyaltyEntries.createdAt), desc(loyaltyEntries.id))
    .limit(historyLimit);
  const [next] = await db
    .select({ expiresAt: loyaltyEntries.expiresAt, points: sql<number>`sum(${loyaltyEntries.remaining})`.mapWith(Number) })
    .from(loyaltyEntries)
    .where(and(eq(loyaltyEntries.cardId, card.id), gt(loyaltyEntries.remaining, 0)))
    .groupBy(loyaltyEntries.expiresAt)
    .orderBy(asc(loyaltyEntries.expiresAt))
    .limit(1);
  const { loyalty } = await getSettings(db, ["loyalty"]);
  return {
    id: card.id,
    number: card.number,
    balance: card.balance,
    joinedAt: card.createdAt,
    nextExpiry: next?.expiresAt ? { points: next.points, on: italianDayOf(next.expiresAt) } : null,
    history: history.map((row) => ({ ...row, kind: row.kind as LoyaltyEntryKind, actorKind: row.actorKind as LoyaltyHistoryRow["actorKind"] })),
    rules: { pointsPerEuro: loyalty.pointsPerEuro, stepPoints: loyalty.stepPoints, stepCents: loyalty.stepCents, expiryMonths: loyalty.expiryMonths },
  };
}

/** Her card, or null when she has not joined. */
export async function getLoyaltyCardView(db: Db, userId: string): Promise<LoyaltyCardView | null> {
  const [card] = await db.select().from(loyaltyCards).where(eq(loyaltyCards.userId, userId));
  return card ? cardView(db, card) : null;
}

export type CounterCard = LoyaltyCardView & { holder: { userId: string; name: string; email: string; phone: string | null } };

/** A card for the counter, with whose it is. */
export async function getCounterCard(db: Db, cardId: number): Promise<CounterCard | null> {
  const [row] = await db
    .select({ card: loyaltyCards, name: users.name, email: users.email, phone: profiles.phone })
    .from(loyaltyCards)
    .innerJoin(users, eq(users.id, loyaltyCards.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(loyaltyCards.id, cardId));
  if (!row) return null;
  return { ...(await cardView(db, row.card)), holder: { userId: row.card.userId, name: row.name, email: row.email, phone: row.phone } };
}

export type CounterSearchRow = { cardId: number; number: string; balance: number; name: string; email: string; phone: string | null };

/** Cards found by what the customer says at the till: the card's number (its check digit checked), her e-mail or her phone. */
export async function findCardsForCounter(db: Db, typed: string): Promise<CounterSearchRow[]> {
  const query = typed.trim().slice(0, 100);
  if (query.length < 3) return [];
  const number = normaliseCardNumber(query);
  const digits = query.replace(/[^0-9]/g, "");
  const escaped = query.replace(/[\\%_]/g, (match) => `\\${match}`);
  const conditions = [
    number ? eq(loyaltyCards.number, number) : null,
    query.includes("@") ? eq(sql`lower(${users.email})`, query.toLowerCase()) : ilike(users.email, `%${escaped}%`),
    // Phones are typed with spaces, dashes or the +39 prefix: compared on their last digits.
    digits.length >= 6 ? sql`regexp_replace(coalesce(${profiles.phone}, ''), '[^0-9]', '', 'g') like ${`%${digits.slice(-9)}`}` : null,
  ].filter((condition) => condition !== null);
  return db
    .select({
      cardId: loyaltyCards.id,
      number: loyaltyCards.number,
      balance: loyaltyCards.balance,
      name: users.name,
      email: users.email,
      phone: profiles.phone,
    })
    .from(loyaltyCards)
    .innerJoin(users, eq(users.id, loyaltyCards.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(or(...conditions))
    .orderBy(asc(users.email))
    .limit(20);
}
