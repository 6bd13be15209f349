import { locales, pathInLocale, type Locale } from "./locale";

export type AlternateLink = { hrefLang: string; href: string };

/**
 * hreflang alternates of a page (docs/rules.md#languages: every page declares them) and its canonical address,
 * absolute, without the query string. Italian is the x-default.
 */
export function alternateLinks(publicUrl: string, pathname: string): { canonical: string; alternates: AlternateLink[] } {
  const absolute = (path: string) => `${publicUrl}${path}`;
  const alternates: AlternateLink[] = locales.map((locale: Locale) => ({
    hrefLang: locale,
    href: absolute(pathInLocale(pathname, locale)),
  }));
  alternates.push({ hrefLang: "x-default", href: absolute(pathInLocale(pathname, "it")) });
  return { canonical: absolute(pathname), alternates };
}
