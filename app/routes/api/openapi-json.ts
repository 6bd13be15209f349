import { getOpenApiDocument } from "#server/http/api/openapi.ts";
import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/openapi-json";

/** GET /api/openapi.json: OpenAPI 3.1, generated from the endpoints' zod schemas once per process. */
export function loader({ context }: Route.LoaderArgs) {
  const { json } = getOpenApiDocument(context.get(shopContext).publicUrl);
  return new Response(json, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
