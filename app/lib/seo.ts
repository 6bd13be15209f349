import type { MetaDescriptor } from "react-router";
import { locales, pathInLocale, type Locale } from "./locale";

/** What a page's loader returns for its `meta` export (texts already translated on the server). */
export type PageMeta = { title: string; description: string };

type MetaMatchLike = { id: string; loaderData?: unknown } | undefined;

/** The shop's name as the root loader read it from the settings. */
function shopNameOf(matches: readonly MetaMatchLike[]): string | undefined {
  const root = matches.find((match) => match?.id === "root")?.loaderData as { shop?: { name?: string } } | undefined;
  return root?.shop?.name;
}

/** "Page | Shop name"; the page title alone when the shop's name is unknown. */
export function documentTitle(pageTitle: string, shopName: string | undefined): string {
  return shopName && pageTitle !== shopName ? `${pageTitle} | ${shopName}` : pageTitle;
}

/**
 * Title and description for a route's `meta` export:
 *   export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageMeta(matches, loaderData?.meta);
 */
export function pageMeta(matches: readonly MetaMatchLike[], meta: PageMeta | undefined): MetaDescriptor[] {
  const shopName = shopNameOf(matches);
  if (!meta) return shopName ? [{ title: shopName }] : [];
  return [{ title: documentTitle(meta.title, shopName) }, { name: "description", content: meta.description }];
}

export type AlternateLink = { hrefLang: string; href: string };

/**
 * hreflang alternates of a page (DECISIONS.md: every page declares them) and its canonical address,
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
