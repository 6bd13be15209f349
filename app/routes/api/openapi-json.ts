import { apiEndpoints } from "#server/api/api-registry.ts";
import { buildOpenApiDocument, type OpenApiDocument } from "#server/api/openapi.ts";
import { shopContext } from "#server/http/context.ts";
import type { Route } from "./+types/openapi-json";

let cached: { publicUrl: string; body: string } | undefined;

/** GET /api/openapi.json: OpenAPI 3.1, generated from the endpoints' zod schemas once per process. */
export function loader({ context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(shopContext);
  if (cached?.publicUrl !== publicUrl) cached = { publicUrl, body: JSON.stringify(buildOpenApiDocument(apiEndpoints, publicUrl) satisfies OpenApiDocument) };
  return new Response(cached.body, { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
