import { expect, test } from "vitest";
import { defaultSettings } from "#server/settings/settings.ts";
import {
  breadcrumbJsonLd,
  decimalPrice,
  jsonLdMeta,
  openingHoursSpecification,
  organizationJsonLd,
  productJsonLd,
  serializeJsonLd,
} from "./structured-data";

const shop = defaultSettings.shop;

test("the shop is an Organization and Store with its address, contacts and opening hours", () => {
  const data = organizationJsonLd({ shop, publicUrl: "https://shop.example", locale: "en" });

  expect(data).toMatchObject({
    "@type": ["Organization", "Store"],
    name: shop.name,
    url: "https://shop.example/en",
    telephone: shop.phone,
    address: { "@type": "PostalAddress", postalCode: shop.postcode, addressLocality: shop.city, addressCountry: "IT" },
    sameAs: [shop.facebookUrl, shop.instagramUrl],
  });
  const mondayToSaturday = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"].map((day) => `https://schema.org/${day}`);
  expect(data.openingHoursSpecification).toEqual([
    { "@type": "OpeningHoursSpecification", dayOfWeek: mondayToSaturday, opens: "09:30", closes: "13:00" },
    { "@type": "OpeningHoursSpecification", dayOfWeek: mondayToSaturday, opens: "16:30", closes: "20:00" },
  ]);
});

test("opening hours group the days sharing a slot; a closed day is left out", () => {
  const morning = { opens: "09:00", closes: "12:00" };
  const hours = { 1: [morning], 2: [], 3: [morning], 4: [], 5: [], 6: [{ opens: "10:00", closes: "18:00" }], 7: [] };
  expect(openingHoursSpecification(hours)).toEqual([
    {
      "@type": "OpeningHoursSpecification",
      dayOfWeek: ["https://schema.org/Monday", "https://schema.org/Wednesday"],
      opens: "09:00",
      closes: "12:00",
    },
    { "@type": "OpeningHoursSpecification", dayOfWeek: ["https://schema.org/Saturday"], opens: "10:00", closes: "18:00" },
  ]);
});

test("a product carries its EUR offer with absolute pictures; an on-request product has no offer", () => {
  const input = {
    publicUrl: "https://shop.example",
    path: "/en/product/24",
    name: "Stroller",
    description: "Light",
    sku: "P-24",
    imageKeys: ["p24-white-1"],
    brand: "Chicco",
    priceCents: 19_990,
    availability: "InStock" as const,
    offerEndsAt: new Date("2030-01-31T10:00:00Z"),
    shopName: "Bimbi Felici",
  };
  expect(productJsonLd(input)).toMatchObject({
    "@type": "Product",
    url: "https://shop.example/en/product/24",
    image: ["https://shop.example/media/products/p24-white-1-800.webp"],
    brand: { "@type": "Brand", name: "Chicco" },
    offers: { "@type": "Offer", price: "199.90", priceCurrency: "EUR", availability: "https://schema.org/InStock", priceValidUntil: "2030-01-31" },
  });
  expect(productJsonLd({ ...input, priceCents: null })).not.toHaveProperty("offers");
});

test("prices are written as decimals without floating-point error", () => {
  expect([decimalPrice(0), decimalPrice(5), decimalPrice(1999), decimalPrice(123456), decimalPrice(-250)]).toEqual([
    "0.00",
    "0.05",
    "19.99",
    "1234.56",
    "-2.50",
  ]);
});

test("breadcrumbs are numbered from 1 with absolute addresses, and blocks become meta entries", () => {
  const crumbs = breadcrumbJsonLd("https://shop.example", [
    { name: "Home", path: "/en" },
    { name: "Out and about", path: "/en/categoria/A-spasso" },
  ]);
  expect(crumbs.itemListElement).toEqual([
    { "@type": "ListItem", position: 1, name: "Home", item: "https://shop.example/en" },
    { "@type": "ListItem", position: 2, name: "Out and about", item: "https://shop.example/en/categoria/A-spasso" },
  ]);
  expect(jsonLdMeta(crumbs)).toEqual({ "script:ld+json": { "@context": "https://schema.org", ...crumbs } });
});

test("customers' published reviews become the aggregate rating and the reviews; none, no rating at all", () => {
  const input = {
    publicUrl: "https://shop.example",
    path: "/product/24",
    name: "Passeggino",
    description: "Leggero",
    sku: "P-24",
    imageKeys: [],
    priceCents: 1000,
    availability: "PreOrder" as const,
    shopName: "Bimbi Felici",
  };
  const reviewed = productJsonLd({
    ...input,
    reviews: {
      summary: { count: 2, average: 4.5 },
      shown: [
        { authorName: "Maria R.", stars: 4, body: "Leggero e comodo.", createdAt: new Date("2026-11-20T10:00:00Z") },
        { authorName: "Luca B.", stars: 5, body: "Perfetto.", createdAt: "2026-11-18T09:00:00.000Z" },
      ],
    },
  });
  expect(reviewed).toMatchObject({
    aggregateRating: { "@type": "AggregateRating", ratingValue: 4.5, reviewCount: 2, bestRating: 5, worstRating: 1 },
    review: [
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Maria R." },
        datePublished: "2026-11-20",
        reviewBody: "Leggero e comodo.",
        reviewRating: { "@type": "Rating", ratingValue: 4, bestRating: 5, worstRating: 1 },
      },
      { author: { name: "Luca B." }, datePublished: "2026-11-18", reviewRating: { ratingValue: 5 } },
    ],
    offers: { availability: "https://schema.org/PreOrder" },
  });
  // No published review: no rating and no review, whatever stars the shop gave the product itself.
  for (const none of [productJsonLd(input), productJsonLd({ ...input, reviews: { summary: null, shown: [] } })]) {
    expect(none).not.toHaveProperty("aggregateRating");
    expect(none).not.toHaveProperty("review");
  }
});

test("a JSON-LD script's text cannot close the script: <, > and & are written as \\u escapes", () => {
  const text = serializeJsonLd({ "@type": "Product", name: "</script><script>alert(1)</script> & co" });

  expect(text).not.toMatch(/[<>&]/);
  expect(text).toContain("\\u003c/script\\u003e");
  expect(JSON.parse(text)).toEqual({ "@context": "https://schema.org", "@type": "Product", name: "</script><script>alert(1)</script> & co" });
});
