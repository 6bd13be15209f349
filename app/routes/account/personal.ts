/**
 * `GET /personal` (and /en/personal): the personal part of the person asking as a small private JSON answer
 * (header's account menu, mini cart, gift-list choices, the gift list being filled, saved items), which a
 * browser running the shop's scripts fetches once per visit and after each change she makes, while her pages
 * are the visitors' kept ones (docs/decisions/0095-personal-part-fetched-after-load.md). No page is rendered.
 */
import { data } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { personalCacheControl } from "#server/http/page-caching.ts";
import { readPersonalPart } from "#app/lib/personal-part.server.ts";
import type { Route } from "./+types/personal";

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const { part, headers } = await readPersonalPart(services, request, localeOfPath(url.pathname), () => getSessionUser(context, request));
  headers.set("Cache-Control", personalCacheControl);
  return data(part, { headers });
}
