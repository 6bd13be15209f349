/**
 * The gift-list owner's calls (docs/rules.md#http-api) on the services the gift-list pages use: the old client's
 * payload names (`codiceLista`, `var1`..`var4`, `selectedSize`, `values`, `idIndirizzo`) are mapped here
 * and nowhere else (the guests' `?codice` in gift-list-public-api.ts). Lists are named by their code;
 * another customer's list, item or address is 404 and nothing changes.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { isOneSize } from "#common/sizes.ts";
import { getAddress } from "#server/accounts/address.service.ts";
import type { Db } from "#server/db/client.ts";
import { giftLists, productColours, productVariants } from "#server/db/schema.ts";
import { maxWishedQuantity, normaliseGiftListCode } from "#server/gift-lists/gift-list.ts";
import { giftListLimits } from "#server/gift-lists/gift-list.inputs.ts";
import { sendGiftListInvitations } from "#server/gift-lists/gift-list-invitations.service.ts";
import {
  addProductToGiftList,
  createGiftList,
  deleteGiftList,
  listMyGiftLists,
  removeGiftListItem,
  type MyGiftList,
  updateGiftList,
  updateGiftListItem,
} from "#server/gift-lists/gift-list.service.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { getOwnerFunds } from "#server/vouchers/gift-list-fund.service.ts";
import { apiFailure, apiRefusal, translateFieldErrors, type ApiFieldErrors } from "./api-http";
import { apiRoute, type ApiCall, type ApiOutcome } from "./api-route";
import { GiftList, giftListMessage, ListAddress, ListCode, listNotFound, listValues, toGiftList } from "./gift-list-api-answers";

/** A service's form refusal: field message keys translated, under the payload's own names. */
function formRefused(
  errors: Partial<Record<string, string>>,
  locale: Locale,
  names: Record<string, string> = {},
  values: Record<string, unknown> = {},
) {
  const fields: ApiFieldErrors = {};
  for (const [field, message] of Object.entries(translateFieldErrors(errors, locale, values))) fields[names[field] ?? field] = message;
  return apiFailure(400, "invalid-input", fields);
}

const valuesNames = Object.fromEntries([...Object.keys(listValues), "form"].map((name) => [name, `values.${name}`]));

/** The service's form takes the delivery as "collection" or an address id in text, as the page posts it. */
function serviceListInput(values: { shippingAddressId: number | null } & Record<string, unknown>) {
  return { ...values, shippingAddressId: values.shippingAddressId === null ? "collection" : String(values.shippingAddressId) };
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

/**
 * The owner's list with her funds: who gave what and the card it went onto, its code included, as her list page
 * shows them to her (the staff's page never shows the code).
 */
async function ownListAnswer(services: ShopServices, list: MyGiftList, locale: Locale) {
  const funds = await getOwnerFunds(services.db, { giftListId: list.id, secret: resolveAuthSecret(services.env) });
  return toGiftList(list, funds, services.publicUrl, locale);
}

/** The answer of the owner's calls: the list as it is now, with its items and funds. */
async function answerOwnList(call: ApiCall<unknown, unknown, "user">, giftListId: string): Promise<ApiOutcome<z.input<typeof GiftList>>> {
  const { services, user, locale, now } = call;
  const [list] = await listMyGiftLists(services.db, { userId: user.id, locale, now, listId: giftListId });
  return list ? { ok: true, data: await ownListAnswer(services, list, locale) } : apiFailure(404, "not-found");
}

const setListaRegalo = apiRoute({
  method: "POST",
  path: "/api/setListaRegalo",
  auth: "user",
  summary: "Creates a gift list (at most 20 per customer); its code is drawn by the shop. Answers the new list.",
  body: z.strictObject({ values: z.strictObject(listValues) }),
  response: GiftList,
  handler: async (call) => {
    const { services, user, body, locale, now } = call;
    const created = await createGiftList(services.db, { userId: user.id, input: serviceListInput(body.values), now });
    return created.ok ? answerOwnList(call, created.id) : formRefused(created.errors, locale, valuesNames);
  },
});

const updateListaRegalo = apiRoute({
  method: "POST",
  path: "/api/updateListaRegalo",
  auth: "user",
  summary: "Replaces the details of one of the caller's lists, named by `values.codiceLista`. Another customer's list is 404.",
  errors: [404],
  body: z.strictObject({ values: z.strictObject({ codiceLista: ListCode, ...listValues }) }),
  response: GiftList,
  handler: async (call) => {
    const { services, user, body, locale, now } = call;
    const { codiceLista, ...values } = body.values;
    const giftListId = await ownListIdByCode(services.db, user.id, codiceLista);
    if (!giftListId) return listNotFound(locale);
    const updated = await updateGiftList(services.db, { userId: user.id, giftListId, input: serviceListInput(values), now });
    if (!updated.ok) return "errors" in updated ? formRefused(updated.errors, locale, valuesNames) : listNotFound(locale);
    return answerOwnList(call, giftListId);
  },
});

const getListeUtente = apiRoute({
  method: "GET",
  path: "/api/getListeUtente",
  auth: "user",
  summary: "The caller's gift lists, newest first, with their items and what was bought, and their funds with who gave what.",
  response: z.array(GiftList),
  handler: async ({ services, user, locale, now }) => {
    const lists = await listMyGiftLists(services.db, { userId: user.id, locale, now });
    return { ok: true, data: await Promise.all(lists.map((list) => ownListAnswer(services, list, locale))) };
  },
});

const deleteListaRegalo = apiRoute({
  method: "POST",
  path: "/api/deleteListaRegalo",
  auth: "user",
  summary: "Deletes one of the caller's lists. Refused (409 has-purchases) once anything was bought from it: it can be closed instead.",
  errors: [404, 409],
  body: z.strictObject({ codiceLista: ListCode }),
  response: z.object({ deleted: z.string() }),
  handler: async ({ services, user, body, locale }) => {
    const giftListId = await ownListIdByCode(services.db, user.id, body.codiceLista);
    if (!giftListId) return listNotFound(locale);
    const result = await deleteGiftList(services.db, { userId: user.id, giftListId });
    if (result.ok) return { ok: true, data: { deleted: normaliseGiftListCode(body.codiceLista)! } };
    return result.error === "has-purchases" ? apiRefusal(409, "has-purchases", giftListMessage(locale, "has-purchases")) : listNotFound(locale);
  },
});

const getProdLista = apiRoute({
  method: "POST",
  path: "/api/getProdLista",
  auth: "user",
  summary:
    "One of the caller's lists with its items and its funds (the paid contributions, and the one gift card they went onto with its code: the owner's alone), by its code in `var1`.",
  errors: [404],
  body: z.strictObject({ var1: ListCode }),
  response: GiftList,
  handler: async (call) => {
    const giftListId = await ownListIdByCode(call.services.db, call.user.id, call.body.var1);
    return giftListId ? answerOwnList(call, giftListId) : listNotFound(call.locale);
  },
});

/**
 * The variant of a product in a colour (key, or null/"" for colour-less products) and size (null/"" for
 * one size). No size for a colour sold in several sizes is "size-required": the caller forgot to choose.
 */
async function findVariant(
  db: Db,
  productId: number,
  colour: string | null,
  size: string | null,
): Promise<{ ok: true; variantId: number } | { ok: false; error: "size-required" | "variant-not-found" }> {
  const rows = await db
    .select({ id: productVariants.id, size: productVariants.size, colour: productColours.colour })
    .from(productVariants)
    .leftJoin(productColours, eq(productColours.id, productVariants.colourId))
    .where(
      and(
        eq(productVariants.productId, productId),
        colour ? eq(sql`lower(${productColours.colour})`, colour.toLowerCase()) : isNull(productVariants.colourId),
      ),
    );
  const match = size
    ? rows.find((row) => row.size.toLowerCase() === size.toLowerCase())
    : rows.length === 1
      ? rows[0]
      : rows.find((row) => isOneSize(row.size));
  if (match) return { ok: true, variantId: match.id };
  return { ok: false, error: !size && rows.length > 1 ? "size-required" : "variant-not-found" };
}

const itemRefusalStatus: Record<string, [number, "gift-list-closed" | "not-for-sale" | "not-found" | "invalid-input"]> = {
  closed: [409, "gift-list-closed"],
  "not-for-sale": [409, "not-for-sale"],
  "variant-not-found": [404, "not-found"],
  "not-found": [404, "not-found"],
};

const prodInListaRegalo = apiRoute({
  method: "POST",
  path: "/api/ProdinListaRegalo",
  auth: "user",
  summary:
    "Adds a product to one of the caller's open lists: var1 list code, var2 product id, var3 colour key (null for colour-less products), var4 quantity (1-99), selectedSize (null for one size; 400 size-required in `fields.selectedSize` when the colour comes in several sizes). The same variant again raises its wished quantity. Answers the list.",
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
  handler: async (call) => {
    const { services, user, body, locale } = call;
    const giftListId = await ownListIdByCode(services.db, user.id, body.var1);
    if (!giftListId) return listNotFound(locale);
    const variant = await findVariant(services.db, body.var2, body.var3 || null, body.selectedSize || null);
    if (!variant.ok && variant.error === "size-required") {
      const message = giftListMessage(locale, variant.error);
      return apiRefusal(400, "invalid-input", message, { selectedSize: message });
    }
    if (!variant.ok) return apiRefusal(404, "not-found", giftListMessage(locale, variant.error));
    const input = { giftListId, variantId: variant.variantId, quantity: body.var4, personalisation: body.personalisation ?? {} };
    const added = await addProductToGiftList(services.db, { userId: user.id, input });
    if (added.ok) return answerOwnList(call, giftListId);
    if ("errors" in added) return formRefused(added.errors, locale, { quantity: "var4", form: "var1" });
    const known = itemRefusalStatus[added.error];
    if (known) return apiRefusal(known[0], known[1], giftListMessage(locale, added.error));
    return apiRefusal(400, "invalid-input", giftListMessage(locale, added.error), { personalisation: giftListMessage(locale, added.error) });
  },
});

const updateProdLista = apiRoute({
  method: "POST",
  path: "/api/updateProdLista",
  auth: "user",
  summary:
    "Changes the wished quantity of an item (`itemId`, from getProdLista) of one of the caller's lists (`codiceLista`); 0 removes it. Never below what was bought (409 below-bought / has-purchases). Answers the list.",
  errors: [404, 409],
  body: z.strictObject({ codiceLista: ListCode, itemId: z.uuid(), quantity: z.number().int().min(0).max(maxWishedQuantity) }),
  response: GiftList,
  handler: async (call) => {
    const { services, user, body, locale } = call;
    const listCode = normaliseGiftListCode(body.codiceLista);
    if (!listCode) return listNotFound(locale);
    // One lookup: the services find the item among the caller's, in the list of that code.
    const result =
      body.quantity === 0
        ? await removeGiftListItem(services.db, { userId: user.id, itemId: body.itemId, listCode })
        : await updateGiftListItem(services.db, { userId: user.id, input: { itemId: body.itemId, quantity: body.quantity }, listCode });
    if (result.ok) return answerOwnList(call, result.giftListId);
    if ("errors" in result) return formRefused(result.errors, locale);
    if (result.error === "not-found") return listNotFound(locale);
    return apiRefusal(409, result.error === "has-purchases" ? "has-purchases" : "below-bought", giftListMessage(locale, result.error));
  },
});

const sendListaRegaloEmails = apiRoute({
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
    if (!giftListId) return listNotFound(locale);
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
    return listNotFound(locale);
  },
});

const searchListaRegaloAddress = apiRoute({
  method: "GET",
  path: "/api/lista-regalo/search-address",
  auth: "user",
  summary:
    "A delivery address of the caller's gift lists by its id (`idIndirizzo`), with the codes of the lists shipped there. Another customer's address is 404.",
  errors: [404],
  query: z.strictObject({ idIndirizzo: z.string().regex(/^[1-9][0-9]{0,9}$/) }),
  response: ListAddress,
  handler: async ({ services, user, query }) => {
    const address = await getAddress(services.db, user.id, query.idIndirizzo);
    if (!address) return apiFailure(404, "not-found");
    const lists = await services.db
      .select({ code: giftLists.code })
      .from(giftLists)
      .where(and(eq(giftLists.shippingAddressId, address.id), eq(giftLists.ownerUserId, user.id)))
      .orderBy(giftLists.code);
    const { id, firstName, lastName, street, houseNumber, postcode, city, province, phone } = address;
    return {
      ok: true,
      data: { id, firstName, lastName, street, houseNumber, postcode, city, province, phone, giftLists: lists.map((list) => list.code) },
    };
  },
});

export const giftListEndpoints = [
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
