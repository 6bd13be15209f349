import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * Content-Security-Policy without inline scripts unless nonced: React Router's hydration
 * scripts carry the per-request nonce (app/entry.server.tsx reads it from res.locals).
 */
export function buildContentSecurityPolicy(nonce: string, extraFormActions: string[] = []) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
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
    if (!options.https) csp = csp.replace("; upgrade-insecure-requests", "");
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
