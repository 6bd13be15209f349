/**
 * Which of better-auth's own endpoints answer over HTTP under /api/auth. Everything else the library
 * offers (update-user, delete-user, change-password, list-sessions, admin/*, ...) is closed: the shop's
 * pages reach those through `auth.api.*` on the server, behind their own forms, checks and audit rows.
 * An allow-list, so an endpoint a library upgrade adds stays closed. docs/decisions/0039-auth-endpoints-kept-open.md.
 */
import { oidcProviderId } from "./auth";

export type OpenAuthEndpoint = { path: string; methods: readonly ("GET" | "POST")[]; why: string };

export const openAuthEndpoints: readonly OpenAuthEndpoint[] = [
  { path: "/sign-in/email", methods: ["POST"], why: "API clients get their bearer token (OpenAPI document); login limits apply in the hooks" },
  { path: "/sign-out", methods: ["POST"], why: "API clients end their own token" },
  { path: `/callback/${oidcProviderId}`, methods: ["GET"], why: "the OpenID Connect provider sends the person back here" },
];

/** The allowed methods of `path` (relative to /api/auth), or null when the endpoint is closed. */
export function openAuthMethodsOf(path: string): readonly string[] | null {
  const normalised = path.replace(/\/+$/, "");
  return openAuthEndpoints.find((endpoint) => endpoint.path === normalised)?.methods ?? null;
}
