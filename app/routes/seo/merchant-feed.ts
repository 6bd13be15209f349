import { data } from "react-router";
import { locales } from "#common/locale.ts";
import { shopContext } from "#server/http/context.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { getMerchantFeedXml } from "#server/seo/merchant-feed.service.ts";
import type { Route } from "./+types/merchant-feed";

/** GET /feeds/google-merchant/{it,en}.xml: every colour and size the shop sells, for Google's free listings. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const locale = locales.find((each) => params.file === `${each}.xml`);
  if (!locale) throw data(null, { status: 404 });
  const { db, publicUrl } = context.get(shopContext);
  const xml = await getMerchantFeedXml(db, { locale, publicUrl, now: shopNowOf(context.get(shopContext), request) });
  // Google fetches a feed about once a day; an hour keeps prices fresh for anyone else reading it.
  return new Response(xml, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
