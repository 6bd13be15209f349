import type { MetaDescriptor } from "react-router";

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
