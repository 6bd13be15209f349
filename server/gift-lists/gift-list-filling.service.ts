/**
 * The list an owner is filling while browsing the shop (the cards' and quick view's "add to my list"):
 * which one, and its running total. Read on every page while chosen, so it is checked on every read:
 * someone else's list, a closed one or an unknown id is no list at all.
 */
import type { Locale } from "#common/locale.ts";
import type { Db } from "#server/db/client.ts";
import { sumCents, timesQuantity, type Cents } from "#server/money.ts";
import { describeGiftListItems, getOwnGiftList } from "./gift-list.service";

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

export async function getGiftListFilling(
  db: Db,
  args: { userId: string; giftListId: unknown; locale: Locale; now: Date },
): Promise<GiftListFilling | null> {
  const list = await getOwnGiftList(db, args.userId, args.giftListId);
  if (!list || list.status !== "open") return null;
  const items = (await describeGiftListItems(db, [list], args.locale, args.now)).get(list.id) ?? [];
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
