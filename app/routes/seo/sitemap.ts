import { shopContext } from "#server/http/context.ts";
import { buildSitemapXml } from "#server/seo/sitemap.ts";
import { getSitemapPages } from "#server/seo/sitemap.service.ts";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml: every product, category, subcategory and information page in both languages. */
export async function loader({ context }: Route.LoaderArgs) {
  const { db, publicUrl } = context.get(shopContext);
  const xml = buildSitemapXml(publicUrl, await getSitemapPages(db));
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
