/** The review pages' edge: who asks, read from the session and the order link's token. */
import type { RouterContextProvider } from "react-router";
import { resolveAuthSecret } from "#server/accounts/auth.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { isOrderAccessTokenValid } from "#server/orders/order-access.ts";
import type { ReviewerProof } from "#server/reviews/review.service.ts";

export async function reviewerProofOf(context: Readonly<RouterContextProvider>, request: Request, url: URL, orderId: string): Promise<ReviewerProof> {
  const { env } = context.get(shopContext);
  const user = await getSessionUser(context, request);
  return { userId: user?.id ?? null, hasOrderLink: isOrderAccessTokenValid(resolveAuthSecret(env), orderId, url.searchParams.get("t")) };
}
