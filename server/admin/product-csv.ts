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
/**
 * A car seat's or stroller's specifications (docs/decisions/0101-product-specifications.md), as the back office
 * form writes them: `spec_kind` car_seat or stroller (empty: none), kilograms as "7,2", yes/no as 1/0 or empty.
 */
export const specColumns = {
  spec_kind: "kind",
  spec_stature_min_cm: "statureMinCm",
  spec_stature_max_cm: "statureMaxCm",
  spec_r44_group: "r44Group",
  spec_isofix: "hasIsofix",
  spec_rotation_360: "rotates360",
  spec_age_min_months: "ageMinMonths",
  spec_age_max_months: "ageMaxMonths",
  spec_max_child_weight_kg: "maxChildWeightGrams",
  spec_stroller_weight_kg: "weightGrams",
  spec_folded_length_cm: "foldedLengthCm",
  spec_folded_width_cm: "foldedWidthCm",
  spec_folded_height_cm: "foldedHeightCm",
  spec_from_birth: "isFromBirth",
  spec_carrycot: "isCarrycotCompatible",
} as const;
export const csvColumns: readonly string[] = [...Object.keys(productColumns), ...variantColumns, ...safetyColumns, ...Object.keys(specColumns)];
/**
 * Columns a file may leave out (files written before they existed): a missing `gtin` reads as empty; the
 * safety columns missing leave the product's safety data as they are, the specification columns (all of them
 * or none) its specifications.
 */
export const optionalColumns: ReadonlySet<string> = new Set(["gtin", ...safetyColumns, ...Object.keys(specColumns)]);

/** How the file may say yes and no. */
export const truthyCells: ReadonlySet<string> = new Set(["1", "si", "sì", "yes", "true", "vero", "x"]);
export const falsyCells: ReadonlySet<string> = new Set(["", "0", "no", "false", "falso"]);
