/**
 * `/basket/{id}` (docs/rules.md#shared-baskets): a cart saved as a shareable link. The id is random and unguessable;
 * opening the link shows today's prices and availability, and copying applies every cart rule.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { savedBaskets } from "#server/db/schema.ts";
import { cartTotals, lineTotalCents, type CartErrorCode, type CartTotals } from "./cart";
import { addLinesToCart, getStoredCartLines, type MergedLine } from "./cart.service";
import { describeVariants, type VariantDisplay } from "./cart-view.service";

const base32Alphabet = "abcdefghijklmnopqrstuvwxyz234567";
/** 16 base32 characters: 80 random bits. */
export const basketIdLength = 16;
export const basketIdPattern = /^[a-z2-7]{16}$/;

export function newBasketId(): string {
  const bytes = crypto.randomBytes(basketIdLength);
  return Array.from(bytes, (byte) => base32Alphabet[byte & 31]).join("");
}

/** Saves the cart's ordinary lines (gift-list items belong to their list, not to a shared link). */
export async function saveBasket(
  db: Db,
  args: { cartId: string | null; userId?: string | null },
): Promise<{ ok: true; id: string } | { ok: false; error: CartErrorCode }> {
  const stored = args.cartId ? await getStoredCartLines(db, args.cartId) : [];
  const lines = stored
    .filter((line) => line.giftListItemId === null)
    .map((line) => ({ variantId: line.variantId, quantity: line.quantity, personalisation: line.personalisation }));
  if (lines.length === 0) return { ok: false, error: "cart-empty" };
  const id = newBasketId();
  await db.insert(savedBaskets).values({ id, createdByUserId: args.userId ?? null, lines });
  return { ok: true, id };
}

export type BasketLineView = VariantDisplay & {
  quantity: number;
  personalisation: { label: string; text: string }[];
  lineTotalCents: number;
};

export type BasketView = { id: string; createdAt: Date; lines: BasketLineView[]; totals: CartTotals; availableLines: number };

async function findBasket(db: Db, id: string) {
  if (!basketIdPattern.test(id)) return null;
  const [basket] = await db.select().from(savedBaskets).where(eq(savedBaskets.id, id));
  return basket ?? null;
}

/** The basket as it would cost today; null when there is no such basket. */
export async function getBasketView(db: Db, args: { id: string; locale: Locale; now: Date }): Promise<BasketView | null> {
  const basket = await findBasket(db, args.id);
  if (!basket) return null;
  const variants = await describeVariants(
    db,
    basket.lines.map((line) => line.variantId),
    args.locale,
    args.now,
  );
  const lines = basket.lines.flatMap((line): BasketLineView[] => {
    const variant = variants.get(line.variantId);
    if (!variant) return [];
    return [
      {
        ...variant,
        quantity: line.quantity,
        personalisation: variant.personalisationLabels.flatMap((label, index) => {
          const text = line.personalisation[String(index)];
          return text ? [{ label, text }] : [];
        }),
        lineTotalCents: lineTotalCents(variant, line.quantity),
      },
    ];
  });
  return {
    id: basket.id,
    createdAt: basket.createdAt,
    lines,
    totals: cartTotals(lines),
    availableLines: lines.filter((line) => line.isForSale && line.stock > 0).length,
  };
}

export type CopyBasketResult =
  { ok: true; cartId: string; count: number; lines: (MergedLine & { name: string })[] } | { ok: false; error: "basket-not-found" };

/** Copies the basket's lines into the visitor's cart with every cart rule; each line says how it fared. */
export async function copyBasketToCart(db: Db, args: { id: string; cartId: string | null; locale: Locale; now: Date }): Promise<CopyBasketResult> {
  const basket = await findBasket(db, args.id);
  if (!basket) return { ok: false, error: "basket-not-found" };
  const result = await addLinesToCart(db, {
    cartId: args.cartId,
    lines: basket.lines.map((line) => ({ ...line, giftList: null })),
  });
  const variants = await describeVariants(
    db,
    basket.lines.map((line) => line.variantId),
    args.locale,
    args.now,
  );
  return {
    ok: true,
    cartId: result.cartId,
    count: result.count,
    lines: result.lines.map((line) => ({ ...line, name: variants.get(line.variantId)?.name ?? `#${line.variantId}` })),
  };
}
