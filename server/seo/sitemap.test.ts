import { expect, test } from "vitest";
import { buildSitemapXml } from "./sitemap";

const xml = buildSitemapXml("https://shop.example", [
  { path: "/" },
  { path: "/centroassistenza/" },
  { path: "/categoria/A-spasso" },
  { path: "/product/24", lastModified: new Date("2024-05-10T12:00:00Z") },
]);

const urls = () => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);

test("every page is listed once per language", () => {
  expect(urls()).toEqual([
    "https://shop.example/",
    "https://shop.example/en",
    "https://shop.example/centroassistenza/",
    "https://shop.example/en/centroassistenza/",
    "https://shop.example/categoria/A-spasso",
    "https://shop.example/en/categoria/A-spasso",
    "https://shop.example/product/24",
    "https://shop.example/en/product/24",
  ]);
});

test("each entry names the it, en and x-default versions, as the page's own hreflang links do", () => {
  const englishProduct = xml.slice(xml.indexOf("<loc>https://shop.example/en/product/24</loc>"));
  expect(englishProduct).toContain(`<lastmod>2024-05-10</lastmod>`);
  expect(englishProduct).toContain(`<xhtml:link rel="alternate" hreflang="it" href="https://shop.example/product/24"/>`);
  expect(englishProduct).toContain(`<xhtml:link rel="alternate" hreflang="en" href="https://shop.example/en/product/24"/>`);
  expect(englishProduct).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="https://shop.example/product/24"/>`);
});

test("the document declares the sitemap and xhtml namespaces and escapes addresses", () => {
  expect(
    xml.startsWith(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
    ),
  ).toBe(true);
  expect(xml.trimEnd().endsWith("</urlset>")).toBe(true);
  const escaped = buildSitemapXml("https://shop.example", [{ path: "/shop?a=1&b=2" }]);
  expect(escaped).toContain("<loc>https://shop.example/shop?a=1&amp;b=2</loc>");
});
