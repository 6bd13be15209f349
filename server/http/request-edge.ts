/**
 * What every request must be before a loader or an action sees it, checked once for every route:
 * a method the shop takes, a body of the kind its route reads (a form for pages, JSON for the API and
 * the auth library), within its size, well formed, and no control characters in any text (form
 * fields, JSON strings and keys, route parameters, the query). A refusal is a 4xx in the page's
 * language before anything is read from or written to the database: for a page, its error page
 * (app/root.tsx); for /api, `{ error: { code, message } }`; for other resource routes, a small page.
 * Why at the edge and not in each route's schema: docs/decisions/0036-refusals-at-the-edge.md.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { data, type ServerBuild } from "react-router";
import type { EdgeRefusal, EdgeRefusalData } from "#common/edge-refusal.ts";
import { localeOfPath, type Locale } from "#common/locale.ts";
import { apiEndpoints } from "#server/http/api/api-registry.ts";
import { errorResponse, localeOfRequest, maxApiBodyBytes, apiFailure, type ApiFailure } from "#server/http/api/api-http.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import { tidyRequestTarget } from "./same-site-path";
import { smallPageHtml } from "./unavailable";

/** Form posts of the pages (not uploads): far above any form of the shop, far below what would hurt. */
export const maxFormBodyBytes = 1024 * 1024;
/** Uploads of the back office (pictures, CSV): the routes apply their own, smaller limits with a message on the page. */
export const maxMultipartBodyBytes = 64 * 1024 * 1024;

/**
 * C0 controls but tab, LF and CR (a textarea sends them), DEL and the C1 controls: no text the shop
 * takes has them, PostgreSQL refuses NUL, and the others end up in logs and e-mails.
 */
const controlInText = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** In a URL nothing is multi-line: tab, CR and LF are refused too. */
const controlInUrl = /[\u0000-\u001F\u007F-\u009F]/;

export const hasControlCharacter = (text: string) => controlInText.test(text);

/** The methods a browser or an API client may use; anything else is 405 before React Router. */
const takenMethods = new Set(["GET", "HEAD", "POST", "OPTIONS"]);

const statusOf: Record<EdgeRefusal, number> = {
  "not-found": 404,
  "bad-request": 400,
  "too-deeply-nested": 400,
  "unsupported-media-type": 415,
  "payload-too-large": 413,
  "headers-too-large": 431,
  "method-not-allowed": 405,
};
const apiCodeOf = {
  "not-found": "not-found",
  "bad-request": "invalid-input",
  "too-deeply-nested": "too-deeply-nested",
  "unsupported-media-type": "unsupported-media-type",
  "payload-too-large": "payload-too-large",
  "headers-too-large": "headers-too-large",
  "method-not-allowed": "method-not-allowed",
} as const satisfies Record<EdgeRefusal, ApiFailure["code"]>;

function refusalTexts(locale: Locale, refusal: EdgeRefusal): EdgeRefusalData {
  const t = getTranslator(locale);
  if (refusal === "not-found") return { edgeRefusal: refusal, title: t("notFound.title"), message: t("notFound.body") };
  const message =
    refusal === "payload-too-large"
      ? "errors.tooLargeBody"
      : refusal === "headers-too-large"
        ? "errors.headersTooLargeBody"
        : refusal === "method-not-allowed"
          ? "errors.methodNotAllowedBody"
          : "errors.badRequestBody";
  return { edgeRefusal: refusal, title: t("errors.badRequestTitle"), message: t(message) };
}

const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

/** The methods a path takes, for the Allow header: the API registry's for its endpoints. */
function allowedMethodsOf(pathname: string): string {
  const registered = apiEndpoints.filter((endpoint) => endpoint.path === pathname).map((endpoint) => endpoint.method);
  if (registered.length === 0) return "GET, HEAD, POST";
  return [...new Set(registered.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method])))].join(", ");
}

/**
 * A refusal as a fetch Response: JSON for /api and for clients that ask for JSON (or send it to a
 * route that reads it), else a small page in the page's language.
 */
export function edgeRefusalResponse(request: Request, refusal: EdgeRefusal, readsJson = false): Response {
  const url = new URL(request.url);
  const extra: Record<string, string> = refusal === "method-not-allowed" ? { Allow: allowedMethodsOf(url.pathname) } : {};
  if (isApiPath(url.pathname) || wantsJson(request, readsJson)) {
    const locale = localeOfRequest(request);
    return errorResponse({ ...apiFailure(statusOf[refusal], apiCodeOf[refusal]), headers: extra }, locale);
  }
  const locale = localeOfPath(url.pathname);
  const texts = refusalTexts(locale, refusal);
  return new Response(smallPageHtml(locale, texts.title, texts.message), {
    status: statusOf[refusal],
    headers: { ...extra, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

function wantsJson(request: Request, readsJson: boolean): boolean {
  const type = request.headers.get("content-type") ?? "";
  const accept = request.headers.get("accept") ?? "";
  return (readsJson && type.includes("application/json")) || (accept.includes("application/json") && !accept.includes("text/html"));
}

/**
 * The Express side, before React Router: methods it cannot or must not run (TRACE cannot even be a
 * fetch Request), an untidy path (sent to its tidy form, same-site-path.ts), bodies declared larger
 * than their route takes, and a connection that is closed when an answer goes out before its request
 * body was read, so a keep-alive client never waits on it.
 */
export function requestEdge() {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    closeIfBodyUnread(req, res);
    // The fetch Request is made only for a refusal: every page and file passes here.
    const refuse = (refusal: EdgeRefusal) =>
      sendResponse(res, edgeRefusalResponse(new Request(new URL(req.originalUrl, "http://edge.invalid"), { headers: headersOf(req) }), refusal));
    if (!takenMethods.has(req.method)) return refuse("method-not-allowed");
    // Pages write their own path back into links and forms: only a tidy one, or "//evil.example" becomes another site.
    const tidy = tidyRequestTarget(req.originalUrl);
    if (tidy !== null) return res.redirect(308, tidy);
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > bodyLimitOf(req.path, req.headers["content-type"] ?? "")) return refuse("payload-too-large");
    next();
  };
}

function headersOf(req: ExpressRequest): Headers {
  const headers = new Headers();
  for (const name of ["accept", "accept-language", "content-type"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

function bodyLimitOf(pathname: string, contentType: string): number {
  if (pathname === "/api/payments/stripe/webhook") return maxFormBodyBytes;
  if (isApiPath(pathname)) return maxApiBodyBytes;
  return mediaTypeOf(contentType) === "multipart/form-data" ? maxMultipartBodyBytes : maxFormBodyBytes;
}

/**
 * An answer written while the request's body is still arriving (a 413, a 401 before reading) says
 * `Connection: close`: Node then ends the connection after it instead of waiting to read a body
 * nobody will read, and the client reads the answer at once rather than after a timeout.
 */
function closeIfBodyUnread(req: ExpressRequest, res: ExpressResponse) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ExpressResponse;
  res.writeHead = ((...args: unknown[]) => {
    const hasBody =
      req.headers["content-length"] !== undefined ? req.headers["content-length"] !== "0" : req.headers["transfer-encoding"] !== undefined;
    if (hasBody && !req.complete) res.setHeader("Connection", "close");
    return writeHead(...args);
  }) as ExpressResponse["writeHead"];
}

function sendResponse(res: ExpressResponse, response: Response) {
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  // Built here from a string (the edge's own refusals): reading it back cannot fail.
  void response.text().then((text) => res.send(text));
}

const mediaTypeOf = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

/** The body kinds a route reads; every route not named here reads page forms. */
type BodyKind = "form" | "json" | "json-or-form" | "raw";
const bodyKindOfRoute: Record<string, BodyKind> = {
  // The shop's API reads JSON only; its own reader answers 413/415 in the same words.
  api: "json",
  // The auth library: JSON from scripts, a form from an OpenID provider's form_post callback.
  "routes/api/auth": "json-or-form",
  // The display currency is set by a form or by a script's JSON.
  "routes/settings/currency": "json-or-form",
  // Signed by Stripe over its exact bytes: read raw by its route, never parsed here.
  "routes/api/stripe-webhook": "raw",
  // Signed by A-Cube over its exact bytes (its content digest): read raw by its route.
  "routes/api/sdi-webhook": "raw",
};

type Outcome = { ok: true } | { ok: false; refusal: EdgeRefusal };
const refuse = (refusal: EdgeRefusal): Outcome => ({ ok: false, refusal });
const accepted: Outcome = { ok: true };

/** The body read up to `maxBytes` from a copy of the request (the route reads the original). */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.clone().body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // A cancelled copy settles only once the original is cancelled too: not awaited, it must not hold the refusal.
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A urlencoded body read strictly: a broken escape or bytes that are not UTF-8 are refused, not guessed. */
function checkUrlencoded(bytes: Uint8Array): Outcome {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refuse("bad-request");
  }
  for (const pair of text.split("&")) {
    if (/%(?![0-9a-fA-F]{2})/.test(pair)) return refuse("bad-request");
    try {
      if (hasControlCharacter(decodeURIComponent(pair.replaceAll("+", " ")))) return refuse("bad-request");
    } catch {
      return refuse("bad-request");
    }
  }
  return accepted;
}

async function checkMultipart(bytes: Uint8Array, contentType: string): Promise<Outcome> {
  let form: FormData;
  try {
    form = await new Response(bytes as BlobPart, { headers: { "content-type": contentType } }).formData();
  } catch {
    return refuse("bad-request");
  }
  for (const [name, value] of form) {
    const text = typeof value === "string" ? value : value.name;
    if (hasControlCharacter(name) || hasControlCharacter(text)) return refuse("bad-request");
  }
  return accepted;
}

/**
 * How deep arrays and objects may nest in a JSON body: the bodies the API and the auth library take nest a
 * few levels; code that walks a value (zod, the auth library) may recurse, and 10,000 levels overflowed
 * the stack (docs/decisions/0084-request-edge-limits.md).
 */
export const maxJsonDepth = 32;

/** Whether arrays and objects in JSON text nest deeper than `limit`, counted in one pass over the text, strings skipped. */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** Any string in a JSON value, keys included, with a control character; walked with a list, not by recursion. */
function jsonHasControlCharacter(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (hasControlCharacter(item)) return true;
    } else if (Array.isArray(item)) {
      for (const inner of item) pending.push(inner);
    } else if (typeof item === "object" && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        if (hasControlCharacter(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

function checkJson(bytes: Uint8Array): Outcome {
  let parsed: unknown;
  try {
    const text = utf8.decode(bytes);
    if (jsonNestsDeeperThan(text, maxJsonDepth)) return refuse("too-deeply-nested");
    parsed = JSON.parse(text);
  } catch {
    return refuse("bad-request");
  }
  return jsonHasControlCharacter(parsed) ? refuse("bad-request") : accepted;
}

/** The charset parameter, when given, must be UTF-8: a form in another charset would be read as wrong text. */
function hasForeignCharset(contentType: string): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  return charset !== undefined && charset !== "utf-8" && charset !== "utf8";
}

async function checkBody(request: Request, kind: BodyKind): Promise<Outcome> {
  if (kind === "raw") return accepted;
  const contentType = request.headers.get("content-type") ?? "";
  const type = mediaTypeOf(contentType);
  const isMultipart = type === "multipart/form-data";
  const bytes = await readCapped(
    request,
    isApiPath(new URL(request.url).pathname) ? maxApiBodyBytes : isMultipart ? maxMultipartBodyBytes : maxFormBodyBytes,
  );
  if (bytes === null) return refuse("payload-too-large");
  if (bytes.byteLength === 0 && type === "") return accepted;
  if (hasForeignCharset(contentType)) return refuse("unsupported-media-type");
  const takesForms = kind === "form" || kind === "json-or-form";
  const takesJson = kind === "json" || kind === "json-or-form";
  if (takesJson && type === "application/json") return checkJson(bytes);
  if (takesForms && type === "application/x-www-form-urlencoded") return checkUrlencoded(bytes);
  if (kind === "form" && isMultipart) return checkMultipart(bytes, contentType);
  return refuse("unsupported-media-type");
}

/**
 * Every name the shop mints for a URL (ids, uuids, gift-list codes, slugs, payment references) is
 * printable ASCII: a parameter with anything else names nothing, and must never reach a query or a
 * Location header (which cannot carry it).
 */
const mintedName = /^[\x21-\x7E]*$/;

/** Route parameters and the query, decoded: no control characters; named parameters only as the shop mints them. */
function checkUrl(params: Record<string, string | undefined>, url: URL): Outcome {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (controlInUrl.test(value) || value.includes("\uFFFD")) return refuse("bad-request");
    if (name !== "*" && !mintedName.test(value)) return refuse("not-found");
  }
  for (const [name, value] of url.searchParams) {
    if (controlInUrl.test(name) || controlInUrl.test(value)) return refuse("bad-request");
  }
  return accepted;
}

type ServerRoute = NonNullable<ServerBuild["routes"][string]>;
type HandlerArgs = { request: Request; params: Record<string, string | undefined> };

/** The refusal as the route answers: a page's error page (document and `.data`), or a resource route's Response. */
function refusalFor(route: ServerRoute, kind: BodyKind, request: Request, refusal: EdgeRefusal): never {
  if (typeof route.module.default !== "function") throw edgeRefusalResponse(request, refusal, kind === "json" || kind === "json-or-form");
  // The shop's own not-found page, as a loader's 404 shows it.
  if (refusal === "not-found") throw data(null, { status: 404 });
  const locale = localeOfPath(new URL(request.url).pathname);
  throw data(refusalTexts(locale, refusal), { status: statusOf[refusal], headers: { "Cache-Control": "no-store" } });
}

function withEdgeCheck(route: ServerRoute): ServerRoute {
  const { loader, action } = route.module;
  const kind = bodyKindOfRoute[route.id] ?? "form";
  const guard = <F extends (args: never, ...rest: never[]) => unknown>(handler: F, withBody: boolean) =>
    (async (args: HandlerArgs, ...rest: never[]) => {
      const url = new URL(args.request.url);
      // The root's loader runs beside every page's: the page's own route refuses, so the error page keeps the shell's data.
      let outcome = route.id === "root" ? accepted : checkUrl(args.params, url);
      if (outcome.ok && withBody) outcome = await checkBody(args.request, kind);
      if (!outcome.ok) refusalFor(route, kind, args.request, outcome.refusal);
      return handler(args as never, ...rest);
    }) as unknown as F;
  return {
    ...route,
    module: {
      ...route.module,
      ...(loader ? { loader: guard(loader, false) } : {}),
      ...(action ? { action: guard(action, true) } : {}),
    },
  };
}

const checkedBuilds = new WeakMap<ServerBuild, ServerBuild>();

/** The build React Router serves, every route's loader and action behind the edge's checks (shop-app.ts). */
export function withEdgeChecks(build: ServerBuild): ServerBuild {
  let checked = checkedBuilds.get(build);
  if (!checked) {
    checked = { ...build, routes: Object.fromEntries(Object.entries(build.routes).map(([id, route]) => [id, route && withEdgeCheck(route)])) };
    checkedBuilds.set(build, checked);
  }
  return checked;
}
