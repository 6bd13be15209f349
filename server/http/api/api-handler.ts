/**
 * Runs one /api request through its endpoint definition, in a fixed order: route and method, CORS,
 * size and type of the body (413/415 before anything is read), who is calling (401/403), the JSON
 * (400), the zod schemas (400), then the handler. Every refusal is `{ error: { code, message } }` in
 * the caller's language; a bug answers 500 with the same shape and is logged.
 */
import type { SessionUser } from "#server/accounts/session-user.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { requestContext, shopContext } from "#server/http/context.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { databaseTroubleOf } from "#server/http/database-gate.ts";
import { shopNowOf } from "#server/http/shop-clock.ts";
import { unavailableRetryAfterSeconds } from "#server/http/unavailable.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import {
  apiFailure,
  corsHeadersFor,
  corsPreflightHeaders,
  errorResponse,
  fieldErrorsOf,
  isSameOriginRequest,
  jsonResponse,
  localeOfRequest,
  maxApiBodyBytes,
  queryObjectOf,
  readJsonBody,
  type ApiFailure,
} from "./api-http";
import type { ApiEndpoint } from "./api-route";
import { apiEndpoints } from "./api-registry";

type Context = Parameters<typeof getSessionUser>[0];

/** The origins allowed to call from a browser: the shop's own, and those in settings (read only for foreign origins). */
async function allowedOriginsFor(origin: string | null, services: ShopServices): Promise<string[]> {
  const own = new URL(services.publicUrl).origin;
  if (!origin || origin === own) return [own];
  const { api } = await getSettings(services.db, ["api"]);
  return [own, ...api.allowedOrigins];
}

/** Who is calling: the bearer token when one is sent (never a cookie beside it), else the session cookie. */
async function identify(
  request: Request,
  endpoint: ApiEndpoint,
  context: Context,
  services: ShopServices,
): Promise<{ ok: true; user: SessionUser } | ApiFailure> {
  const authorization = request.headers.get("authorization");
  const headers = new Headers(request.headers);
  if (authorization !== null) {
    if (!/^Bearer \S+$/.test(authorization)) return apiFailure(401, "unauthorized");
    headers.delete("cookie");
  } else {
    if (!request.headers.get("cookie")) return apiFailure(401, "unauthorized");
    if (endpoint.method === "POST" && !isSameOriginRequest(request, services.publicUrl)) return apiFailure(403, "cross-site-request");
  }
  const user = await getSessionUser(context, new Request(request.url, { headers }));
  return user ? { ok: true, user } : apiFailure(401, "unauthorized");
}

/** The route modules' loader and action: `context` is the router context the Express entry built. */
export async function handleApiRequest(request: Request, context: Context): Promise<Response> {
  const services = context.get(shopContext);
  const { clientIp } = context.get(requestContext);
  const locale = localeOfRequest(request);
  const url = new URL(request.url);
  const cors = corsHeadersFor(request.headers.get("origin"), await allowedOriginsFor(request.headers.get("origin"), services));
  const fail = (failure: ApiFailure) => errorResponse(failure, locale, cors);

  const atPath = apiEndpoints.filter((candidate) => candidate.path === url.pathname);
  if (atPath.length === 0) return fail(apiFailure(404, "not-found"));
  const endpoint = atPath.find((candidate) => candidate.method === request.method || (candidate.method === "GET" && request.method === "HEAD"));
  if (!endpoint)
    return fail({ ...apiFailure(405, "method-not-allowed"), headers: { Allow: atPath.map((candidate) => candidate.method).join(", ") } });

  try {
    if (endpoint.method === "POST") {
      if (Number(request.headers.get("content-length") ?? "0") > maxApiBodyBytes) return fail(apiFailure(413, "payload-too-large"));
    }
    let user: SessionUser | null = null;
    if (endpoint.auth === "user") {
      const identified = await identify(request, endpoint, context, services);
      if (!identified.ok) return fail(identified);
      user = identified.user;
    }

    let body: unknown = undefined;
    if (endpoint.method === "POST") {
      const read = await readJsonBody(request);
      if (!read.ok) return fail(read);
      body = read.value;
    }
    if (endpoint.body) {
      const parsed = endpoint.body.safeParse(body, { reportInput: true });
      if (!parsed.success) return fail(apiFailure(400, "invalid-input", fieldErrorsOf(parsed.error, locale)));
      body = parsed.data;
    }
    let query: unknown = undefined;
    const queryValues = queryObjectOf(url);
    if (endpoint.query) {
      const parsed = endpoint.query.safeParse(queryValues, { reportInput: true });
      if (!parsed.success) return fail(apiFailure(400, "invalid-input", fieldErrorsOf(parsed.error, locale)));
      query = parsed.data;
    } else if (Object.keys(queryValues).length > 0) {
      return fail(
        apiFailure(
          400,
          "invalid-input",
          Object.fromEntries(Object.keys(queryValues).map((name) => [name, getTranslator(locale)("api.fields.unknown")])),
        ),
      );
    }

    const outcome = await endpoint.handler({ services, request, clientIp, locale, user, body, query, now: shopNowOf(services, request) });
    if (!outcome.ok) return fail(outcome);
    const response = jsonResponse(outcome.data, 200, cors);
    if (endpoint.auth === "user") response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch (error) {
    // The database away (a restart: the process's gate then answers the next calls at once) or too busy: 503.
    const { database } = context.get(requestContext);
    if ((database ? database.noteError(error) : databaseTroubleOf(error)) !== null) {
      return fail({ ...apiFailure(503, "service-unavailable"), headers: { "Retry-After": String(unavailableRetryAfterSeconds) } });
    }
    services.log.error({ err: error, path: url.pathname }, "api request failed");
    return fail(apiFailure(500, "internal-error"));
  }
}

/** CORS preflight (OPTIONS), answered by the Express layer: React Router routes never see OPTIONS. */
export async function answerApiPreflight(request: Request, services: ShopServices): Promise<Response> {
  const origin = request.headers.get("origin");
  const allowed = await allowedOriginsFor(origin, services);
  if (!origin || !allowed.includes(origin))
    return errorResponse(apiFailure(403, "forbidden"), localeOfRequest(request), new Headers({ Vary: "Origin" }));
  const headers = corsHeadersFor(origin, allowed);
  for (const [name, value] of Object.entries(corsPreflightHeaders)) headers.set(name, value);
  return new Response(null, { status: 204, headers });
}
