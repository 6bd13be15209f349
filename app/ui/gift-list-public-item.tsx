import { useTranslation } from "react-i18next";
import { useFetcher, useLocation } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import { awaitCartAnswer, FetcherMarker, useCartFetcherToasts, type CartActionData } from "./cart-toasts";
import { Price } from "./price";
import { AccountNotice } from "./account-form-parts";
import { ContributionForm, GroupGiftProgress, type ContributionState } from "./gift-list-group";
import type { GroupGiftProgress as GroupGiftRound } from "#server/gift-lists/gift-list-group.ts";
import { GiftListItemDetails, type GiftListItemBase } from "./gift-list-item-details";
import { ProductImage } from "./product-image";

export type PublicGiftListItem = GiftListItemBase & {
  unitCents: number;
  listUnitCents: number;
  discountPercent: number;
  personalisationUnitCents: number;
  inCart: number;
  maxAddable: number;
  stock: number;
  isPreorder: boolean;
  preorderDays: number | null;
  /** A group gift: given through contributions only. */
  group: GroupGiftRound | null;
};

/**
 * One wished gift: picture, variant, price, how many are still needed, the pre-order warning, and
 * "give this" (a fetcher post to the list page; without JavaScript a plain post and a redirect), or
 * for a group gift what is collected and the contribution form (`contribution`: the list is open).
 */
export function PublicGiftListItemCard({
  item,
  code,
  contribution,
}: {
  item: PublicGiftListItem;
  code: string;
  /** `open`: false while the shop takes no cards, the only way to contribute. */
  contribution?: { idempotencyKey: string; state: ContributionState | undefined; open: boolean };
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const locale = localeOfPath(location.pathname);
  const key = `gift-list-add:${item.id}`;
  const fetcher = useFetcher<CartActionData>({ key });
  useCartFetcherToasts(fetcher);
  const headingId = `gift-${item.id}`;
  const quantityId = `gift-qty-${item.id}`;
  const statusId = `gift-status-${item.id}`;
  const given = item.stillNeeded === 0;
  return (
    <article aria-labelledby={headingId} className="flex h-full flex-col overflow-hidden rounded-3xl bg-white shadow-card">
      <div className="aspect-square bg-brand-50">
        <ProductImage image={item.image} sizes="(min-width: 1024px) 300px, (min-width: 640px) 45vw, 90vw" />
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 id={headingId} className="text-lg leading-snug font-bold">
          <a href={localizedHref(`/product/${item.productId}`, locale)} className="hover:underline">
            {item.name}
          </a>
        </h3>
        <GiftListItemDetails item={item} />
        <Price
          cents={item.unitCents + item.personalisationUnitCents}
          originalCents={item.discountPercent > 0 ? item.listUnitCents + item.personalisationUnitCents : null}
        />
        <p id={statusId} className={`text-sm font-semibold ${given ? "text-brand-800" : "text-ink"}`}>
          {given ? t("giftLists.public.complete") : t("giftLists.public.stillNeeded", { count: item.stillNeeded, wished: item.quantityWished })}
          {item.inCart > 0 && <span className="block font-normal text-muted">{t("giftLists.public.inCart", { count: item.inCart })}</span>}
        </p>
        {item.arrivesAfterEvent && !given && (
          <p className="rounded-xl border-l-4 border-amber-500 bg-sun-50 px-3 py-2 text-sm font-semibold">
            {t("giftLists.public.preorderLate", { days: item.preorderDays ?? 0 })}
          </p>
        )}
        {item.group && !given && (
          <div className="space-y-2">
            <p className="inline-block rounded-full bg-sun-50 px-3 py-1 text-sm font-semibold">{t("giftLists.group.badge")}</p>
            <p className="text-sm text-muted">{t("giftLists.group.lead")}</p>
            <GroupGiftProgress group={item.group} locale={locale} />
            {contribution?.state?.errors.form && item.group.leftCents === 0 && (
              <AccountNotice kind="error">{t(contribution.state.errors.form)}</AccountNotice>
            )}
            {contribution && !contribution.open && item.group.leftCents > 0 && (
              <p className="text-sm font-semibold">{t("giftLists.errors.group-gift-no-cards")}</p>
            )}
            {contribution?.open && item.group.leftCents > 0 && (
              <ContributionForm
                itemId={item.id}
                itemName={item.name}
                code={code}
                group={item.group}
                idempotencyKey={contribution.idempotencyKey}
                state={contribution.state}
                locale={locale}
              />
            )}
          </div>
        )}
        {!given && !item.group && (
          <fetcher.Form
            method="post"
            action={localizedHref(`/lista-nascita/${code}`, locale)}
            className="mt-auto flex items-end gap-3 pt-2"
            onSubmit={() => awaitCartAnswer(key)}
          >
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="itemId" value={item.id} />
            <FetcherMarker />
            {item.maxAddable > 0 && (
              <div>
                <label htmlFor={quantityId} className="field-label">
                  {t("giftLists.public.quantity")}
                </label>
                <input
                  id={quantityId}
                  name="quantity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={item.maxAddable}
                  defaultValue={1}
                  aria-describedby={statusId}
                  className="field-input w-20"
                />
              </div>
            )}
            <button
              type="submit"
              disabled={item.maxAddable === 0}
              aria-busy={fetcher.state !== "idle" || undefined}
              className={`${item.maxAddable > 0 ? "btn-primary" : "btn bg-slate-200 text-slate-800"} h-11 disabled:cursor-not-allowed`}
            >
              {item.stock === 0 ? t("giftLists.public.notAvailable") : t("giftLists.public.addToCart")}
              <span className="sr-only"> {item.name}</span>
            </button>
          </fetcher.Form>
        )}
      </div>
    </article>
  );
}
