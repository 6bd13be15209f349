/**
 * sitemap.xml (https://www.sitemaps.org/protocol.html) with the language alternates Google reads
 * (https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap):
 * every page once per language, each entry listing it, en and x-default, exactly as the page's own
 * <link rel="alternate" hreflang> tags do. Pure: no db.
 */
import { locales, pathInLocale } from "#common/locale.ts";
import { alternateLinks } from "#common/alternate-links.ts";
import { escapeXml } from "#server/html.ts";

/** An Italian path (the English one is derived) and when it last changed, if known. */
export type SitemapPage = { path: string; lastModified?: Date | null };

/** The protocol's limit per file; past it the shop would need a sitemap index. */
export const maxSitemapUrls = 50_000;

/** Information pages and entry points, in the order a person would find them. */
export const staticSitemapPaths = [
  "/",
  "/shop",
  "/marchi",
  "/lista-nascita",
  "/about",
  "/contact",
  "/centroassistenza/",
  "/privacy",
  "/cookie-policy",
] as const;

export const productPath = (id: number) => `/product/${id}`;
export const categoryPath = (slug: string) => `/categoria/${encodeURIComponent(slug)}`;
export const subcategoryPath = (slug: string) => `/sottocategoria/${encodeURIComponent(slug)}`;

export function buildSitemapXml(publicUrl: string, pages: readonly SitemapPage[]): string {
  const entries: string[] = [];
  for (const page of pages) {
    for (const locale of locales) {
      const { canonical, alternates } = alternateLinks(publicUrl, pathInLocale(page.path, locale));
      const lines = [`  <url>`, `    <loc>${escapeXml(canonical)}</loc>`];
      if (page.lastModified) lines.push(`    <lastmod>${page.lastModified.toISOString().slice(0, 10)}</lastmod>`);
      for (const alternate of alternates) {
        lines.push(`    <xhtml:link rel="alternate" hreflang="${alternate.hrefLang}" href="${escapeXml(alternate.href)}"/>`);
      }
      lines.push(`  </url>`);
      entries.push(lines.join("\n"));
    }
  }
  if (entries.length > maxSitemapUrls) throw new RangeError(`sitemap.xml would list ${entries.length} addresses (limit ${maxSitemapUrls})`);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
    ...entries,
    `</urlset>`,
    "",
  ].join("\n");
}
