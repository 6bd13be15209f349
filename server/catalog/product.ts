/**
 * Pure rules of the product page: which id addresses a product, the legacy related-ids string
 * and availability (one size: common/sizes.ts). No db, env or clock.
 */
import { getAvailability, type Availability } from "#common/variant-selection.ts";

/** docs/rules.md#product-page: at most 8 related products. */
export const relatedProductsLimit = 8;

/** The largest id PostgreSQL's `integer` holds: anything above cannot be a product. */
const maxProductId = 2_147_483_647;

/**
 * The `{id}` of `/product/{id}`: a positive whole number in plain digits, or null (a 404, never a 500).
 * "12abc", "-3", "1e3", "0x1f", " 7" and ids past PostgreSQL's integer range are not products.
 */
export function parseProductId(param: string | undefined): number | null {
  if (!param || !/^[0-9]{1,10}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && id <= maxProductId ? id : null;
}

/**
 * The legacy `correlati` field: comma-separated product ids where empty entries and the text
 * "undefined" are ignored (docs/rules.md#product-page). Anything else that is not an id is dropped too;
 * duplicates keep their first place.
 */
export function parseRelatedIds(correlati: string | null | undefined): number[] {
  if (!correlati) return [];
  const ids: number[] = [];
  for (const entry of correlati.split(",")) {
    const text = entry.trim();
    if (text === "" || text === "undefined") continue;
    const id = parseProductId(text);
    if (id !== null && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The related products a page shows: no repeats, never the product itself, at most 8. */
export function pickRelatedIds(productId: number, relatedIds: readonly number[]): number[] {
  return [...new Set(relatedIds)].filter((id) => id !== productId).slice(0, relatedProductsLimit);
}

/** A variant's availability is shown in the browser too (the phone's product page): the rule lives with the selection's. */
export { getAvailability, type Availability };

/** The best availability over a product's variants, for the product as a whole (structured data, cards). */
export function getProductAvailability(variants: readonly { stock: number; isPreorder: boolean }[]): Availability {
  const each = variants.map(getAvailability);
  if (each.includes("in_stock")) return "in_stock";
  if (each.includes("preorder")) return "preorder";
  return "out_of_stock";
}

/** On request: flagged in the back office or carrying an on-request tag ("Chicco edition", "Cam - linea solo per te"). */
export function isProductOnRequest(product: { isOnRequest: boolean }, brands: readonly { marksOnRequest: boolean }[]): boolean {
  return product.isOnRequest || brands.some((brand) => brand.marksOnRequest);
}
