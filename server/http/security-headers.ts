import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * Content-Security-Policy without inline scripts unless nonced: React Router's hydration scripts carry
 * the per-request nonce (app/entry.server.tsx reads it from the load context). A page kept for every
 * visitor (page-cache.ts) cannot carry a per-request nonce: it lists its inline scripts' hashes.
 */

export type PolicyOptions = { https: boolean; formActions: () => string[] };

/**
 * The policy with these inline script sources allowed: none, a page's nonce, or (a page rendered without a
 * nonce) each inline script's SHA-256 (`'sha256-…'`).
 */
export function contentSecurityPolicy(scriptSources: readonly string[], options: PolicyOptions) {
  const csp = buildPolicy(scriptSources, options.formActions());
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

/**
 * Every answer's security headers. Its policy runs no inline script: the answers that have some are pages,
 * which `allowNoncedScripts` gives their own, and kept pages, which list their hashes.
 */
export function securityHeaders(options: PolicyOptions) {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Content-Security-Policy", contentSecurityPolicy([], options));
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
 * A page about to be rendered for this request: a fresh nonce, and the policy that allows the scripts
 * carrying it. Made only here, so an answer given from the page cache or a file costs no random bytes.
 */
export function allowNoncedScripts(res: Response, options: PolicyOptions): string {
  const nonce = crypto.randomBytes(16).toString("base64");
  res.setHeader("Content-Security-Policy", contentSecurityPolicy([`'nonce-${nonce}'`], options));
  return nonce;
}

/**
 * `'sha256-…'` sources of the inline scripts of an HTML page, in order, once each. JSON-LD blocks are data,
 * never run, so CSP does not apply to them.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, content] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    // Data blocks (JSON-LD, the page's personal part) are never run: no hash needed, none that changes per person.
    if (/\ssrc=/i.test(attributes!) || /type="application\/(ld\+)?json"/.test(attributes!)) continue;
    hashes.add(`'sha256-${crypto.createHash("sha256").update(content!, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
