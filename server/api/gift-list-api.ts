/**
 * The gift-list calls of SPEC.md section 7 on the services the gift-list pages use: the old client's
 * payload names (`codiceLista`, `var1`..`var4`, `selectedSize`, `values`, `idIndirizzo`) are mapped here
 * and nowhere else. Lists are named by their code; another customer's list, item or address is 404 and
 * nothing changes. Code lookups are throttled per client address exactly like the page.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { getProductImageUrl } from "#app/lib/media.ts";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import type { Db } from "#server/db/client.ts";
import { addresses, giftListItems, giftLists, productColours, productVariants } from "#server/db/schema.ts";
import { giftListTypes, giftListVisibilities, maxWishedQuantity, normaliseGiftListCode } from "#server/gift-lists/gift-list.ts";
import { giftListLimits } from "#server/gift-lists/gift-list.inputs.ts";
import { sendGiftListInvitations } from "#server/gift-lists/gift-list-invitations.service.ts";
import { findGiftListByCode, getPublicGiftList, searchGiftListsByName, type GiftListSummary } from "#server/gift-lists/gift-list-public.service.ts";
import {
  addProductToGiftList,
  createGiftList,
  deleteGiftList,
  listMyGiftLists,
  removeGiftListItem,
  updateGiftList,
  updateGiftListItem,
  type GiftListItemView,
  type MyGiftList,
} from "#server/gift-lists/gift-list.service.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { centsToDecimal } from "#server/money.ts";
import { apiFailure, apiRefusal, translateFieldErrors, type ApiFieldErrors } from "./api-http";
import { apiRoute, type ApiOutcome } from "./api-route";

// ---------------------------------------------------------------- shapes

const GiftListType = z.enum(giftListTypes);

const GiftListSummarySchema = z
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

const GiftList = z
  .object({
    ...GiftListSummarySchema.shape,
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
  })
  .meta({ id: "GiftList" });

const PublicGiftList = z
  .object({
    ...GiftListSummarySchema.shape,
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
  })
  .meta({ id: "PublicGiftList" });

const ListCode = z.string().max(40);

const listValues = {
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

// ---------------------------------------------------------------- mapping

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

function toSummary(list: GiftListSummary): z.input<typeof GiftListSummarySchema> {
  const { code, title, type, eventDate, celebratedNames } = list;
  return { code, title, type, eventDate, celebratedNames };
}

function toGiftList(list: MyGiftList, publicUrl: string, locale: Locale): z.input<typeof GiftList> {
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
  };
}

/** The caller's list by its code (any case), or null: unknown, malformed or someone else's. */
async function ownListIdByCode(db: Db, userId: string, rawCode: string): Promise<string | null> {
  const code = normaliseGiftListCode(rawCode);
  if (!code) return null;
  const [row] = await db
    .select({ id: giftLists.id })
    .from(giftLists)
    .where(and(eq(giftLists.code, code), eq(giftLists.ownerUserId, userId)));
  return row?.id ?? null;
}

async function ownGiftList(
  db: Db,
  args: {
    userId: string;
    giftListId: string;
    locale: Locale;
    now: Date;
    publicUrl: string;
  },
): Promise<ApiOutcome<z.input<typeof GiftList>>> {
  const lists = await listMyGiftLists(db, args);
  const list = lists.find((candidate) => candidate.id === args.giftListId);
  return list ? { ok: true, data: toGiftList(list, args.publicUrl, args.locale) } : apiFailure(404, "not-found");
}

const giftListMessage = (locale: Locale, code: string) => getTranslator(locale)(`giftLists.errors.${code}`);

/** A service's form refusal: field message keys translated, under the payload's own names. */
function formRefused(errors: Partial<Record<string, string>>, locale: Locale, names: Record<string, string> = {}, values: Record<string, unknown> = {}) {
  const fields: ApiFieldErrors = {};
  for (const [field, message] of Object.entries(translateFieldErrors(errors, locale, values))) fields[names[field] ?? field] = message;
  return apiFailure(400, "invalid-input", fields);
}

const valuesNames = Object.fromEntries([...Object.keys(listValues), "form"].map((name) => [name, `values.${name}`]));

/** The service's form takes the delivery as "collection" or an address id in text, as the page posts it. */
function serviceListInput(values: { shippingAddressId: number | null } & Record<string, unknown>) {
  return {
    ...values,
    shippingAddressId: values.shippingAddressId === null ? "collection" : String(values.shippingAddressId),
  };
}

// ---------------------------------------------------------------- public

export const searchGiftListById = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-id",
  auth: "public",
  summary:
    "A gift list by its exact code (any case, spaces or dashes ignored), public or code-only. Misses count against the client address: after 20 in 10 minutes every code lookup is 429.",
  errors: [404, 429],
  query: z.strictObject({ codice: ListCode }),
  response: GiftListSummarySchema,
  handler: async ({ services, query, clientIp, now, locale }) => {
    const found = await findGiftListByCode(services.db, {
      code: query.codice,
      clientIp,
      now,
    });
    if (found.ok) return { ok: true, data: toSummary(found.list) };
    return codeLookupRefusal(found.error, locale);
  },
});

function codeLookupRefusal(error: "not-found" | "invalid-code" | "throttled", locale: Locale) {
  if (error === "throttled") return apiRefusal(429, "too-many-requests", giftListMessage(locale, "throttled"));
  if (error === "invalid-code") return apiRefusal(400, "invalid-code", giftListMessage(locale, "invalid-code"));
  return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
}

export const searchGiftListByName = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-name",
  auth: "public",
  summary: "Public, open gift lists whose title or names contain every word (case and accents ignored), soonest event first, at most 20.",
  query: z.strictObject({ name: z.string().max(200) }),
  response: z.array(GiftListSummarySchema),
  handler: async ({ services, query }) => ({
    ok: true,
    data: (await searchGiftListsByName(services.db, { query: query.name })).map(toSummary),
  }),
});

export const searchGiftListProducts = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-products",
  auth: "public",
  summary: "A gift list as guests see it, by its code: its items with what is still needed (never the address). Throttled like search-id.",
  errors: [404, 429],
  query: z.strictObject({ codice: ListCode }),
  response: PublicGiftList,
  handler: async ({ services, request, query, clientIp, now, locale }) => {
    const { cartId } = readCartRequest(request, services);
    const found = await getPublicGiftList(services.db, {
      code: query.codice,
      clientIp,
      locale,
      now,
      cartId,
    });
    if (!found.ok) return codeLookupRefusal(found.error, locale);
    const { id: _id, items, messageToGuests, isOpen, isCollection, ...summary } = found.list;
    return {
      ok: true,
      data: {
        ...toSummary(summary),
        messageToGuests,
        isOpen,
        isCollection,
        url: pageUrl(services.publicUrl, summary.code, locale),
        items: items.map((item) => ({
          ...toItem(item, services.publicUrl),
          maxAddable: item.maxAddable,
        })),
      },
    };
  },
});

// ---------------------------------------------------------------- the owner's lists

export const setListaRegalo = apiRoute({
  method: "POST",
  path: "/api/setListaRegalo",
  auth: "user",
  summary: "Creates a gift list (at most 20 per customer); its code is drawn by the shop. Answers the new list.",
  body: z.strictObject({ values: z.strictObject(listValues) }),
  response: GiftList,
  handler: async ({ services, user, body, locale, now }) => {
    const created = await createGiftList(services.db, {
      userId: user.id,
      input: serviceListInput(body.values),
      now,
    });
    if (!created.ok) return formRefused(created.errors, locale, valuesNames);
    return ownGiftList(services.db, {
      userId: user.id,
      giftListId: created.id,
      locale,
      now,
      publicUrl: services.publicUrl,
    });
  },
});

export const updateListaRegalo = apiRoute({
  method: "POST",
  path: "/api/updateListaRegalo",
  auth: "user",
  summary: "Replaces the details of one of the caller's lists, named by `values.codiceLista`. Another customer's list is 404.",
  errors: [404],
  body: z.strictObject({
    values: z.strictObject({ codiceLista: ListCode, ...listValues }),
  }),
  response: GiftList,
  handler: async ({ services, user, body, locale, now }) => {
    const { codiceLista, ...values } = body.values;
    const giftListId = await ownListIdByCode(services.db, user.id, codiceLista);
    if (!giftListId) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    const updated = await updateGiftList(services.db, {
      userId: user.id,
      giftListId,
      input: serviceListInput(values),
      now,
    });
    if (!updated.ok)
      return "errors" in updated ? formRefused(updated.errors, locale, valuesNames) : apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    return ownGiftList(services.db, {
      userId: user.id,
      giftListId,
      locale,
      now,
      publicUrl: services.publicUrl,
    });
  },
});

export const getListeUtente = apiRoute({
  method: "GET",
  path: "/api/getListeUtente",
  auth: "user",
  summary: "The caller's gift lists, newest first, with their items and what was bought.",
  response: z.array(GiftList),
  handler: async ({ services, user, locale, now }) => ({
    ok: true,
    data: (await listMyGiftLists(services.db, { userId: user.id, locale, now })).map((list) => toGiftList(list, services.publicUrl, locale)),
  }),
});

export const deleteListaRegalo = apiRoute({
  method: "POST",
  path: "/api/deleteListaRegalo",
  auth: "user",
  summary: "Deletes one of the caller's lists. Refused (409 has-purchases) once anything was bought from it: it can be closed instead.",
  errors: [404, 409],
  body: z.strictObject({ codiceLista: ListCode }),
  response: z.object({ deleted: z.string() }),
  handler: async ({ services, user, body, locale }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.codiceLista);
    if (!giftListId) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    const result = await deleteGiftList(services.db, {
      userId: user.id,
      giftListId,
    });
    if (result.ok)
      return {
        ok: true,
        data: { deleted: normaliseGiftListCode(body.codiceLista)! },
      };
    return result.error === "has-purchases"
      ? apiRefusal(409, "has-purchases", giftListMessage(locale, "has-purchases"))
      : apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
  },
});

export const getProdLista = apiRoute({
  method: "POST",
  path: "/api/getProdLista",
  auth: "user",
  summary: "One of the caller's lists with its items, by its code in `var1`.",
  errors: [404],
  body: z.strictObject({ var1: ListCode }),
  response: GiftList,
  handler: async ({ services, user, body, locale, now }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.var1);
    if (!giftListId) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    return ownGiftList(services.db, {
      userId: user.id,
      giftListId,
      locale,
      now,
      publicUrl: services.publicUrl,
    });
  },
});

/** The variant of a product in a colour (key, or null/"" for colour-less products) and size (null/"" for one size). */
async function findVariant(db: Db, productId: number, colour: string | null, size: string | null): Promise<number | null> {
  const rows = await db
    .select({
      id: productVariants.id,
      size: productVariants.size,
      colour: productColours.colour,
    })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(
      and(eq(productVariants.productId, productId), colour ? eq(sql`lower(${productColours.colour})`, colour.toLowerCase()) : isNull(productVariants.colourId)),
    );
  const oneSize = (value: string) => value === "TAGLIA_UNICA" || value === "tagliau";
  const match = size ? rows.find((row) => row.size.toLowerCase() === size.toLowerCase()) : rows.length === 1 ? rows[0] : rows.find((row) => oneSize(row.size));
  return match?.id ?? null;
}

const itemRefusalStatus: Record<string, [number, "gift-list-closed" | "not-for-sale" | "not-found" | "invalid-input"]> = {
  closed: [409, "gift-list-closed"],
  "not-for-sale": [409, "not-for-sale"],
  "variant-not-found": [404, "not-found"],
  "not-found": [404, "not-found"],
};

export const prodInListaRegalo = apiRoute({
  method: "POST",
  path: "/api/ProdinListaRegalo",
  auth: "user",
  summary:
    "Adds a product to one of the caller's open lists: var1 list code, var2 product id, var3 colour key (null for colour-less products), var4 quantity (1-99), selectedSize (null for one size). The same variant again raises its wished quantity. Answers the list.",
  errors: [404, 409],
  body: z.strictObject({
    var1: ListCode,
    var2: z.number().int().positive().max(2_147_483_647),
    var3: z.string().max(60).nullable(),
    var4: z.number().int().min(1).max(maxWishedQuantity),
    selectedSize: z.string().max(60).nullable().optional(),
    /** Texts of a personalisable product, by field index ("0", "1", ...). */
    personalisation: z.record(z.string().max(3), z.string().max(500)).optional(),
  }),
  response: GiftList,
  handler: async ({ services, user, body, locale, now }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.var1);
    if (!giftListId) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    const variantId = await findVariant(services.db, body.var2, body.var3 || null, body.selectedSize || null);
    if (!variantId) return apiRefusal(404, "not-found", giftListMessage(locale, "variant-not-found"));
    const added = await addProductToGiftList(services.db, {
      userId: user.id,
      input: {
        giftListId,
        variantId,
        quantity: body.var4,
        personalisation: body.personalisation ?? {},
      },
    });
    if (!added.ok) {
      if ("errors" in added)
        return formRefused(added.errors, locale, {
          quantity: "var4",
          form: "var1",
        });
      const known = itemRefusalStatus[added.error];
      if (known) return apiRefusal(known[0], known[1], giftListMessage(locale, added.error));
      return apiRefusal(400, "invalid-input", giftListMessage(locale, added.error), { personalisation: giftListMessage(locale, added.error) });
    }
    return ownGiftList(services.db, {
      userId: user.id,
      giftListId,
      locale,
      now,
      publicUrl: services.publicUrl,
    });
  },
});

export const updateProdLista = apiRoute({
  method: "POST",
  path: "/api/updateProdLista",
  auth: "user",
  summary:
    "Changes the wished quantity of an item (`itemId`, from getProdLista) of one of the caller's lists (`codiceLista`); 0 removes it. Never below what was bought (409 below-bought / has-purchases). Answers the list.",
  errors: [404, 409],
  body: z.strictObject({
    codiceLista: ListCode,
    itemId: z.uuid(),
    quantity: z.number().int().min(0).max(maxWishedQuantity),
  }),
  response: GiftList,
  handler: async ({ services, user, body, locale, now }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.codiceLista);
    const [item] = giftListId
      ? await services.db
          .select({ id: giftListItems.id })
          .from(giftListItems)
          .where(and(eq(giftListItems.id, body.itemId), eq(giftListItems.giftListId, giftListId)))
      : [];
    if (!giftListId || !item) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    const result =
      body.quantity === 0
        ? await removeGiftListItem(services.db, {
            userId: user.id,
            itemId: item.id,
          })
        : await updateGiftListItem(services.db, {
            userId: user.id,
            input: { itemId: item.id, quantity: body.quantity },
          });
    if (!result.ok) {
      if ("errors" in result) return formRefused(result.errors, locale);
      if (result.error === "not-found") return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
      return apiRefusal(409, result.error === "has-purchases" ? "has-purchases" : "below-bought", giftListMessage(locale, result.error));
    }
    return ownGiftList(services.db, {
      userId: user.id,
      giftListId,
      locale,
      now,
      publicUrl: services.publicUrl,
    });
  },
});

export const sendListaRegaloEmails = apiRoute({
  method: "POST",
  path: "/api/lista-regalo/send-emails",
  auth: "user",
  summary:
    "Invites up to 50 addresses to one of the caller's open lists (`values.codiceLista`): each mail, with the list's link and code, is queued and retried. `values.emails` is a list or one text (commas, spaces, new lines). Answers how many were queued.",
  errors: [404],
  body: z.strictObject({
    values: z.strictObject({
      codiceLista: ListCode,
      emails: z.union([z.string().max(giftListLimits.emails), z.array(z.string().max(254)).max(50)]),
    }),
  }),
  response: z.object({ sent: z.number().int() }),
  handler: async ({ services, user, body, locale }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.values.codiceLista);
    if (!giftListId) return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
    const emails = Array.isArray(body.values.emails) ? body.values.emails.join(", ") : body.values.emails;
    const result = await sendGiftListInvitations(services.db, {
      userId: user.id,
      giftListId,
      input: { emails },
      locale,
      publicUrl: services.publicUrl,
      inviterName: user.name,
    });
    if (result.ok) return { ok: true, data: { sent: result.sent } };
    if ("errors" in result) return formRefused(result.errors, locale, { emails: "values.emails" }, { bad: (result.bad ?? []).join(", ") });
    return apiRefusal(404, "not-found", giftListMessage(locale, "not-found"));
  },
});

const ListAddress = z.object({
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

export const searchListaRegaloAddress = apiRoute({
  method: "GET",
  path: "/api/lista-regalo/search-address",
  auth: "user",
  summary:
    "A delivery address of the caller's gift lists by its id (`idIndirizzo`), with the codes of the lists shipped there. Another customer's address is 404.",
  errors: [404],
  query: z.strictObject({ idIndirizzo: z.string().regex(/^[1-9][0-9]{0,9}$/) }),
  response: ListAddress,
  handler: async ({ services, user, query }) => {
    const id = Number(query.idIndirizzo);
    if (id > 2_147_483_647) return apiFailure(404, "not-found");
    const [address] = await services.db
      .select()
      .from(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, user.id)));
    if (!address) return apiFailure(404, "not-found");
    const lists = await services.db
      .select({ code: giftLists.code })
      .from(giftLists)
      .where(and(eq(giftLists.shippingAddressId, id), eq(giftLists.ownerUserId, user.id)))
      .orderBy(giftLists.code);
    const { firstName, lastName, street, houseNumber, postcode, city, province, phone } = address;
    return {
      ok: true,
      data: {
        id,
        firstName,
        lastName,
        street,
        houseNumber,
        postcode,
        city,
        province,
        phone,
        giftLists: lists.map((list) => list.code),
      },
    };
  },
});

export const giftListEndpoints = [
  searchGiftListById,
  searchGiftListByName,
  searchGiftListProducts,
  setListaRegalo,
  updateListaRegalo,
  getListeUtente,
  deleteListaRegalo,
  getProdLista,
  prodInListaRegalo,
  updateProdLista,
  sendListaRegaloEmails,
  searchListaRegaloAddress,
];
