/**
 * Cross-site posts to the resource routes that change something for the visitor (logout, the
 * currency switch). React Router refuses them for page actions (comparing Origin with the request's
 * own origin: docs/decisions/0024-load-faults-and-attacks.md) but not for resource routes, so
 * these apply the same rule: a browser posting from another site sends that site's Origin, or
 * Sec-Fetch-Site "cross-site"; either is refused. A post with neither is not a browser's.
 * (/api has its stricter rule for cookie calls: api-http.ts, isSameOriginRequest.)
 */
export function isCrossSiteRequest(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  return origin !== null && origin !== new URL(request.url).origin;
}
