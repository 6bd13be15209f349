/**
 * What the gift-list calls (gift-list-public-api.ts, gift-list-api.ts) answer: zod schemas (the OpenAPI
 * document's components), the one mapping from the gift-list services' views to them, and the refusals
 * with the gift-list pages' own messages.
 */
import { z } from "zod";
import { getProductImageUrl } from "#common/media.ts";
import { localizedHref, type Locale } from "#common/locale.ts";
import { giftListTypes, giftListVisibilities } from "#server/gift-lists/gift-list.ts";
import { giftListLimits } from "#server/gift-lists/gift-list.inputs.ts";
import type { GiftListSummary as GiftListSummaryView, PublicGiftList as PublicGiftListView } from "#server/gift-lists/gift-list-public.service.ts";
import type { GiftListItemView, MyGiftList } from "#server/gift-lists/gift-list.service.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { centsToDecimal } from "#server/money.ts";
import type { OwnerFund as OwnerFundView, PublicFund as PublicFundView } from "#server/vouchers/gift-list-fund.service.ts";
import { apiRefusal } from "./api-http";

export const giftListMessage = (locale: Locale, code: string) => getTranslator(locale)(`giftLists.errors.${code}`);

/** An unknown, malformed or someone else's list (or item), with the gift-list page's message. */
export const listNotFound = (locale: Locale) => apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));

const GiftListType = z.enum(giftListTypes);

export const GiftListSummary = z
  .object({
    /** 8 characters (no 0/O, 1/I/L): the key guests type. */
    code: z.string(),
    title: z.string(),
    type: GiftListType,
    /** YYYY-MM-DD. */
    eventDate: z.string(),
    celebratedNames: z.string(),
  })
  .meta({ id: "GiftListSummary" });

const GiftListItem = z
  .object({
    /** The item's id (updateProdLista). */
    id: z.string(),
    productId: z.number().int(),
    variantId: z.number().int(),
    name: z.string(),
    /** Colour key, null for products without colours. */
    color: z.string().nullable(),
    /** Null for one-size products. */
    size: z.string().nullable(),
    /** Absolute URL of the 800 px WebP, or null. */
    image: z.string().nullable(),
    /** Today's unit price in euros (discount and personalisation included). */
    price: z.number(),
    quantityWished: z.number().int(),
    quantityBought: z.number().int(),
    stillNeeded: z.number().int(),
    personalisation: z.array(z.object({ label: z.string(), text: z.string() })),
    /** Published and not on request: guests can buy it. */
    isForSale: z.boolean(),
    /** A pre-order that would arrive after the event date. */
    arrivesAfterEvent: z.boolean(),
  })
  .meta({ id: "GiftListItem" });

/** A cash fund of the list: guests give to it (createcheckoutsession's `fundContributions`), never paid out in cash. */
const GiftListFund = z
  .object({
    /** The `fundId` of a contribution. */
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    /** The target in euro cents and euros, or null: a fund without a target. */
    targetCents: z.number().int().nullable(),
    target: z.number().nullable(),
    /** What the paid contributions have given so far. */
    collectedCents: z.number().int(),
    collected: z.number(),
    /** 0-100 of the target; null without one. */
    progressPercent: z.number().int().nullable(),
  })
  .meta({ id: "GiftListFund" });

const OwnerGiftListFund = GiftListFund.extend({
  /** The paid contributions, newest first. */
  contributions: z.array(
    z.object({
      giverName: z.string(),
      message: z.string(),
      amountCents: z.number().int(),
      /** ISO 8601: when it was paid. */
      at: z.string(),
    }),
  ),
  /**
   * The one gift card the paid contributions went onto (null before the first): its full code, as the owner's list
   * page shows it to her alone, its balance and its end.
   */
  card: z
    .object({
      /** Null when the code cannot be made again (shown once, like a card sold at the counter). */
      code: z.string().nullable(),
      balanceCents: z.number().int(),
      /** ISO 8601. */
      expiresAt: z.string(),
    })
    .nullable(),
}).meta({ id: "OwnerGiftListFund" });

export const GiftList = z
  .object({
    ...GiftListSummary.shape,
    messageToGuests: z.string(),
    /** One of the owner's addresses (see getAllinformation), or null: gifts are collected in the shop. */
    shippingAddressId: z.number().int().nullable(),
    /** public: found by name; code_only: found by its code only. */
    visibility: z.enum(giftListVisibilities),
    status: z.enum(["open", "closed"]),
    /** The list's page for guests. */
    url: z.string(),
    purchaseCount: z.number().int(),
    invitationCount: z.number().int(),
    /** False once anything was bought: then it can only be closed. */
    canDelete: z.boolean(),
    items: z.array(GiftListItem),
    funds: z.array(OwnerGiftListFund),
  })
  .meta({ id: "GiftList" });

export const PublicGiftList = z
  .object({
    ...GiftListSummary.shape,
    messageToGuests: z.string(),
    /** A closed list is shown but takes no gifts. */
    isOpen: z.boolean(),
    /** Gifts are collected in the shop (the address itself is never shown). */
    isCollection: z.boolean(),
    url: z.string(),
    items: z.array(
      GiftListItem.extend({
        /** What a guest may still put in the cart for it. */ maxAddable: z.number().int(),
      }),
    ),
    funds: z.array(GiftListFund),
  })
  .meta({ id: "PublicGiftList" });

export const ListCode = z.string().max(40);

/** A list's details as a client sends them (setListaRegalo, updateListaRegalo). */
export const listValues = {
  title: z.string().max(giftListLimits.title * 2),
  type: GiftListType,
  /** YYYY-MM-DD, today or later for a new list. */
  eventDate: z.string().max(10),
  celebratedNames: z.string().max(giftListLimits.celebratedNames * 2),
  messageToGuests: z
    .string()
    .max(giftListLimits.messageToGuests * 2)
    .optional(),
  /** One of the caller's addresses, or null: gifts collected in the shop. */
  shippingAddressId: z.number().int().positive().max(2_147_483_647).nullable(),
  visibility: z.enum(giftListVisibilities),
};

export const ListAddress = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  street: z.string(),
  houseNumber: z.string(),
  postcode: z.string(),
  city: z.string(),
  province: z.string(),
  phone: z.string().nullable(),
  /** The codes of the caller's lists shipped to this address. */
  giftLists: z.array(z.string()),
});

function toItem(item: GiftListItemView, publicUrl: string): z.input<typeof GiftListItem> {
  return {
    id: item.id,
    productId: item.productId,
    variantId: item.variantId,
    name: item.name,
    color: item.colour,
    size: item.size,
    image: item.image ? `${publicUrl}${getProductImageUrl(item.image.storageKey, 800)}` : null,
    price: centsToDecimal(item.unitCents + item.personalisationUnitCents),
    quantityWished: item.quantityWished,
    quantityBought: item.quantityBought,
    stillNeeded: item.stillNeeded,
    personalisation: item.personalisation,
    isForSale: item.isForSale,
    arrivesAfterEvent: item.arrivesAfterEvent,
  };
}

const pageUrl = (publicUrl: string, code: string, locale: Locale) => `${publicUrl}${localizedHref(`/lista-nascita/${code}`, locale)}`;

export function toSummary(list: GiftListSummaryView): z.input<typeof GiftListSummary> {
  const { code, title, type, eventDate, celebratedNames } = list;
  return { code, title, type, eventDate, celebratedNames };
}

function toFund(fund: PublicFundView): z.input<typeof GiftListFund> {
  return {
    id: fund.id,
    title: fund.title,
    description: fund.description,
    targetCents: fund.targetCents,
    target: fund.targetCents === null ? null : centsToDecimal(fund.targetCents),
    collectedCents: fund.collectedCents,
    collected: centsToDecimal(fund.collectedCents),
    progressPercent: fund.progressPercent,
  };
}

function toOwnerFund(fund: OwnerFundView): z.input<typeof OwnerGiftListFund> {
  return {
    ...toFund(fund),
    contributions: fund.contributions.map((entry) => ({ ...entry, at: entry.at.toISOString() })),
    card: fund.card && { code: fund.card.code, balanceCents: fund.card.balanceCents, expiresAt: fund.card.expiresAt.toISOString() },
  };
}

export function toGiftList(list: MyGiftList, funds: readonly OwnerFundView[], publicUrl: string, locale: Locale): z.input<typeof GiftList> {
  return {
    ...toSummary(list),
    messageToGuests: list.messageToGuests,
    shippingAddressId: list.shippingAddressId,
    visibility: list.visibility,
    status: list.status,
    url: pageUrl(publicUrl, list.code, locale),
    purchaseCount: list.purchaseCount,
    invitationCount: list.invitationCount,
    canDelete: list.canDelete,
    items: list.items.map((item) => toItem(item, publicUrl)),
    funds: funds.map(toOwnerFund),
  };
}

export function toPublicGiftList(
  list: PublicGiftListView,
  funds: readonly PublicFundView[],
  publicUrl: string,
  locale: Locale,
): z.input<typeof PublicGiftList> {
  const { id: _id, items, messageToGuests, isOpen, isCollection, ...summary } = list;
  return {
    ...toSummary(summary),
    messageToGuests,
    isOpen,
    isCollection,
    url: pageUrl(publicUrl, summary.code, locale),
    items: items.map((item) => ({ ...toItem(item, publicUrl), maxAddable: item.maxAddable })),
    funds: funds.map(toFund),
  };
}
