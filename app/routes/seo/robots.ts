import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(shopContext);
  const body = [
    "User-agent: *",
    "Disallow: /cart",
    "Disallow: /checkout",
    "Disallow: /my-account",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /en/cart",
    "Disallow: /en/checkout",
    "Disallow: /en/my-account",
    "Disallow: /en/admin",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
