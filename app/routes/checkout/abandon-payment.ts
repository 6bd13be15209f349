import { data, redirect } from "react-router";
import { localizedHref, localeOfPath } from "#common/locale.ts";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { readCartRequest } from "#server/cart/cart-request.ts";
import { shopContext } from "#server/http/context.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { isOrderAccessTokenValid, orderPageHref } from "#server/orders/order-access.ts";
import { contributionListCodeOf } from "#server/gift-lists/gift-list-group.service.ts";
import { abandonCardPayment } from "#server/payments/payment.service.ts";
import type { Route } from "./+types/abandon-payment";

/**
 * /ordine/{id}/annulla-pagamento?t=...: the card provider's "back" link. The order is cancelled, its
 * stock returns and its lines go back into the cart; then the cart with a message. Only with the
 * order's token (the link the shop itself gave the provider).
 */
export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const services = context.get(shopContext);
  const locale = localeOfPath(url.pathname);
  const token = url.searchParams.get("t");
  if (!isOrderAccessTokenValid(resolveAuthSecret(services.env), params.orderId, token)) throw data(null, { status: 404 });
  const t = getTranslator(locale);
  const cart = readCartRequest(request, services);
  const contributionListCode = await contributionListCodeOf(services.db, params.orderId);
  const result = await abandonCardPayment(services, { orderId: params.orderId, cartId: cart.forged ? null : cart.cartId });
  const headers = new Headers();
  if (result.ok && contributionListCode) {
    // A group-gift contribution has nothing to put back in the cart: back to the list, its share free again.
    headers.append("Set-Cookie", cart.cookieHeaders.flash([{ kind: "info", message: t("giftLists.group.abandoned") }]));
    throw redirect(localizedHref(`/lista-nascita/${contributionListCode}`, locale), { headers });
  }
  if (!result.ok) {
    if (result.reason === "not-found") throw data(null, { status: 404 });
    const message = t(result.reason === "paid" ? "payments.abandon.paid" : "payments.abandon.notAwaitingPayment");
    headers.append("Set-Cookie", cart.cookieHeaders.flash([{ kind: "info", message }]));
    throw redirect(orderPageHref(locale, params.orderId, token!), { headers });
  }
  if (result.cartId) headers.append("Set-Cookie", cart.cookieHeaders.cart(result.cartId));
  const message = t(result.restored ? "payments.abandon.restored" : "payments.abandon.alreadyCancelled");
  headers.append("Set-Cookie", cart.cookieHeaders.flash([{ kind: result.restored ? "info" : "warning", message }]));
  throw redirect(localizedHref("/cart", locale), { headers });
}
