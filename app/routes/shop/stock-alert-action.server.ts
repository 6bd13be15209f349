/**
 * The product page's "Avvisami quando torna disponibile" (docs/decisions/0067-back-in-stock-alerts.md):
 * a fetcher gets the answer and the page stays; without JavaScript the whole page posts and comes back
 * with the same answer under the same colour and size (the form posts to the page's own address).
 */
import { data, type RouterContextProvider } from "react-router";
import type { Locale } from "#common/locale.ts";
import type { StockAlertAnswer } from "#app/ui/stock-alert-form.tsx";
import { getSessionUser } from "#server/http/guards.ts";
import { requestContext } from "#server/http/context.ts";
import { requestStockAlert } from "#server/stock-alerts/stock-alerts.service.ts";
import type { ShopServices } from "#server/shop-services.ts";

export async function handleStockAlertRequest(
  services: ShopServices,
  context: Readonly<RouterContextProvider>,
  request: Request,
  args: { locale: Locale; form: FormData },
) {
  const user = await getSessionUser(context, request);
  const result = await requestStockAlert(
    services.db,
    { variantId: args.form.get("variantId"), email: args.form.get("email") ?? undefined },
    { locale: args.locale, publicUrl: services.publicUrl, clientIp: context.get(requestContext).clientIp, user },
  );
  const answer: StockAlertAnswer = result.ok ? { ok: true, confirmed: result.confirmed } : { ok: false, error: result.error };
  return data({ stockAlert: answer }, { status: result.ok ? 200 : result.throttled ? 429 : 400 });
}
