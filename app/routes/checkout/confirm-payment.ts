import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { shopContext } from "#server/http/context.ts";
import { isOrderAccessTokenValid } from "#server/orders/order-access.ts";
import { confirmAuthorizedPayment } from "#server/payments/payment.service.ts";
import type { Route } from "./+types/confirm-payment";

/**
 * /ordine/{id}/conferma-pagamento?t=...: where Scalapay sends the customer after she said yes. The shop
 * reads the payment from Scalapay, captures it once (a reload captures nothing more) and shows the order.
 * Only with the order's token (the link the shop itself gave the provider).
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const token = url.searchParams.get("t");
  if (!isOrderAccessTokenValid(resolveAuthSecret(services.env), params.orderId, token)) throw data(null, { status: 404 });
  const result = await confirmAuthorizedPayment(services, { orderId: params.orderId, locale: localeOfPath(url.pathname) });
  if (!result.ok) throw data(null, { status: 404 });
  throw redirect(result.redirectTo);
}
