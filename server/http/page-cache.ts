/**
 * Visitors' pages kept whole (docs/decisions/0074-page-cache-for-visitors.md). A GET with no personal
 * cookie and no credentials, for a route the same for every visitor (page-caching.ts), is rendered without
 * a nonce, read whole, and answered from its bytes; when it is a 200 that sets no cookie it is kept under
 * its address and display currency, and given again while the database's versions and the clock say it
 * still holds. Every request reads the versions (one query), so a change made through any process is seen
 * at the next request; each process keeps its own pages. The route manifest that lazy route discovery asks
 * for after each page is kept the same way, for anyone who asks (decision 0081). A signed-in customer, or a
 * visitor with a cart, is given a kept page with her personal regions filled in when nothing else on it
 * depends on who she is (app/lib/personal-fill.server.tsx, decision 0076); when her browser runs the shop's
 * scripts (its `js` cookie) she is given the kept page as it is, and her browser fetches her part (decision 0095).
 */
import type { NextFunction, Request, Response } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { readCurrencyCookie } from "#server/currency/rates.ts";
import type { Db } from "#server/db/client.ts";
import { preferenceCookies, runsScripts, saysWhoIsAsking, sharedPagePatterns } from "./page-caching";
import { createPageStore, etagOf, keepPage, plainBytesOf, type KeptPage, type PageStore } from "./page-store";
import { readContentVersions, settleMs } from "#server/catalog/catalogue-cache.ts";
import { readContentState } from "./page-content-watch";
import { nextClockChange, offerScopeOf, type OfferScope } from "./page-versions";
import { contentSecurityPolicy, inlineScriptHashes, type PolicyOptions } from "./security-headers";
import type { PageFiller } from "./page-filler";
import { createRendersUnderWay, renderWaitMs, type RenderClaim } from "./page-renders";

/**
 * Fill plans held (see createPageCache). Holding every kept page's raised one process's peak under the mixed
 * load of bench/memory.mjs by 10-15 MB, past the 300 MB target (297-307 MB); with 64, 285-294 MB against
 * 292-299 MB for the build before them (decision 0076).
 */
const maxFillPlans = 64;

/** 32 MiB: some 1,300 listings of 25 KB in brotli (more gzip bytes for the few asked for in gzip). */
export const defaultPageCacheBytes = 32 * 1024 * 1024;

/** A render of a visitor's page waiting for the page queue: what `renderVisitorPage` needs. */
export type VisitorPage = {
  key: string;
  versions: string;
  now: Date;
  request: globalThis.Request;
  /** This render, which visitors asking meanwhile wait for; null when they do not (her wait for another's ran out). */
  claim: RenderClaim<KeptPage> | null;
  /** False just after the versions moved (`settleMs`, server/catalog/catalogue-cache.ts). */
  keepable: boolean;
  /** Rendered as a visitor's page to fill in for the customer asking (`request` is the visitor's). */
  forCustomer: boolean;
  /** Whose offers' ends it is kept until. */
  offers: OfferScope;
};

/**
 * Renders one request the way React Router's Express adapter does, with this request's load context; with
 * what the render left for filling the page in for a customer.
 */
export type RenderPage = (request: globalThis.Request, req: Request) => Promise<{ response: globalThis.Response; fillSource?: unknown }>;

/**
 * A GET for a page that could be a kept one filled in: a document (`.data` carries the personal part in the
 * root's data, and resource routes have no regions), no bearer token (the API's), no moved clock.
 */
function isFillableRequest(req: Request): boolean {
  return req.method === "GET" && !req.path.endsWith(".data") && req.headers.authorization === undefined && req.headers["x-test-clock"] === undefined;
}

/**
 * A GET of a document or `.data` from a browser that runs the shop's scripts (`runsScripts`), without a bearer
 * token or a moved clock: her personal part comes on its own (`/personal`), the page is the visitor's.
 */
function isSharedForScripts(req: Request): boolean {
  return req.method === "GET" && req.headers.authorization === undefined && req.headers["x-test-clock"] === undefined && runsScripts(req.headers);
}

/** Kept routes that answer data, not a page: nothing to fill in. */
const resourcePatterns = new Set(["en?/search/suggest", "en?/product/:id/quick-view"]);

/** Nothing in the request says who is asking: no credentials, no cookie but preferences, no moved clock. */
export function isVisitorRequest(req: Request): boolean {
  return req.method === "GET" && req.headers["x-test-clock"] === undefined && !saysWhoIsAsking(req.headers);
}

/** The route pattern of a path ("en?/shop"), as React Router's middleware reports it; null when none matches. */
export function routePatternMatcher(routes: ServerBuild["routes"]): (pathname: string) => string | null {
  const tree = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes).flatMap((route) =>
      route && route.parentId === parentId
        ? [
            route.index
              ? { id: route.id, path: route.path, index: true, caseSensitive: route.caseSensitive }
              : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: tree(route.id) },
          ]
        : [],
    );
  const routeTree = tree(undefined);
  // matchRoutes flattens and ranks the whole tree at every call (over half of a kept page's CPU): each
  // path's pattern is remembered, up to a bound, since the routes never change in a running process.
  const known = new Map<string, string | null>();
  return (pathname) => {
    let pattern = known.get(pathname);
    if (pattern === undefined) {
      if (known.size >= maxRememberedPaths) known.clear();
      pattern = patternOfPath(routeTree, pathname);
      known.set(pathname, pattern);
    }
    return pattern;
  };
}

/** Enough for every page a shop of some thousand products and their languages is asked for. */
const maxRememberedPaths = 20_000;

function patternOfPath(routeTree: RouteObject[], pathname: string): string | null {
  const page = pathname.endsWith("/_.data") ? pathname.slice(0, -"_.data".length) : pathname.replace(/\.data$/, "");
  const matches = matchRoutes(routeTree, page);
  if (!matches) return null;
  const pattern = matches
    .map((match) => match.route.path)
    .filter(Boolean)
    .join("/")
    .replace(/\/\/+/g, "/");
  return pattern || "/";
}

/**
 * Routes kept: the shared ones, but the gift-list search, whose answers depend on the gift lists and on
 * the asker's address (its code lookups are rate-limited per address).
 */
const keptPatterns = new Set([...sharedPagePatterns].filter((pattern) => pattern !== "en?/lista-nascita"));

export const isKeptPattern = (pattern: string) => keptPatterns.has(pattern);

/**
 * The routes a page's links lead to, which React Router's lazy route discovery asks for after every page
 * (`/__manifest?paths=...&version=...`): the same for everyone for a given build, and costlier to answer
 * than the kept page itself (decision 0081).
 */
export const routeManifestPath = "/__manifest";

/** The URL React Router sees, as its Express adapter builds it (the proxy's host and protocol when trusted). */
function requestUrlOf(req: Request): string {
  const [, forwardedPort] = req.app.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort].map((value) => Number.parseInt(value ?? "", 10)).find((value) => Number.isSafeInteger(value));
  const host = `${req.hostname.split(/[\\/?#@]/)[0] || "localhost"}${port ? `:${port}` : ""}`;
  return new URL(`${req.protocol}://${host}${req.originalUrl}`).href;
}

export function fetchHeadersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The request as a visitor would send it: no credentials, no cookie but those that choose how a page is shown. */
function visitorHeadersOf(req: Request): Headers {
  const headers = fetchHeadersOf(req);
  headers.delete("authorization");
  const cookie = (req.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => preferenceCookies.has(part.slice(0, part.indexOf("="))));
  if (cookie.length > 0) headers.set("cookie", cookie.join("; "));
  else headers.delete("cookie");
  return headers;
}

/** Headers not kept with a page: the connection's, the encoding's, and the ETag `keepPage` makes. */
const unkeptHeaders = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "etag"]);

export type PageCacheOptions = {
  db: Db;
  maxBytes: number;
  /** The kept pages' Content-Security-Policy: where forms may post, and whether the shop is on https. */
  policy: PolicyOptions;
  /** The pattern of a path, once the build is read. */
  patternOf: Promise<(pathname: string) => string | null>;
  /** Given, customers' pages are filled in from visitors' kept ones when they can be (page-filler.ts). */
  filler?: Promise<PageFiller | null>;
  /** Fill plans held, `maxFillPlans` unless given. */
  maxFillPlans?: number;
};

export type PageCache = ReturnType<typeof createPageCache>;

export function createPageCache({ db, maxBytes, policy, patternOf, filler: givenFiller, maxFillPlans: plansHeld = maxFillPlans }: PageCacheOptions) {
  const store = createPageStore(maxBytes);
  // How to fill in the kept pages last kept or filled, by key and least recently used first: a plan holds its
  // render's root data and regions' elements (with what their props close over, the product page's data),
  // so only so many are held; a customer asking for a kept page whose plan is gone gets it rendered anew.
  const fillPlans = new Map<string, { kept: KeptPage; plan: unknown }>();
  // Kept pages that cannot be filled in (a region not found once): her page is rendered.
  const unfillable = new WeakSet<KeptPage>();
  const planOf = (key: string, kept: KeptPage): unknown => {
    const held = fillPlans.get(key);
    if (held?.kept !== kept) return undefined;
    fillPlans.delete(key);
    fillPlans.set(key, held);
    return held.plan;
  };
  const holdPlan = (key: string, kept: KeptPage, plan: unknown) => {
    fillPlans.delete(key);
    fillPlans.set(key, { kept, plan });
    if (fillPlans.size > plansHeld) fillPlans.delete(fillPlans.keys().next().value!);
  };
  let filler: PageFiller | null = null;
  const fillerReady = givenFiller?.then((given) => (filler = given));
  // Renders under way, by key and versions: visitors asking for the same page meanwhile wait for it, bounded.
  const renders = createRendersUnderWay<KeptPage>();
  /**
   * Counts since start: pages given from the store, visitors' pages rendered, how many of those were kept,
   * and kept pages given filled in to a customer.
   */
  const counts = { given: 0, rendered: 0, kept: 0, filled: 0 };

  /**
   * Before the page queue: a kept page is sent at once, or filled in for the customer asking; a visitor's
   * page to render (for a visitor, or to fill in for a customer) is noted for `renderVisitorPage`.
   */
  async function serveKept(req: Request, res: Response, next: NextFunction) {
    // The route manifest names no one's data: kept for every GET, with or without a session.
    const isRouteManifest = req.method === "GET" && req.path === routeManifestPath;
    let forCustomer = false;
    let isVisitor = true;
    let pattern: string | null = null;
    if (!isRouteManifest) {
      isVisitor = isVisitorRequest(req);
      // A customer whose browser runs scripts fetches her part on her own: the visitor's page as it is (0095).
      const asVisitor = !isVisitor && isSharedForScripts(req);
      if (!isVisitor && !asVisitor && !isFillableRequest(req)) return next();
      await fillerReady;
      if (!isVisitor && !asVisitor && !filler) return next();
      pattern = (await patternOf)(req.path);
      if (pattern === null || !isKeptPattern(pattern)) return next();
      if (!isVisitor && resourcePatterns.has(pattern)) return next();
      forCustomer = !isVisitor && !asVisitor;
    }
    const url = requestUrlOf(req);
    const key = `${readCurrencyCookie(req.headers.cookie ?? null)} ${url}`;
    const now = new Date();
    const read = await readContentVersions(db);
    // Stock, settings, rates: only what the page shows drops it (decision 0093).
    const content = await readContentState(db, read.pageContent);
    // Unexplained, no kept page matches, not even after the page queue.
    const versions = content.explained ? `${read.catalogue}.${content.versionOf(req.path)}` : "unexplained";
    const keepable = content.explained && Date.now() - read.catalogueSeenAt >= settleMs;
    const renderKey = `${versions} ${key}`;
    // Just after the versions moved nothing is kept: her page is rendered rather than a visitor's for her.
    if (forCustomer && !keepable) return next();
    // A kept page, or the one rendered meanwhile by another request; else this request renders it for the
    // others asking meanwhile, or, once it has waited `renderWaitMs` for another's render, for itself alone.
    // While a change to the page content is not explained yet, neither: it may be committed already.
    const deadline = Date.now() + renderWaitMs;
    let claim: RenderClaim<KeptPage> | null = null;
    while (content.explained) {
      let kept = store.get(key, versions, now.getTime());
      // For a customer, a kept page without its plan is as good as none: it is rendered anew, with one.
      if (forCustomer && kept && planOf(key, kept) === undefined && !unfillable.has(kept)) kept = undefined;
      if (!kept) {
        const rendered = await renders.waitFor(renderKey, deadline);
        if (rendered === "none") claim = renders.claim(renderKey, res);
        if (rendered === "none" || rendered === "late") break;
        // A render that gave no page: look again (kept meanwhile, or claimed by another waiter).
        if (rendered === null) continue;
        kept = rendered;
      }
      if (now.getTime() >= kept.expiresAt) break;
      // A page that cannot be filled in for her: hers is rendered.
      if (!(await giveKept(req, res, url, key, kept, forCustomer))) next();
      return;
    }
    // The fetch Request is built only for a page to render: a kept page is sent without it. For a customer it
    // is a visitor's request, the cookies that choose how a page is shown only.
    let request: globalThis.Request;
    try {
      request = new globalThis.Request(url, { method: "GET", headers: isVisitor ? fetchHeadersOf(req) : visitorHeadersOf(req) });
    } catch (error) {
      claim?.settle(null);
      throw error;
    }
    res.locals.visitorPage = {
      key,
      versions,
      now,
      request,
      claim,
      keepable,
      forCustomer,
      offers: offerScopeOf(pattern, req.path),
    } satisfies VisitorPage;
    next();
  }

  /** A kept page as it is to a visitor, filled in for a customer; false when hers is to be rendered instead. */
  async function giveKept(req: Request, res: Response, url: string, key: string, kept: KeptPage, forCustomer: boolean): Promise<boolean> {
    if (forCustomer) return sendFilled(req, res, url, kept, planOf(key, kept));
    counts.given += 1;
    await sendPage(req, res, kept, store, key);
    return true;
  }

  /**
   * The kept page filled in for the customer asking, when nothing on it outside her regions depends on her:
   * sent, true. Otherwise false, nothing sent: her page is to be rendered.
   */
  async function sendFilled(req: Request, res: Response, url: string, kept: KeptPage, plan: unknown, html?: string): Promise<boolean> {
    if (plan === undefined || plan === null || !filler) return false;
    const { part, headers } = await filler.readPersonalPart(new globalThis.Request(url, { headers: fetchHeadersOf(req) }));
    // A cookie to set (a flash toast read, a forged cart) or an answer that differs: her page is rendered.
    if (headers.has("set-cookie") || !filler.answersAsVisitor(plan, part)) return false;
    const filled = filler.fillPage(plan, html ?? (await plainBytesOf(kept)).toString("utf8"), part);
    counts.filled += 1;
    // As her rendered page: the kept page's headers (its CSP allows the same scripts), compressed by compression().
    setHeaders(res, kept.headers);
    res.status(kept.status).end(filled);
    return true;
  }

  /**
   * After the page queue: the page rendered without a nonce, kept when it may be, and sent from its bytes, or
   * filled in for the customer it was rendered for. False when nothing was sent: her own page is to be rendered.
   */
  async function renderVisitorPage(page: VisitorPage, req: Request, res: Response, render: RenderPage): Promise<boolean> {
    const settle = (kept: KeptPage | null) => page.claim?.settle(kept);
    // Gone while the request waited its turn, as the page queue drops it: nobody would read the page.
    if (res.closed) {
      settle(null);
      return true;
    }
    // Kept meanwhile by another visitor's render (hers was not waited for, or came after it): given as kept.
    const keptMeanwhile = store.get(page.key, page.versions, Date.now());
    if (keptMeanwhile && (!page.forCustomer || planOf(page.key, keptMeanwhile) !== undefined)) {
      settle(keptMeanwhile);
      return giveKept(req, res, page.request.url, page.key, keptMeanwhile, page.forCustomer);
    }
    page.claim?.begin();
    try {
      const [{ response, fillSource }, expiresAt] = await Promise.all([render(page.request, req), nextClockChange(db, page.now, page.offers)]);
      const body = Buffer.from(await response.arrayBuffer());
      counts.rendered += 1;
      const headers = [...response.headers].filter(([name]) => !unkeptHeaders.has(name));
      const isHtml = response.headers.get("content-type")?.startsWith("text/html") ?? false;
      const csp = contentSecurityPolicy(isHtml ? inlineScriptHashes(body.toString("utf8")) : [], policy);
      headers.push(["content-security-policy", csp]);
      const cacheControl = response.headers.get("cache-control") ?? "";
      const keepable = page.keepable && response.status === 200 && !response.headers.has("set-cookie") && !/no-store|private/.test(cacheControl);
      if (!keepable) {
        settle(null);
        if (page.forCustomer) return false;
        sendRendered(res, { status: response.status, headers, body });
        return true;
      }
      const html = isHtml ? body.toString("utf8") : "";
      // Rendered for a customer whose kept page had lost its plan (a customer browsing more pages than plans
      // are held): when the render gave the kept bytes again, only its plan is new; the page is not kept and
      // compressed again (twice: at once and strongly in the background), a visitor's page's dearest part.
      const keptBefore = page.forCustomer ? store.get(page.key, page.versions, Date.now()) : undefined;
      if (keptBefore && keptBefore.status === response.status && keptBefore.etag === etagOf(body)) {
        const plan = filler && isHtml && fillSource !== undefined ? await filler.planFill(html, page.request.url, fillSource) : null;
        if (plan !== null) holdPlan(page.key, keptBefore, plan);
        else unfillable.add(keptBefore);
        settle(keptBefore);
        return sendFilled(req, res, page.request.url, keptBefore, plan, html);
      }
      const kept = await keepPage({ status: response.status, headers, body }, { versions: page.versions, expiresAt });
      const plan = filler && isHtml && fillSource !== undefined ? await filler.planFill(html, page.request.url, fillSource) : null;
      if (plan !== null) holdPlan(page.key, kept, plan);
      else unfillable.add(kept);
      store.set(page.key, kept);
      counts.kept += 1;
      settle(kept);
      if (page.forCustomer) return sendFilled(req, res, page.request.url, kept, plan, html);
      await sendPage(req, res, kept, store, page.key);
      return true;
    } catch (error) {
      settle(null);
      throw error;
    }
  }

  return { serveKept, renderVisitorPage, counts, size: store.size, rendersUnderWay: renders.size };
}

function setHeaders(res: Response, headers: [string, string][]) {
  const byName = new Map<string, string[]>();
  for (const [name, value] of headers) byName.set(name, [...(byName.get(name) ?? []), value]);
  for (const [name, values] of byName) res.setHeader(name, values.length === 1 ? values[0]! : values);
}

/** A kept page in the encoding the browser prefers, or 304 when it has these bytes already. */
async function sendPage(req: Request, res: Response, page: KeptPage, store: PageStore, key: string) {
  setHeaders(res, page.headers);
  res.setHeader("ETag", page.etag);
  res.vary("Accept-Encoding");
  const known = (req.headers["if-none-match"] ?? "").split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (known.includes(page.etag.replace(/^W\//, "")) || known.includes("*")) {
    res.status(304).end();
    return;
  }
  const encoding = preferredEncodingOf(req);
  const body = encoding === "br" ? page.br : encoding === "gzip" ? await store.gzipOf(key, page) : await plainBytesOf(page);
  if (encoding) res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(page.status).end(body);
}

/**
 * Brotli whenever it is accepted (browsers list gzip first at the same weight), else gzip, else none. No
 * Accept-Encoding at all is read as identity, as compression() does, not as "anything".
 */
function preferredEncodingOf(req: Request): "br" | "gzip" | null {
  if (req.headers["accept-encoding"] === undefined) return null;
  if (req.acceptsEncodings("br") === "br") return "br";
  return req.acceptsEncodings("gzip") === "gzip" ? "gzip" : null;
}

/** A visitor's page not kept (an error, a redirect, a 404, one setting a cookie): as rendered; compression() encodes it. */
function sendRendered(res: Response, rendered: { status: number; headers: [string, string][]; body: Buffer }) {
  setHeaders(res, rendered.headers);
  res.status(rendered.status).end(rendered.body);
}
