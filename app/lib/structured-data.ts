/**
 * schema.org JSON-LD for search engines (https://developers.google.com/search/docs/appearance/structured-data):
 * the shop as a local store with its opening hours, products with their offer, breadcrumbs.
 * Browser-safe and pure: pages build these in `meta` and pass them through `jsonLdMeta`, which
 * React Router renders as <script type="application/ld+json"> (escaped, so no CSP nonce is needed).
 */
import type { MetaDescriptor } from "react-router";
import type { ShopIdentity } from "#server/settings/settings.ts";
import type { Locale } from "#common/locale.ts";
import { localizedHref } from "#common/locale.ts";
import { getProductImageUrl } from "#common/media.ts";
import type { OpeningSlot, Weekday } from "#common/opening-hours.ts";
import type { SpecValue } from "#common/product-specs.ts";
import { jsonInScript } from "./script-json";

export type JsonLd = { "@context"?: "https://schema.org"; "@type": string | string[]; [key: string]: unknown };

/**
 * A JSON-LD block as the text of a `<script type="application/ld+json">` written by a component
 * (which gives it the CSP nonce): `<`, `>` and `&` as \u escapes, so no text can close the script.
 */
export function serializeJsonLd(data: JsonLd): string {
  return jsonInScript({ "@context": "https://schema.org", ...data });
}

/** One JSON-LD block as a `meta` entry. */
export function jsonLdMeta(data: JsonLd): MetaDescriptor {
  return { "script:ld+json": { "@context": "https://schema.org", ...data } };
}

const schemaDays: Record<Weekday, string> = {
  1: "https://schema.org/Monday",
  2: "https://schema.org/Tuesday",
  3: "https://schema.org/Wednesday",
  4: "https://schema.org/Thursday",
  5: "https://schema.org/Friday",
  6: "https://schema.org/Saturday",
  7: "https://schema.org/Sunday",
};

/** One OpeningHoursSpecification per time slot, listing the days that have it. */
export function openingHoursSpecification(hours: Record<Weekday, readonly OpeningSlot[]>) {
  const bySlot = new Map<string, { slot: OpeningSlot; days: string[] }>();
  for (const day of [1, 2, 3, 4, 5, 6, 7] as const) {
    for (const slot of hours[day]) {
      const key = `${slot.opens}-${slot.closes}`;
      const entry = bySlot.get(key) ?? { slot, days: [] };
      entry.days.push(schemaDays[day]);
      bySlot.set(key, entry);
    }
  }
  return [...bySlot.values()].map(({ slot, days }) => ({
    "@type": "OpeningHoursSpecification",
    dayOfWeek: days,
    opens: slot.opens,
    closes: slot.closes,
  }));
}

/** The shop: an online store that is also a shop you can walk into near Naples. */
export function organizationJsonLd({ shop, publicUrl, locale }: { shop: ShopIdentity; publicUrl: string; locale: Locale }): JsonLd {
  const url = `${publicUrl}${localizedHref("/", locale)}`;
  return {
    "@type": ["Organization", "Store"],
    "@id": `${publicUrl}/#shop`,
    name: shop.name,
    legalName: shop.legalName,
    vatID: shop.vatNumber,
    url,
    logo: `${publicUrl}/og-image.png`,
    image: `${publicUrl}/og-image.png`,
    telephone: shop.phone,
    email: shop.email,
    address: {
      "@type": "PostalAddress",
      streetAddress: shop.street,
      postalCode: shop.postcode,
      addressLocality: shop.city,
      addressRegion: shop.province,
      addressCountry: "IT",
    },
    openingHoursSpecification: openingHoursSpecification(shop.openingHours),
    currenciesAccepted: "EUR",
    sameAs: [shop.facebookUrl, shop.instagramUrl].filter((link): link is string => Boolean(link)),
  };
}

/** "12.34" from 1234 cents, without floating-point arithmetic. */
export function decimalPrice(cents: number): string {
  const whole = Math.trunc(Math.abs(cents) / 100);
  const rest = String(Math.abs(cents) % 100).padStart(2, "0");
  return `${cents < 0 ? "-" : ""}${whole}.${rest}`;
}

export type ProductAvailability = "InStock" | "OutOfStock" | "PreOrder";

export type ProductJsonLdInput = {
  publicUrl: string;
  /** The page's own path, e.g. "/en/product/24". */
  path: string;
  name: string;
  description: string;
  sku: string;
  /** Storage keys of the product's pictures, main first. */
  imageKeys: readonly string[];
  brand?: string | null;
  category?: string | null;
  /** What a customer pays today, EUR cents, VAT included; null for "on request" products. */
  priceCents: number | null;
  availability: ProductAvailability;
  /** The day a discount ends, when it does. */
  offerEndsAt?: Date | string | null;
  shopName: string;
  /** GPSR identification (docs/decisions/0088-product-safety-data.md): schema.org's manufacturer, model and gtin. */
  safety?: { manufacturer: { name: string; postalAddress: string; email: string } | null; modelNumber: string | null; gtin: string | null };
  /** A car seat's or stroller's specifications, named in the page's language: schema.org's additionalProperty. */
  specs?: readonly { name: string; value: SpecValue }[];
  /**
   * Customers' published reviews: their average and count, and those shown on the page. Never the shop's own
   * rating, which is no customer's (docs/decisions/0059-verified-reviews.md).
   */
  reviews?: {
    summary: { count: number; average: number } | null;
    shown: readonly { authorName: string; stars: number; body: string; createdAt: Date | string }[];
  };
};

/** UN/CEFACT unit codes, as schema.org's unitCode asks: centimetre, month, kilogram. */
const unitCodes = { cm: "CMT", months: "MON" } as const;

/** One specification as a schema.org PropertyValue: ranges as minValue/maxValue, weights in kilograms. */
function specPropertyValue(name: string, value: SpecValue): JsonLd {
  const property = { "@type": "PropertyValue", name };
  if (value.type === "range") {
    return {
      ...property,
      ...(value.min !== null ? { minValue: value.min } : {}),
      ...(value.max !== null ? { maxValue: value.max } : {}),
      unitCode: unitCodes[value.unit],
    };
  }
  if (value.type === "weight") return { ...property, value: value.grams / 1000, unitCode: "KGM" };
  if (value.type === "yesNo") return { ...property, value: value.value };
  if (value.type === "text") return { ...property, value: value.text };
  return { ...property, value: `${value.lengthCm} × ${value.widthCm} × ${value.heightCm}`, unitCode: unitCodes.cm };
}

export function productJsonLd(input: ProductJsonLdInput): JsonLd {
  const url = `${input.publicUrl}${input.path}`;
  return {
    "@type": "Product",
    "@id": `${url}#product`,
    name: input.name,
    description: input.description,
    sku: input.sku,
    url,
    image: input.imageKeys.map((key) => `${input.publicUrl}${getProductImageUrl(key, 800)}`),
    ...(input.brand ? { brand: { "@type": "Brand", name: input.brand } } : {}),
    ...(input.category ? { category: input.category } : {}),
    ...(input.safety?.manufacturer
      ? {
          manufacturer: {
            "@type": "Organization",
            name: input.safety.manufacturer.name,
            address: input.safety.manufacturer.postalAddress,
            email: input.safety.manufacturer.email,
          },
        }
      : {}),
    ...(input.safety?.modelNumber ? { model: input.safety.modelNumber } : {}),
    ...(input.safety?.gtin ? { gtin: input.safety.gtin } : {}),
    ...(input.specs && input.specs.length > 0 ? { additionalProperty: input.specs.map(({ name, value }) => specPropertyValue(name, value)) } : {}),
    // Only real customers' published reviews: none, no rating at all (the shop's own stars are not marked up).
    ...(input.reviews?.summary && input.reviews.summary.count > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: input.reviews.summary.average,
            reviewCount: input.reviews.summary.count,
            bestRating: 5,
            worstRating: 1,
          },
          review: input.reviews.shown.map((review) => ({
            "@type": "Review",
            author: { "@type": "Person", name: review.authorName },
            datePublished: new Date(review.createdAt).toISOString().slice(0, 10),
            reviewBody: review.body,
            reviewRating: { "@type": "Rating", ratingValue: review.stars, bestRating: 5, worstRating: 1 },
          })),
        }
      : {}),
    ...(input.priceCents === null
      ? {}
      : {
          offers: {
            "@type": "Offer",
            url,
            price: decimalPrice(input.priceCents),
            priceCurrency: "EUR",
            availability: `https://schema.org/${input.availability}`,
            itemCondition: "https://schema.org/NewCondition",
            ...(input.offerEndsAt ? { priceValidUntil: new Date(input.offerEndsAt).toISOString().slice(0, 10) } : {}),
            seller: { "@type": "Organization", "@id": `${input.publicUrl}/#shop`, name: input.shopName },
          },
        }),
  };
}

export type BreadcrumbItem = { name: string; /** A path on this site, e.g. "/en/categoria/A-spasso". */ path: string };

export function breadcrumbJsonLd(publicUrl: string, items: readonly BreadcrumbItem[]): JsonLd {
  return {
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: item.name,
      item: `${publicUrl}${item.path}`,
    })),
  };
}
