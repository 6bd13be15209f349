/**
 * Open Graph (https://ogp.me) for links shared on social networks and chats: title, description,
 * absolute image, type, locale with its alternate. Pages use `sharingMeta` in their `meta` export
 * instead of `pageMeta`:
 *
 *   export const meta: Route.MetaFunction = ({ loaderData, matches, location }) =>
 *     sharingMeta({ matches, location, meta: loaderData?.meta, image: ..., type: "product", jsonLd: [...] });
 */
import type { MetaDescriptor } from "react-router";
import { localeOfPath, type Locale } from "#common/locale.ts";
import { getProductImageUrl } from "#common/media.ts";
import { pageMeta, type PageMeta } from "./seo";
import { decimalPrice, jsonLdMeta, organizationJsonLd, type JsonLd } from "./structured-data";

export const openGraphLocale: Record<Locale, string> = { it: "it_IT", en: "en_GB" };

/** The shop's default picture for shared links (public/og-image.png). */
export const defaultShareImage: ShareImage = { path: "/og-image.png", width: 1200, height: 630 };

/** A picture on this site, by path; made absolute with the public address. */
export type ShareImage = { path: string; width: number; height: number; alt?: string };

/** A product picture at the widest size written (WebP, which the big networks read). */
export function productShareImage(storageKey: string, alt: string): ShareImage {
  return { path: getProductImageUrl(storageKey, 800), width: 800, height: 800, alt };
}

export type OpenGraphInput = {
  title: string;
  description: string;
  /** Absolute address of the page. */
  url: string;
  /** Absolute origin of the site, no trailing slash. */
  publicUrl: string;
  siteName: string;
  locale: Locale;
  type?: "website" | "product";
  image?: ShareImage;
  /** Products: the price paid today, EUR cents (Open Graph product:price). */
  priceCents?: number | null;
};

export function openGraphMeta(input: OpenGraphInput): MetaDescriptor[] {
  const image = input.image ?? defaultShareImage;
  const otherLocale: Locale = input.locale === "it" ? "en" : "it";
  const tags: MetaDescriptor[] = [
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:site_name", content: input.siteName },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: input.url },
    { property: "og:locale", content: openGraphLocale[input.locale] },
    { property: "og:locale:alternate", content: openGraphLocale[otherLocale] },
    { property: "og:image", content: `${input.publicUrl}${image.path}` },
    { property: "og:image:width", content: String(image.width) },
    { property: "og:image:height", content: String(image.height) },
  ];
  if (image.alt) tags.push({ property: "og:image:alt", content: image.alt });
  if (input.type === "product" && input.priceCents != null) {
    tags.push({ property: "product:price:amount", content: decimalPrice(input.priceCents) });
    tags.push({ property: "product:price:currency", content: "EUR" });
  }
  tags.push({ name: "twitter:card", content: image === defaultShareImage ? "summary_large_image" : "summary" });
  return tags;
}

type MetaMatchLike = { id: string; loaderData?: unknown } | undefined;
type RootMetaData = { publicUrl?: string; shop?: Parameters<typeof organizationJsonLd>[0]["shop"] };

/**
 * Title and description (as `pageMeta`), Open Graph, and any JSON-LD blocks for a page's `meta`.
 * The public address and the shop's name come from the root loader's data.
 */
export function sharingMeta({
  matches,
  location,
  meta,
  type,
  image,
  priceCents,
  jsonLd = [],
  includeShop = false,
}: {
  matches: readonly MetaMatchLike[];
  location: { pathname: string };
  meta: PageMeta | undefined;
  type?: OpenGraphInput["type"];
  image?: ShareImage;
  priceCents?: number | null;
  jsonLd?: readonly JsonLd[];
  /** Adds the shop (Organization/Store with address and opening hours): the home page does. */
  includeShop?: boolean;
}): MetaDescriptor[] {
  const tags = pageMeta(matches, meta);
  const root = matches.find((match) => match?.id === "root")?.loaderData as RootMetaData | undefined;
  if (!meta || !root?.publicUrl) return tags;
  const siteName = root.shop?.name ?? "";
  const locale = localeOfPath(location.pathname);
  const blocks = includeShop && root.shop ? [organizationJsonLd({ shop: root.shop, publicUrl: root.publicUrl, locale }), ...jsonLd] : jsonLd;
  return [
    ...tags,
    ...openGraphMeta({
      title: meta.title,
      description: meta.description,
      url: `${root.publicUrl}${location.pathname}`,
      publicUrl: root.publicUrl,
      siteName,
      locale,
      type,
      image,
      priceCents,
    }),
    ...blocks.map(jsonLdMeta),
  ];
}
