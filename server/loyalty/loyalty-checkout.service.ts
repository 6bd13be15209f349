/**
 * The loyalty card at checkout: which lines the points may pay for (not infant formula, not an excluded
 * kind), what the card offers on them, and the points asked checked against the card, the steps and the
 * lines; one rule for the summary and placeOrder. The spend itself is loyalty.service.ts's.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { products } from "#server/db/schema.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { redeemableSteps, redeemPoints, type LoyaltyError, type LoyaltyLine } from "./loyalty";
import { getCardOfUser } from "./loyalty.service";

/** A product is out of the card when the staff mark it so (infant formula), or when its kind is excluded in the settings. */
export function isExcludedFromLoyalty(product: { isLoyaltyExcluded: boolean; kind?: string }, excludedKinds: readonly string[]): boolean {
  return product.isLoyaltyExcluded || excludedKinds.includes(product.kind ?? "goods");
}

/** The products of an order that are out of the card. */
export async function loyaltyExcludedProducts(db: Db, productIds: readonly number[]): Promise<Set<number>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Set();
  const { loyalty } = await getSettings(db, ["loyalty"]);
  const rows = await db.select({ id: products.id, isLoyaltyExcluded: products.isLoyaltyExcluded }).from(products).where(inArray(products.id, ids));
  return new Set(rows.filter((row) => isExcludedFromLoyalty(row, loyalty.excludedKinds)).map((row) => row.id));
}

/** What the checkout shows of her card: what she may spend here, and the points chosen when they can be. */
export type CheckoutLoyalty = {
  cardId: number;
  cardNumber: string;
  balance: number;
  stepPoints: number;
  stepCents: number;
  /** The most steps this order takes (her balance, and the goods the points may pay for). */
  maxSteps: number;
  /** The points chosen and the discount they give (0 when none, or refused). */
  points: number;
  discountCents: number;
  perLineCents: number[];
  /** Why the points chosen cannot be spent; nothing is taken off then. */
  error: LoyaltyError | null;
  /** Some line cannot be paid with points (infant formula, by law). */
  hasExcludedLines: boolean;
  /** Per line: out of the card (earns nothing, takes no points discount). */
  lineExcluded: boolean[];
};

export type LoyaltyOrderLine = { productId: number; cents: number };

/** Null for a guest or a customer without a card. `lines` are the order's goods after a discount code's share. */
export async function checkoutLoyaltyOf(
  db: Db,
  args: { userId: string | null; points: number; lines: readonly LoyaltyOrderLine[] },
): Promise<CheckoutLoyalty | null> {
  const card = args.userId ? await getCardOfUser(db, args.userId) : null;
  if (!card) return null;
  const { loyalty } = await getSettings(db, ["loyalty"]);
  const excluded = await loyaltyExcludedProducts(
    db,
    args.lines.map((line) => line.productId),
  );
  const lines: LoyaltyLine[] = args.lines.map((line) => ({ cents: line.cents, isExcluded: excluded.has(line.productId) }));
  const checked = redeemPoints(args.points, card.balance, lines, loyalty);
  return {
    cardId: card.id,
    cardNumber: card.number,
    balance: card.balance,
    stepPoints: loyalty.stepPoints,
    stepCents: loyalty.stepCents,
    maxSteps: redeemableSteps(card.balance, lines, loyalty),
    points: checked.ok ? checked.redemption.points : 0,
    discountCents: checked.ok ? checked.redemption.discountCents : 0,
    perLineCents: checked.ok ? checked.redemption.perLineCents : lines.map(() => 0),
    error: checked.ok ? null : checked.error,
    hasExcludedLines: lines.some((line) => line.isExcluded),
    lineExcluded: lines.map((line) => line.isExcluded),
  };
}

/** Points asked without a card are refused as such. */
export function loyaltyErrorOf(loyalty: CheckoutLoyalty | null, points: number): LoyaltyError | null {
  if (points <= 0) return null;
  return loyalty ? loyalty.error : "no-card";
}
