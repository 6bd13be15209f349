import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * Content-Security-Policy without inline scripts unless nonced: React Router's hydration
 * scripts carry the per-request nonce (app/entry.server.tsx reads it from res.locals). A page kept for
 * every visitor (page-cache.ts) cannot carry a per-request nonce: it lists its inline scripts' hashes.
 */
export function buildContentSecurityPolicy(nonce: string, extraFormActions: string[] = []) {
  return buildPolicy([`'nonce-${nonce}'`], extraFormActions);
}

/** The policy of a page rendered without a nonce: each inline script allowed by its SHA-256 (`'sha256-…'`). */
export function buildHashedContentSecurityPolicy(scriptHashes: readonly string[], options: { https: boolean; extraFormActions: string[] }) {
  const csp = buildPolicy(scriptHashes, options.extraFormActions);
  return options.https ? csp : withoutUpgrade(csp);
}

function withoutUpgrade(csp: string) {
  return csp.replace("; upgrade-insecure-requests", "");
}

function buildPolicy(scriptSources: readonly string[], extraFormActions: string[]) {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(" "),
    // React renders style attributes; no inline <style> elements are used.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Stripe Checkout is reached by a redirect after our own form posts.
    ["form-action 'self'", "https://checkout.stripe.com", ...extraFormActions].join(" "),
    "frame-ancestors 'none'",
    "upgrade-insecure-requests",
  ].join("; ");
}

export function securityHeaders(options: { https: boolean; formActions: () => string[] }) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    let csp = buildContentSecurityPolicy(nonce, options.formActions());
    if (!options.https) csp = withoutUpgrade(csp);
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
    if (options.https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}

/**
 * `'sha256-…'` sources of the inline scripts of an HTML page, in order, once each. JSON-LD blocks are data,
 * never run, so CSP does not apply to them.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc=/i.test(attributes!) || attributes!.includes("application/ld+json")) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(content!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
