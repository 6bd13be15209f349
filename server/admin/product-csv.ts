/**
 * The product CSV's columns, as the export writes them and the import reads them (product-csv.service.ts).
 * Pure: the journeys import it without the services behind it.
 */

/** CSV column -> product form field (the same validation as the edit form). */
export const productColumns = {
  product_sku: "sku",
  name_it: "nameIt",
  name_en: "nameEn",
  short_description_it: "shortDescriptionIt",
  short_description_en: "shortDescriptionEn",
  full_description_it: "fullDescriptionIt",
  full_description_en: "fullDescriptionEn",
  price: "price",
  discount_percent: "discountPercent",
  offer_ends_on: "offerEndsOn",
  vat_rate_percent: "vatRatePercent",
  is_new: "isNew",
  is_free_shipping: "isFreeShipping",
  is_on_request: "isOnRequest",
  is_published: "isPublished",
  category: "category",
  subcategory: "subcategory",
  brands: "brands",
  related: "related",
  length_mm: "lengthMm",
  width_mm: "widthMm",
  height_mm: "heightMm",
  weight_g: "weightGrams",
  material_it: "materialIt",
  material_en: "materialEn",
  personalisation: "personalisation",
  personalisation_description_it: "personalisationDescriptionIt",
  personalisation_description_en: "personalisationDescriptionEn",
  personalisation_cost: "personalisationCost",
  affiliate_url: "affiliateUrl",
} as const;
export const variantColumns = ["colour", "size", "variant_sku", "stock", "is_preorder", "preorder_days", "gtin"] as const;
/**
 * The product's safety data (docs/decisions/0088-product-safety-data.md): its model number, its own
 * manufacturer and responsible person by name (empty: its brand's) and its warnings' codes, "|" between them.
 */
export const safetyColumns = ["model_number", "manufacturer", "responsible_person", "safety_warnings"] as const;
export const csvColumns: readonly string[] = [...Object.keys(productColumns), ...variantColumns, ...safetyColumns];
/**
 * Columns a file may leave out (files written before they existed): a missing `gtin` reads as empty; the
 * safety columns missing leave the product's safety data as they are.
 */
export const optionalColumns: ReadonlySet<string> = new Set(["gtin", ...safetyColumns]);
