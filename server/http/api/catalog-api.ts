/** The public catalogue calls (docs/rules.md#http-api): products in the client form, and their photos. */
import { z } from "zod";
import { getProductImageUrl } from "#common/media.ts";
import { createCatalogueCache } from "#server/catalog/catalogue-cache.ts";
import { getListingProductIds } from "#server/catalog/listing.service.ts";
import type { ListingScope } from "#server/catalog/listing.ts";
import { slugPattern } from "#server/catalog/listing.inputs.ts";
import { getProductPages } from "#server/catalog/product.service.ts";
import { apiFailure } from "./api-http";
import { apiRoute, type ApiCall, type ApiOutcome } from "./api-route";
import { ClientProduct, getClientProducts } from "./product-client-form";

const ClientProducts = z.array(ClientProduct);

/**
 * Whole lists in the client form, per language and scope (null: unknown slug). Rebuilding the full list
 * takes tens of milliseconds; a kept one is served until the catalogue changes, and for at most
 * 10 seconds, which bounds how old its stock figures can be (server/catalog/catalogue-cache.ts).
 */
const clientProductLists = createCatalogueCache<ClientProduct[] | null>({ maxAgeMs: 10_000, maxEntries: 200 });

async function productsOf(call: ApiCall<unknown, unknown, "public">, scope: ListingScope): Promise<ApiOutcome<ClientProduct[]>> {
  const { services, locale, now } = call;
  const { db, publicUrl } = services;
  const key = `${locale} ${scope.kind} ${"slug" in scope ? scope.slug : ""}`;
  const products = await clientProductLists.get(db, key, async () => {
    const ids = await getListingProductIds(db, { scope, now });
    return ids && (await getClientProducts(db, { ids, locale, now, publicUrl }));
  });
  if (!products) return apiFailure(404, "not-found");
  return { ok: true, data: products };
}

const slug = () => z.string().max(80).regex(slugPattern);

const getListaProdotti = apiRoute({
  method: "GET",
  path: "/api/getListaProdotti",
  auth: "public",
  summary: "Every published product, newest first, in the client form (names and texts in the Accept-Language language).",
  response: ClientProducts,
  handler: (call) => productsOf(call, { kind: "shop", layout: "grid" }),
});

const getCategoria = apiRoute({
  method: "POST",
  path: "/api/getCategoria",
  auth: "public",
  summary: "The published products of one category (its slug, as in /categoria/{categoria}), newest first.",
  errors: [404],
  body: z.strictObject({ categoria: slug() }),
  response: ClientProducts,
  handler: (call) => productsOf(call, { kind: "category", slug: call.body.categoria }),
});

const getSottocategoria = apiRoute({
  method: "POST",
  path: "/api/getSottocategoria",
  auth: "public",
  summary: "The published products of one subcategory (its slug, as in /sottocategoria/{sottocategoria}), newest first.",
  errors: [404],
  body: z.strictObject({ sottocategoria: slug() }),
  response: ClientProducts,
  handler: (call) => productsOf(call, { kind: "subcategory", slug: call.body.sottocategoria }),
});

const Photo = z.object({
  productId: z.number().int(),
  /** Colour key the picture shows; null for pictures of the product as a whole. */
  color: z.string().nullable(),
  /** Absolute URL of the 800 px WebP. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  alt: z.string(),
});

const getFoto = apiRoute({
  method: "GET",
  path: "/api/public/foto",
  auth: "public",
  summary: "The pictures of every published product (per colour where a colour has its own), newest product first.",
  response: z.array(Photo),
  handler: async ({ services, locale, now }) => {
    const ids = (await getListingProductIds(services.db, { scope: { kind: "shop", layout: "grid" }, now })) ?? [];
    const pages = await getProductPages(services.db, ids, locale, now);
    const url = (key: string) => `${services.publicUrl}${getProductImageUrl(key, 800)}`;
    return {
      ok: true,
      data: pages.flatMap((page) => [
        ...page.images.map((image) => ({
          productId: page.id,
          color: null,
          url: url(image.storageKey),
          width: image.width,
          height: image.height,
          alt: image.alt,
        })),
        ...page.colours.flatMap((colour) =>
          colour.images
            .filter((image) => !page.images.some((general) => general.storageKey === image.storageKey))
            .map((image) => ({
              productId: page.id,
              color: colour.key,
              url: url(image.storageKey),
              width: image.width,
              height: image.height,
              alt: image.alt,
            })),
        ),
      ]),
    };
  },
});

export const catalogEndpoints = [getListaProdotti, getFoto, getCategoria, getSottocategoria];
