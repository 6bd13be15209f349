/** The guarantee pages' edge: the order id of the address, and who asks (her session, or the order link's token). */
import { data, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { shopContext } from "#server/http/context.ts";
import type { ClaimLinks } from "#server/guarantee/claims.service.ts";
import { reviewerProofOf } from "#app/routes/reviews/review-request.server.ts";

const OrderParams = z.object({ orderId: z.uuid() });

export async function claimantOf(context: Readonly<RouterContextProvider>, request: Request, url: URL, params: unknown) {
  const parsed = OrderParams.safeParse(params);
  if (!parsed.success) throw data(null, { status: 404 });
  const proof = await reviewerProofOf(context, request, url, parsed.data.orderId);
  return { orderId: parsed.data.orderId, proof };
}

export function claimLinksOf(context: Readonly<RouterContextProvider>): ClaimLinks {
  const { env, publicUrl } = context.get(shopContext);
  return { publicUrl, secret: resolveAuthSecret(env) };
}
