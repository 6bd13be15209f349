/**
 * The product feed for Google Merchant Center's free listings: RSS 2.0 with the `g:` attributes of the
 * product data specification (https://support.google.com/merchants/answer/7052112), one item per
 * colour and size, in Italian or English. Pure: the items come from merchant-feed.service.ts.
 * docs/decisions/0068-merchant-feed.md says what is left out and why.
 */
import type { Locale } from "#common/locale.ts";
import type { ProductSpecs } from "#common/product-specs.ts";
import { escapeXml } from "#server/html.ts";
import { centsToDecimalText, type Cents } from "#server/money.ts";

export type FeedAvailability = "in_stock" | "out_of_stock" | "preorder";

/** Google's age groups: newborn up to 3 months, infant 3-12 months, toddler 1-5 years, kids 5-13 years. */
export type FeedAgeGroup = "newborn" | "infant" | "toddler" | "kids";

/** One line of the product's specifications: `product_detail` (section, attribute name, attribute value). */
export type FeedProductDetail = { sectionName: string; attributeName: string; attributeValue: string };

export type MerchantFeedItem = {
  /** The variant's SKU: stable across feeds, unique in the shop. */
  id: string;
  /** The product's SKU, shared by its colours and sizes; null for a product sold in one version. */
  itemGroupId: string | null;
  title: string;
  description: string;
  /** The product page with this colour and size chosen. */
  link: string;
  imageLink: string;
  additionalImageLinks: string[];
  availability: FeedAvailability;
  /** When a pre-order is expected to ship. */
  availabilityDate: Date | null;
  priceCents: Cents;
  /** The offer's price, when one applies now; its period when the offer has an end. */
  salePriceCents: Cents | null;
  salePeriod: { from: Date; to: Date } | null;
  brand: string | null;
  gtin: string | null;
  /** The manufacturer's part number: the product's model number. */
  mpn: string | null;
  color: string | null;
  size: string | null;
  /** The shop's own category path, "Category > Subcategory". */
  productType: string;
  shippingCents: Cents;
  /** From a car seat's or stroller's specifications (decision 0101); null and empty for other products. */
  ageGroup: FeedAgeGroup | null;
  /** A stroller's own weight. */
  productWeightGrams: number | null;
  productDetails: FeedProductDetail[];
};

/**
 * The youngest child the product is for, in Google's groups: a seat or stroller usable from birth is listed for
 * newborns, where a parent of a newborn looks. Null when the specifications say no age.
 */
export function feedAgeGroupOf(specs: Pick<ProductSpecs, "ageMinMonths" | "isFromBirth">): FeedAgeGroup | null {
  const months = specs.ageMinMonths ?? (specs.isFromBirth ? 0 : null);
  if (months === null) return null;
  return months < 3 ? "newborn" : months < 12 ? "infant" : months < 60 ? "toddler" : "kids";
}

/** The specification's limits (characters). */
export const feedLimits = {
  id: 50,
  title: 150,
  description: 5000,
  link: 2000,
  productType: 750,
  additionalImages: 10,
  mpn: 70,
  detailName: 140,
  detailValue: 1000,
} as const;

/** Google's dates: ISO 8601 to the minute, in UTC. */
export function feedDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 16)}Z`;
}

/** "49.90 EUR" */
export function feedPrice(cents: Cents): string {
  return `${centsToDecimalText(cents)} EUR`;
}

/** Cuts at a word within `max` characters, with an ellipsis, when the text is longer. */
export function clipText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > max / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

const element = (name: string, value: string) => `      <g:${name}>${escapeXml(value)}</g:${name}>`;

function itemXml(item: MerchantFeedItem): string {
  const lines = [
    "    <item>",
    element("id", item.id),
    ...(item.itemGroupId ? [element("item_group_id", item.itemGroupId)] : []),
    element("title", clipText(item.title, feedLimits.title)),
    element("description", clipText(item.description, feedLimits.description)),
    element("link", item.link),
    element("image_link", item.imageLink),
    ...item.additionalImageLinks.slice(0, feedLimits.additionalImages).map((link) => element("additional_image_link", link)),
    element("availability", item.availability),
    ...(item.availability === "preorder" && item.availabilityDate ? [element("availability_date", feedDateTime(item.availabilityDate))] : []),
    element("price", feedPrice(item.priceCents)),
    ...(item.salePriceCents !== null ? [element("sale_price", feedPrice(item.salePriceCents))] : []),
    ...(item.salePriceCents !== null && item.salePeriod
      ? [element("sale_price_effective_date", `${feedDateTime(item.salePeriod.from)}/${feedDateTime(item.salePeriod.to)}`)]
      : []),
    ...(item.brand ? [element("brand", item.brand)] : []),
    ...(item.gtin ? [element("gtin", item.gtin)] : []),
    ...(item.mpn ? [element("mpn", item.mpn)] : []),
    // Without a GTIN or MPN Google is told the product has none, rather than flag it as incomplete.
    ...(item.gtin || item.mpn ? [] : [element("identifier_exists", "no")]),
    element("condition", "new"),
    ...(item.color ? [element("color", item.color)] : []),
    ...(item.size ? [element("size", item.size)] : []),
    ...(item.ageGroup ? [element("age_group", item.ageGroup)] : []),
    element("product_type", clipText(item.productType, feedLimits.productType)),
    ...(item.productWeightGrams !== null ? [element("product_weight", `${item.productWeightGrams / 1000} kg`)] : []),
    ...item.productDetails.flatMap((detail) => [
      "      <g:product_detail>",
      `  ${element("section_name", clipText(detail.sectionName, feedLimits.detailName))}`,
      `  ${element("attribute_name", clipText(detail.attributeName, feedLimits.detailName))}`,
      `  ${element("attribute_value", clipText(detail.attributeValue, feedLimits.detailValue))}`,
      "      </g:product_detail>",
    ]),
    "      <g:shipping>",
    `  ${element("country", "IT")}`,
    `  ${element("price", feedPrice(item.shippingCents))}`,
    "      </g:shipping>",
    "    </item>",
  ];
  return lines.join("\n");
}

export function buildMerchantFeedXml(
  channel: { title: string; link: string; description: string; locale: Locale },
  items: readonly MerchantFeedItem[],
): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">`,
    "  <channel>",
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(channel.link)}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    ...items.map(itemXml),
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}
