/**
 * The HTTP mechanics every /api endpoint shares: the caller's language, JSON error bodies, the body
 * size limit, CORS for the origins in settings, and the same-origin rule for cookie-authenticated calls.
 */
import type { z } from "zod";
import type { Locale } from "#common/locale.ts";
import { getTranslator } from "#server/i18n/translator.ts";

/** Bodies above this are refused with 413 before they are parsed. */
export const maxApiBodyBytes = 100 * 1024;

export const apiErrorCodes = [
  "unauthorized",
  "forbidden",
  "cross-site-request",
  "not-found",
  "method-not-allowed",
  "unsupported-media-type",
  "payload-too-large",
  "invalid-json",
  "too-deeply-nested",
  "headers-too-large",
  "invalid-input",
  "conflict",
  "too-many-requests",
  "internal-error",
  "service-unavailable",
  // The shop's own refusals, with the message of the page that refuses the same (passed in `message`).
  "invalid-code",
  "has-purchases",
  "gift-list-closed",
  "not-for-sale",
  "below-bought",
  "empty-cart",
  "out-of-stock",
  "unavailable-product",
  "delivery-not-available",
  "payment-not-allowed",
  "online-method-not-offered",
  "address-not-found",
  "gift-list-shortfall",
  "payment-unavailable",
  "idempotency-key-conflict",
] as const;
export type ApiErrorCode = (typeof apiErrorCodes)[number];

/** Field path ("addresses.0.city") -> message in the caller's language. */
export type ApiFieldErrors = Record<string, string>;

/** A refusal: the status, the code (also the message key `api.errors.{code}`) and per-field messages. */
export type ApiFailure = {
  ok: false;
  status: number;
  code: ApiErrorCode;
  fields?: ApiFieldErrors;
  headers?: HeadersInit;
  /** Already in the caller's language (a service's own message); otherwise `api.errors.{code}`. */
  message?: string;
};

export function apiFailure(status: number, code: ApiErrorCode, fields?: ApiFieldErrors): ApiFailure {
  return { ok: false, status, code, ...(fields ? { fields } : {}) };
}

/** A refusal of the shop's own rules, with the message its page shows (already translated). */
export function apiRefusal(status: number, code: ApiErrorCode, message: string, fields?: ApiFieldErrors): ApiFailure {
  return { ...apiFailure(status, code, fields), message };
}

/** The caller's language from Accept-Language (highest q first); Italian unless English comes first. */
export function localeOfRequest(request: Request): Locale {
  const header = request.headers.get("accept-language");
  if (!header) return "it";
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((param) => param.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1",
      );
      return { language: tag.trim().toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const first = ranked.find((entry) => entry.language === "it" || entry.language === "en");
  return first?.language === "en" ? "en" : "it";
}

export function jsonResponse(body: unknown, status: number, headers?: HeadersInit): Response {
  const result = new Response(JSON.stringify(body), { status, headers });
  result.headers.set("Content-Type", "application/json; charset=utf-8");
  return result;
}

export function errorResponse(failure: ApiFailure, locale: Locale, headers?: Headers): Response {
  const t = getTranslator(locale);
  const error = {
    code: failure.code,
    message: failure.message ?? t(`api.errors.${failure.code}`),
    ...(failure.fields ? { fields: failure.fields } : {}),
  };
  const response = jsonResponse({ error }, failure.status, failure.headers);
  headers?.forEach((value, name) => response.headers.set(name, value));
  if (failure.status === 401) response.headers.set("WWW-Authenticate", 'Bearer realm="api"');
  return response;
}

/** One message per field, in the caller's language, for a zod refusal of the API's own schemas. */
export function fieldErrorsOf(error: z.ZodError, locale: Locale): ApiFieldErrors {
  const t = getTranslator(locale);
  const fields: ApiFieldErrors = {};
  const put = (path: readonly PropertyKey[], message: string) => {
    const key = path.map(String).join(".") || "body";
    fields[key] ??= message;
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) put([...issue.path, key], t("api.fields.unknown"));
    } else if (issue.code === "invalid_value" && issue.input === undefined) {
      // A missing enum field (deliveryMethod...) is missing, not invalid.
      put(issue.path, t("api.fields.required"));
    } else if (issue.code === "invalid_type") {
      put(issue.path, issue.input === undefined ? t("api.fields.required") : t("api.fields.wrongType", { expected: issue.expected }));
    } else if (issue.code === "too_big") {
      put(issue.path, t("api.fields.tooBig", { max: String(issue.maximum) }));
    } else if (issue.code === "too_small") {
      put(issue.path, t("api.fields.tooSmall", { min: String(issue.minimum) }));
    } else {
      put(issue.path, t("api.fields.invalid"));
    }
  }
  return fields;
}

/** Service refusals carry message keys (`auth.errors.postcodeInvalid`): translated here. */
export function translateFieldErrors(errors: Partial<Record<string, string>>, locale: Locale, values: Record<string, unknown> = {}): ApiFieldErrors {
  const t = getTranslator(locale);
  return Object.fromEntries(Object.entries(errors).flatMap(([field, key]) => (key ? [[field, t(key, { max: 100, ...values })]] : [])));
}

type BodyRead = { ok: true; value: unknown } | ApiFailure;

/**
 * The JSON body, read up to the limit: a declared or actual size above it is 413 without parsing;
 * anything but application/json is 415; text that is not JSON is 400.
 */
export async function readJsonBody(request: Request): Promise<BodyRead> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxApiBodyBytes) return apiFailure(413, "payload-too-large");
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return apiFailure(415, "unsupported-media-type");
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxApiBodyBytes) {
        await reader.cancel();
        return apiFailure(413, "payload-too-large");
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return apiFailure(400, "invalid-json");
  }
}

/** The query string as a flat object (a repeated name keeps its last value). */
export function queryObjectOf(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams);
}

/**
 * A cookie-authenticated call that changes something must come from the shop's own pages:
 * React Router checks the origin of page actions, not of resource routes. Bearer tokens cannot be sent cross-site.
 */
export function isSameOriginRequest(request: Request, publicUrl: string): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin";
  const origin = request.headers.get("origin");
  return origin !== null && origin === new URL(publicUrl).origin;
}

/** CORS headers for a caller whose Origin is the shop's own or listed in settings; none otherwise. */
export function corsHeadersFor(origin: string | null, allowedOrigins: readonly string[]): Headers {
  const headers = new Headers({ Vary: "Origin" });
  if (origin && allowedOrigins.includes(origin)) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Access-Control-Expose-Headers", "WWW-Authenticate");
  }
  return headers;
}

export const corsPreflightHeaders = {
  "Access-Control-Allow-Methods": "GET, POST",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept-Language",
  "Access-Control-Max-Age": "600",
};
