/**
 * The guests' gift-list calls (docs/rules.md#http-api, no sign-in): a list by its code (`?codice`) or by name,
 * on the services the gift-list pages use. Code lookups are throttled per client address exactly like the
 * page; the owner's calls are in gift-list-api.ts.
 */
import { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { findGiftListByCode, getPublicGiftList, searchGiftListsByName } from "#server/gift-lists/gift-list-public.service.ts";
import { listGiftListFunds } from "#server/vouchers/gift-list-fund.service.ts";
import { apiRefusal } from "./api-http";
import { apiRoute } from "./api-route";
import { GiftListSummary, giftListMessage, ListCode, listNotFound, PublicGiftList, toPublicGiftList, toSummary } from "./gift-list-api-answers";

function codeLookupRefusal(error: "not-found" | "invalid-code" | "throttled", locale: Locale) {
  if (error === "throttled") return apiRefusal(429, "too-many-requests", giftListMessage(locale, "throttled"));
  if (error === "invalid-code") return apiRefusal(400, "invalid-code", giftListMessage(locale, "invalid-code"));
  return listNotFound(locale);
}

const searchGiftListById = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-id",
  auth: "public",
  summary:
    "A gift list by its exact code (any case, spaces or dashes ignored), public or code-only. Misses count against the client address: after 20 in 10 minutes every code lookup is 429.",
  errors: [404, 429],
  query: z.strictObject({ codice: ListCode }),
  response: GiftListSummary,
  handler: async ({ services, query, clientIp, now, locale }) => {
    const found = await findGiftListByCode(services.db, { code: query.codice, clientIp, now });
    return found.ok ? { ok: true, data: toSummary(found.list) } : codeLookupRefusal(found.error, locale);
  },
});

const searchGiftListByName = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-name",
  auth: "public",
  summary: "Public, open gift lists whose title or names contain every word (case and accents ignored), soonest event first, at most 20.",
  query: z.strictObject({ name: z.string().max(200) }),
  response: z.array(GiftListSummary),
  handler: async ({ services, query }) => ({ ok: true, data: (await searchGiftListsByName(services.db, { query: query.name })).map(toSummary) }),
});

const searchGiftListProducts = apiRoute({
  method: "GET",
  path: "/api/public/lista-regalo/search-products",
  auth: "public",
  summary:
    "A gift list as guests see it, by its code: its items with what is still needed and its cash funds with what they have collected (never the address). Throttled like search-id.",
  errors: [404, 429],
  query: z.strictObject({ codice: ListCode }),
  response: PublicGiftList,
  handler: async ({ services, request, query, clientIp, now, locale }) => {
    const { cartId } = readCartRequest(request, services);
    const found = await getPublicGiftList(services.db, { code: query.codice, clientIp, locale, now, cartId });
    if (!found.ok) return codeLookupRefusal(found.error, locale);
    const funds = (await listGiftListFunds(services.db, [found.list.id])).get(found.list.id) ?? [];
    return { ok: true, data: toPublicGiftList(found.list, funds, services.publicUrl, locale) };
  },
});

export const giftListPublicEndpoints = [searchGiftListById, searchGiftListByName, searchGiftListProducts];
