import { authHeaders } from "#server/accounts/auth-request.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/auth";

/**
 * better-auth's own endpoints under /api/auth/* (sign-in, sign-up, sessions, OIDC callbacks).
 * The client address Express computed (TRUST_PROXY aware) goes in with the request, replacing any
 * value the client sent, so better-auth's and the shop's login limits count the real address.
 */
function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const withClientIp = new Request(request, { headers: authHeaders(request, context.get(requestContext).clientIp) });
  return context.get(shopContext).auth.handler(withClientIp);
}

export const loader = handle;
export const action = handle;
