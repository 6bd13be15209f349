/**
 * Who may open an order's pages: the holder of the link's token (the browser that placed it, the
 * order's e-mails), the signed-in customer who placed it, or (to see it) an admin. Anyone else gets the
 * same 404 as for an order that does not exist.
 */
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { isOrderAccessTokenValid } from "#server/orders/order-access.ts";

const OrderId = z.uuid();

export type OrderAccess = { orderId: string; hasOrderLink: boolean; userId: string | null; isAdmin: boolean; token: string | null };

/** How the request may see the order (found by the caller, with its customer); null when it may not. */
export async function findOrderAccess(
  context: Readonly<RouterContextProvider>,
  request: Request,
  url: URL,
  rawOrderId: string,
  ownerUserId: string | null,
): Promise<OrderAccess | null> {
  const id = OrderId.safeParse(rawOrderId);
  if (!id.success) return null;
  const { env } = context.get(shopContext);
  const token = url.searchParams.get("t");
  if (isOrderAccessTokenValid(resolveAuthSecret(env), id.data, token))
    return { orderId: id.data, hasOrderLink: true, userId: null, isAdmin: false, token };
  const user = await getSessionUser(context, request);
  if (user && (user.role === "admin" || user.id === ownerUserId))
    return { orderId: id.data, hasOrderLink: false, userId: user.id, isAdmin: user.role === "admin", token: null };
  return null;
}

/** As findOrderAccess; 404 when the request may not see the order. */
export async function readOrderAccess(...args: Parameters<typeof findOrderAccess>): Promise<OrderAccess> {
  const access = await findOrderAccess(...args);
  if (!access) throw data(null, { status: 404 });
  return access;
}
