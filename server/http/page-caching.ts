/**
 * Which answers a browser or a shared cache may keep. Every page, `.data` and resource answer is
 * `private, no-store` unless its route is listed here as the same for every visitor, or it set its own
 * Cache-Control (robots.txt, the sitemap, the OpenAPI document). Personal is the default, so a new
 * route that shows an account, a cart or an order cannot be forgotten. Whatever the route, an answer to a
 * request that says who is asking is private, and a visitor's shared answer names what it varies by
 * (`markPersonalAnswers`, docs/decisions/0083-personal-answers-private.md).
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
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

/** Set by a browser running the shop's scripts (`js=1`): see `runsScripts`. */
export const jsCookieName = "js";

/**
 * The version of the personal part the browser keeps, which its scripts change after each change she makes
 * (app/lib/personal-store.ts): it names no one, as `js`.
 */
export const personalVersionCookieName = "pv";

/** Root middleware: the rule above on every answer React Router gives (documents, `.data`, resource routes). */
export const personalPagesNotStored: MiddlewareFunction<Response> = async ({ pattern }, next) => {
  const response = await next();
  if (!sharedPagePatterns.has(pattern) && !response.headers.has("Cache-Control")) {
    response.headers.set("Cache-Control", personalCacheControl);
  }
  return response;
};

/**
 * Cookies that choose how a page is shown, not whose it is: the display currency, and `js` and `pv`, which a
 * browser that runs the shop's scripts sets (app/lib/personal-store.ts). A visitor may send them.
 */
export const preferenceCookies: ReadonlySet<string> = new Set(["currency", jsCookieName, personalVersionCookieName]);

/**
 * The browser runs the shop's scripts (its `js` cookie): it fetches the personal part of a page on its own
 * (`/personal`), so a kept page serves her as it is (decision 0095).
 */
export function runsScripts(headers: IncomingHttpHeaders): boolean {
  return (headers.cookie ?? "").split(";").some((part) => part.trim() === `${jsCookieName}=1`);
}

/**
 * The request says who is asking: a bearer token, or any cookie but the preferences (a session, a cart, saved
 * items, or one the shop does not know, which is treated as personal to be safe).
 */
export function saysWhoIsAsking(headers: IncomingHttpHeaders): boolean {
  if (headers.authorization !== undefined) return true;
  return (headers.cookie ?? "").split(";").some((part) => {
    const name = part.slice(0, part.includes("=") ? part.indexOf("=") : undefined).trim();
    return name !== "" && !preferenceCookies.has(name);
  });
}

/**
 * Express, on every answer that reads the database (pages, `.data`, resource routes, the API, the page
 * cache's, the errors'), as its headers are written:
 * - asked by someone (`saysWhoIsAsking`), or setting a cookie: `private`, and `no-store` unless the route
 *   declared it `public` (the same for everyone: robots.txt, search suggestions), whose freshness the
 *   browser alone may then keep;
 * - a visitor's answer a shared cache may keep: `Vary` on the cookie (the display currency) and on the
 *   credentials, so that no cache gives it to a customer or a visitor in another currency.
 */
export const markPersonalAnswers: RequestHandler = (req, res, next) => {
  const personal = saysWhoIsAsking(req.headers);
  beforeHeadersOf(res, () => {
    noteChangedPersonalPart(req, res);
    const cacheControl = String(res.getHeader("Cache-Control") ?? "");
    if (personal || res.hasHeader("Set-Cookie")) {
      const declaredPublic = /(^|,)\s*public\s*(,|$)/i.test(cacheControl) && !res.hasHeader("Set-Cookie");
      res.setHeader("Cache-Control", declaredPublic ? cacheControl.replace(/\bpublic\b/i, "private") : personalCacheControl);
    } else if (!/\b(private|no-store)\b/i.test(cacheControl)) {
      res.vary("Cookie");
      res.vary("Authorization");
    }
  });
  next();
};

/** The answer of `/personal` itself: the part it gives is read after the cookies it clears (a flash toast read). */
export const personalPartPath = /^(\/en)?\/personal$/;
/** The currency's post changes only its own cookie: when it does, the cookie rule below notes it; a refused one changes nothing. */
const preferencePostPath = /^(\/en)?\/currency$/;

/**
 * A post from a browser (a cart, a list, a sign-in) or an answer that sets a cookie (a session begun or ended, a
 * new cart) may change her personal part: a new `pv` tells the browser's copy to be fetched again (decision 0095).
 */
function noteChangedPersonalPart(req: Parameters<RequestHandler>[0], res: ServerResponse) {
  const changes = (req.method === "POST" && !preferencePostPath.test(req.path)) || res.hasHeader("Set-Cookie");
  if (!changes || req.headers.authorization !== undefined || personalPartPath.test(req.path)) return;
  const cookies = [res.getHeader("Set-Cookie") ?? []].flat().map(String);
  if (cookies.some((cookie) => cookie.startsWith(`${personalVersionCookieName}=`))) return;
  // Secure as the shop's own cookies of this answer are (a shop on https), or when the request came over https.
  const secure = req.secure || cookies.some((cookie) => /;\s*secure\b/i.test(cookie)) ? "; Secure" : "";
  const version = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  res.setHeader("Set-Cookie", [...cookies, `${personalVersionCookieName}=${version}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`]);
}

/** Runs `apply` just before the answer's headers are written (headers given to writeHead itself included). */
function beforeHeadersOf(res: ServerResponse, apply: () => void) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    const headers = args.at(-1);
    if (headers && typeof headers === "object" && !Array.isArray(headers)) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value as string | string[]);
      args.pop();
    }
    apply();
    return writeHead(...args);
  };
}
