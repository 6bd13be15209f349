import { data } from "react-router";
import { localeOfPath, localizedHref } from "#common/locale.ts";
import type { ProductImageData } from "#app/ui/product-image.tsx";
import { minSuggestLength } from "#app/ui/search-box.tsx";
import { SuggestParams } from "#server/catalog/listing.inputs.ts";
import { normaliseSearchText, searchWords } from "#server/catalog/search.ts";
import { getSearchSuggestions, type SearchMode } from "#server/catalog/search.service.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import type { Route } from "./+types/search-suggest";

export type SearchSuggestion = {
  id: number;
  name: string;
  brand: string | null;
  href: string;
  /** What the customer pays today; null for "on request" products. */
  priceCents: number | null;
  /** The list price when a discount applies. */
  originalCents: number | null;
  image: ProductImageData | null;
};

export type SearchSuggestResponse = { query: string; mode: SearchMode; suggestions: SearchSuggestion[] };

/**
 * `GET /search/suggest?q=...` (and /en/...): JSON for the search box's suggestions while typing.
 * `query` echoes the normalised text, so the box can drop answers to text it no longer shows.
 */
export async function loader({ url, request, context }: Route.LoaderArgs) {
  const { db } = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const { q } = SuggestParams.parse({ q: url.searchParams.get("q") ?? "" });
  const text = normaliseSearchText(q).text;
  const headers = { "Cache-Control": "public, max-age=60" };
  if (text.length < minSuggestLength || searchWords(text).length === 0) {
    return data<SearchSuggestResponse>({ query: text, mode: "none", suggestions: [] }, { headers });
  }
  const result = await getSearchSuggestions(db, { text, locale, now: shopNowOf(context.get(shopContext), request) });
  const suggestions = result.products.map((product): SearchSuggestion => ({
    id: product.id,
    name: product.name,
    brand: product.brand?.name ?? null,
    href: localizedHref(`/product/${product.id}`, locale),
    priceCents: product.isOnRequest ? null : product.effectivePriceCents,
    originalCents: !product.isOnRequest && product.effectivePriceCents < product.priceCents ? product.priceCents : null,
    image: product.image,
  }));
  return data<SearchSuggestResponse>({ query: result.text, mode: result.mode, suggestions }, { headers });
}
