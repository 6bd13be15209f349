import { openAuthMethodsOf } from "#server/accounts/auth-endpoints.ts";
import { authHeaders } from "#server/accounts/auth-request.ts";
import { apiFailure, errorResponse, localeOfRequest } from "#server/http/api/api-http.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/auth";

const authBasePath = "/api/auth";

/**
 * better-auth's own endpoints under /api/auth/*, only those of server/accounts/auth-endpoints.ts
 * (sign-in for API clients, sign-out, the OIDC callback); any other path is a JSON 404, a wrong
 * method a 405. The client address Express computed (TRUST_PROXY aware) goes in with the request,
 * replacing any value the client sent, so better-auth's and the shop's login limits count the real address.
 */
function handle({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  const { pathname } = new URL(request.url);
  const methods = openAuthMethodsOf(pathname.slice(authBasePath.length));
  const locale = localeOfRequest(request);
  if (!methods) return errorResponse(apiFailure(404, "not-found"), locale);
  if (!methods.includes(request.method))
    return errorResponse(apiFailure(405, "method-not-allowed"), locale, new Headers({ Allow: methods.join(", ") }));
  const withClientIp = new Request(request, { headers: authHeaders(request, context.get(requestContext).clientIp) });
  return context.get(shopContext).auth.handler(withClientIp);
}

export const loader = handle;
export const action = handle;
