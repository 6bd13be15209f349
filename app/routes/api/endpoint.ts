import { handleApiRequest } from "#server/http/api/api-handler.ts";
import type { Route } from "./+types/endpoint";

/**
 * Every call of the original client (docs/rules.md#http-api) under /api (server/http/api/api-registry.ts lists them); unknown paths
 * get a JSON 404 rather than the shop's HTML page. /api/auth/* and the Stripe webhook have their own routes.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return handleApiRequest(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleApiRequest(request, context);
}
