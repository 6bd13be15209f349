/** Italian lives at the root, English under /en (docs/rules.md#languages). Browser-safe. */
export const locales = ["it", "en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "it";

export function isLocale(value: unknown): value is Locale {
  return (locales as readonly unknown[]).includes(value);
}

export function localeOfPath(pathname: string): Locale {
  return pathname === "/en" || pathname.startsWith("/en/") ? "en" : "it";
}

/** The same page in the other language: "/shop?x=1" <-> "/en/shop?x=1". */
export function pathInLocale(pathname: string, locale: Locale): string {
  const bare = localeOfPath(pathname) === "en" ? pathname.slice(3) || "/" : pathname;
  if (locale === "it") return bare;
  return bare === "/" ? "/en" : `/en${bare}`;
}

/** Prefixes an Italian path for the given locale: href("/cart", "en") === "/en/cart". */
export function localizedHref(path: string, locale: Locale): string {
  if (locale === "it") return path;
  return path === "/" ? "/en" : `/en${path}`;
}

export const htmlLang: Record<Locale, string> = { it: "it", en: "en" };
/** The Intl locale each page language formats numbers and dates with (British English: day before month, 24 h). */
export const intlLocale: Record<Locale, string> = { it: "it-IT", en: "en-GB" };
