/**
 * OpenAPI 3.1 for /api, written from the endpoint definitions' own zod schemas (z.toJSONSchema):
 * there is no second description to keep in step. Named schemas (`.meta({ id })`) become
 * components; everything else is inlined.
 */
import { z } from "zod";
import { apiErrorCodes, maxApiBodyBytes } from "./api-http";
import { apiEndpoints } from "./api-registry";
import type { ApiEndpoint } from "./api-route";

type JsonSchema = Record<string, unknown>;

const ApiError = z
  .object({
    error: z.object({
      code: z.enum(apiErrorCodes),
      /** In the request's language (Accept-Language: it or en; Italian by default). */
      message: z.string(),
      /** Per field (path joined with dots), for invalid-input. */
      fields: z.record(z.string(), z.string()).optional(),
    }),
  })
  .meta({ id: "Error" });

const statusText: Record<number, string> = {
  200: "Success",
  400: "Malformed JSON (invalid-json), or fields missing, of the wrong type, unknown or refused (invalid-input)",
  401: "No valid bearer token or session (missing, expired, revoked or forged)",
  403: "A cookie-authenticated call that changes something, sent from another site (cross-site-request)",
  404: "Not found, or not the caller's",
  405: "Another method is expected",
  409: "Refused by the current state (a list with gifts, a closed list, stock that ran out...): the code says which",
  413: `Body over ${maxApiBodyBytes / 1024} KB`,
  415: "Body not sent as application/json",
  429: "Too many requests",
  500: "Unexpected error (logged)",
  503: "The card payment could not start (the order waits: the same idempotencyKey asks again)",
};

/**
 * The JSON Schema of `schema` as the document carries it: `io` "input" for what a client sends,
 * "output" for answers. `components` collects named schemas.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output", components: Record<string, JsonSchema> = {}): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = generated;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [
          key,
          key === "$ref" && typeof inner === "string" ? inner.replace("#/$defs/", "#/components/schemas/") : rewrite(inner),
        ]),
      );
    }
    return value;
  };
  for (const [id, definition] of Object.entries(defs)) components[componentName(id, io)] = rewrite(definition) as JsonSchema;
  const result = rewrite(root) as JsonSchema;
  return io === "input" ? renameRefs(result, defs) : result;
}

/** A named schema sent by clients may differ from its answer form (optional fields): it gets its own component. */
function componentName(id: string, io: "input" | "output") {
  return io === "input" ? `${id}Input` : id;
}

function renameRefs(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  let text = JSON.stringify(schema);
  for (const id of Object.keys(defs)) text = text.replaceAll(`"#/components/schemas/${id}"`, `"#/components/schemas/${componentName(id, "input")}"`);
  return JSON.parse(text) as JsonSchema;
}

function errorStatuses(endpoint: ApiEndpoint): number[] {
  const statuses = new Set<number>([400, 405, 500, ...endpoint.errors]);
  if (endpoint.method === "POST") [413, 415].forEach((status) => statuses.add(status));
  if (endpoint.auth === "user") [401, 403].forEach((status) => statuses.add(status));
  return [...statuses].sort((a, b) => a - b);
}

/** The OpenAPI operation of one endpoint (also what the reference page shows). */
function describeEndpoint(endpoint: ApiEndpoint, components: Record<string, JsonSchema>) {
  const errorRef = { $ref: "#/components/schemas/Error" };
  const query = endpoint.query ? jsonSchemaOf(endpoint.query, "input", components) : null;
  const queryProperties = (query?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((query?.required ?? []) as string[]);
  return {
    operationId: endpoint.path
      .replace(/^\/api\//, "")
      .replaceAll("/", "_")
      .replaceAll("-", "_"),
    summary: endpoint.summary,
    ...(endpoint.auth === "user" ? { security: [{ bearer: [] }, { sessionCookie: [] }] } : { security: [] }),
    parameters: [
      {
        name: "Accept-Language",
        in: "header",
        required: false,
        schema: { type: "string", examples: ["it", "en"] },
        description: "Language of names, texts and error messages (Italian by default).",
      },
      ...Object.entries(queryProperties).map(([name, schema]) => ({ name, in: "query", required: required.has(name), schema })),
    ],
    ...(endpoint.body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchemaOf(endpoint.body, "input", components) } } } }
      : {}),
    responses: {
      200: { description: statusText[200], content: { "application/json": { schema: jsonSchemaOf(endpoint.response, "output", components) } } },
      ...Object.fromEntries(
        errorStatuses(endpoint).map((status) => [
          status,
          { description: statusText[status] ?? "Error", content: { "application/json": { schema: errorRef } } },
        ]),
      ),
    },
  };
}

function buildOpenApiDocument(endpoints: readonly ApiEndpoint[], publicUrl: string) {
  const components: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = describeEndpoint(endpoint, components);
  }
  jsonSchemaOf(ApiError, "output", components);
  return {
    openapi: "3.1.0",
    info: {
      title: "Bimbi Felici API",
      version: "1.0.0",
      description:
        "The calls of the shop's original client. JSON only; bodies up to 100 KB; unknown fields are refused. " +
        "Authenticated calls send `Authorization: Bearer <token>` (the `set-auth-token` header of POST /api/auth/sign-in/email). " +
        'Errors are `{ "error": { "code", "message" } }` in the Accept-Language language.',
    },
    servers: [{ url: publicUrl }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "The token of POST /api/auth/sign-in/email (header set-auth-token)." },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description: "The shop's own pages only: state-changing calls must be same-origin.",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let built: { publicUrl: string; document: OpenApiDocument; json: string } | undefined;

/** The document of every /api endpoint and its JSON, written once per process: /api/openapi.json and /api/docs read it. */
export function getOpenApiDocument(publicUrl: string): { document: OpenApiDocument; json: string } {
  if (built?.publicUrl !== publicUrl) {
    const document = buildOpenApiDocument(apiEndpoints, publicUrl);
    built = { publicUrl, document, json: JSON.stringify(document) };
  }
  return built;
}
