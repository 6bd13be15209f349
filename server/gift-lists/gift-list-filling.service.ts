/**
 * The list an owner is filling while browsing the shop (the cards' and quick view's "add to my list"):
 * which one, and its running total. Read on every page while chosen, so it is checked on every read:
 * someone else's list, a closed one or an unknown id is no list at all.
 */
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { sumCents, timesQuantity, type Cents } from "#server/money.ts";
import { describeGiftListItems, listMyOpenGiftLists, type GiftListChoice, type GiftListRow } from "./gift-list.service";

export type GiftListFilling = {
  id: string;
  code: string;
  title: string;
  /** Distinct products on the list. */
  productCount: number;
  /** Units wished over all of them. */
  unitCount: number;
  /** What the wished units cost today, personalisation included. */
  totalCents: Cents;
};

async function fillingOf(
  db: Db,
  list: Pick<GiftListRow, "id" | "code" | "title" | "eventDate">,
  locale: Locale,
  now: Date,
): Promise<GiftListFilling> {
  const items = (await describeGiftListItems(db, [list], locale, now, { keptVariants: true })).get(list.id) ?? [];
  return {
    id: list.id,
    code: list.code,
    title: list.title,
    productCount: items.length,
    unitCount: items.reduce((units, item) => units + item.quantityWished, 0),
    totalCents: sumCents(
      items.map((item) => timesQuantity(item.unitCents + (item.personalisation.length > 0 ? item.personalisationUnitCents : 0), item.quantityWished)),
    ),
  };
}

/**
 * Her open lists for the product page's selector and the one she is filling, with its
 * running total, when `fillingId` names one of them: one read of her lists gives both, since the list
 * being filled must be hers and open. Her personal part asks for both on every page she opens; never inside a
 * transaction (its items' variants are the kept ones, as the mini cart's).
 */
export async function getGiftListChoicesAndFilling(
  db: Db,
  args: { userId: string; fillingId: string | null; locale: Locale; now: Date },
): Promise<{ choices: GiftListChoice[]; filling: GiftListFilling | null }> {
  const lists = await listMyOpenGiftLists(db, args.userId);
  const filled = args.fillingId === null ? undefined : lists.find((list) => list.id === args.fillingId);
  return {
    choices: lists.map(({ id, title, code }) => ({ id, title, code })),
    filling: filled ? await fillingOf(db, filled, args.locale, args.now) : null,
  };
}
