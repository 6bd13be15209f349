/**
 * One way to write an /api endpoint (docs/rules.md#http-api): its method, path, who may call it and the zod
 * schemas of its query, body and answer. The same definition runs the request (handleApiRequest) and
 * writes the OpenAPI document (openapi.ts), so the documentation cannot drift from the checks.
 *
 *   const getCategoria = apiRoute({
 *     method: "POST", path: "/api/getCategoria", auth: "public", summary: "...",
 *     body: z.strictObject({ categoria: z.string() }), response: z.array(ClientProduct),
 *     handler: async ({ services, body, locale }) => ({ ok: true, data: [...] }),
 *   });
 */
import type { z } from "zod";
import type { Locale } from "#common/locale.ts";
import type { SessionUser } from "#server/accounts/session-user.ts";
import type { ShopServices } from "#server/shop-services.ts";
import type { ApiFailure } from "./api-http";

export type ApiAuth = "public" | "user";

export type ApiCall<Body, Query, Auth extends ApiAuth> = {
  services: ShopServices;
  request: Request;
  clientIp: string;
  locale: Locale;
  /** The signed-in person (bearer token or, from the shop's own pages, the session cookie). */
  user: Auth extends "user" ? SessionUser : null;
  body: Body;
  query: Query;
  now: Date;
};

export type ApiOutcome<Data> = { ok: true; data: Data } | ApiFailure;

type AnySchema = z.ZodType;

export type ApiDefinition<Auth extends ApiAuth, Body extends AnySchema, Query extends AnySchema, Response extends AnySchema> = {
  method: "GET" | "POST";
  /** Exactly as the original client spells it (docs/rules.md#http-api), under /api. */
  path: `/api/${string}`;
  auth: Auth;
  /** One line for the reference page, in English (the developers' language). */
  summary: string;
  /** Statuses other than 200 this endpoint may answer, besides the ones every endpoint may (400, 413, ...). */
  errors?: readonly number[];
  /** z.strictObject: unknown fields are refused. */
  body?: Body;
  query?: Query;
  response: Response;
  handler: (call: ApiCall<z.output<Body>, z.output<Query>, Auth>) => Promise<ApiOutcome<z.input<Response>>>;
};

/** An endpoint with its types erased, as the registry keeps it. */
export type ApiEndpoint = {
  method: "GET" | "POST";
  path: `/api/${string}`;
  auth: ApiAuth;
  summary: string;
  errors: readonly number[];
  body?: AnySchema;
  query?: AnySchema;
  response: AnySchema;
  handler: (call: ApiCall<unknown, unknown, ApiAuth>) => Promise<ApiOutcome<unknown>>;
};

export function apiRoute<
  Auth extends ApiAuth,
  Body extends AnySchema = z.ZodUndefined,
  Query extends AnySchema = z.ZodUndefined,
  Response extends AnySchema = AnySchema,
>(definition: ApiDefinition<Auth, Body, Query, Response>): ApiEndpoint {
  return { ...definition, errors: definition.errors ?? [] } as unknown as ApiEndpoint;
}
