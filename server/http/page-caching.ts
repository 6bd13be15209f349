/**
 * Which answers a browser or a shared cache may keep. Every page, `.data` and resource answer is
 * `private, no-store` unless its route is listed here as the same for every visitor, or it set its own
 * Cache-Control (robots.txt, the sitemap, the OpenAPI document). Personal is the default, so a new
 * route that shows an account, a cart or an order cannot be forgotten.
 */
import type { MiddlewareFunction } from "react-router";

/**
 * Route patterns (app/routes.ts, as React Router reports them: "en?/shop") whose content is the catalogue or a fixed
 * text: they keep the browser's ordinary caching (back/forward cache included).
 */
export const sharedPagePatterns: ReadonlySet<string> = new Set(
  [
    "",
    "about",
    "contact",
    "centroassistenza",
    "privacy",
    "cookie-policy",
    "api/docs",
    "shop",
    "shop-grid-standard",
    "categoria/:category",
    "sottocategoria/:subcategory",
    "marchi",
    "marchi/:brand",
    "search/suggest",
    "product/:id",
    "product/:id/quick-view",
    "lista-nascita",
  ].map((page) => (page ? `en?/${page}` : "en?")),
);

export const personalCacheControl = "private, no-store";

/** Root middleware: the rule above on every answer React Router gives (documents, `.data`, resource routes). */
export const personalPagesNotStored: MiddlewareFunction<Response> = async ({ pattern }, next) => {
  const response = await next();
  if (!sharedPagePatterns.has(pattern) && !response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", personalCacheControl);
  }
  return response;
};
