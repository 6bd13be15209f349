/**
 * The answer when the shop cannot serve a request right now: the database is unreachable (the app's
 * gate, database-gate.ts) or no app process answered (nginx, server/ops/nginx-config.ts). A status
 * (503, 502 or 504), `Retry-After`, and a small page in the visitor's language, or
 * `{ error: { code, message } }` for /api and JSON clients. No React and no i18next: it must work
 * when nothing else does, and Node renders nginx's pages straight from this source.
 */
import { localeOfPath } from "#common/locale.ts";
import messagesEn from "#messages/en.json" with { type: "json" };
import messagesIt from "#messages/it.json" with { type: "json" };
import { escapeHtml } from "#server/html.ts";

export const unavailableRetryAfterSeconds = 5;

type Texts = { title: string; body: string; apiMessage: string; retry: string };

function textsFor(pathname: string): { lang: "it" | "en"; texts: Texts } {
  const lang = localeOfPath(pathname);
  const messages = lang === "en" ? messagesEn : messagesIt;
  const { title, body, retry } = messages.serviceUnavailable;
  return { lang, texts: { title, body, retry, apiMessage: messages.api.errors["service-unavailable"] } };
}

/** JSON for the API and for clients that ask for JSON rather than a page. */
function wantsJson(pathname: string, accept: string | null | undefined): boolean {
  if (pathname.startsWith("/api/")) return true;
  const value = accept ?? "";
  return value.includes("application/json") && !value.includes("text/html");
}

export type UnavailableAnswer = { status: number; headers: Record<string, string>; body: string };

/** The answer for a request to `pathname` (with its Accept header). */
export function unavailableAnswer(pathname: string, accept: string | null | undefined, status = 503): UnavailableAnswer {
  const { lang, texts } = textsFor(pathname);
  const headers: Record<string, string> = { "Retry-After": String(unavailableRetryAfterSeconds), "Cache-Control": "no-store" };
  if (wantsJson(pathname, accept)) {
    return {
      status,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ error: { code: "service-unavailable", message: texts.apiMessage } }),
    };
  }
  // The retry link is the same address (a GET): after a refused form post it shows the form again.
  const html = smallPageHtml(lang, texts.title, texts.body, { text: texts.retry, href: "" });
  return { status, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" }, body: html };
}

/** A page of a title, a sentence and maybe a link, styled like the shop without its stylesheet or scripts. */
export function smallPageHtml(lang: "it" | "en", title: string, body: string, link?: { text: string; href: string }): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;color:#1f2937;background:#fdf8f3;margin:0}main{max-width:36rem;margin:15vh auto;padding:0 1.5rem;text-align:center}h1{font-size:1.6rem;color:#0e554e}a{display:inline-block;margin-top:1.5rem;padding:.75rem 1.5rem;border-radius:999px;background:#0e554e;color:#fff;text-decoration:none;font-weight:600}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>${link ? `<a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a>` : ""}</main></body></html>`;
}

/** The same answer as a fetch Response (React Router's entry). */
export function unavailableResponse(request: Request, status = 503): Response {
  const answer = unavailableAnswer(new URL(request.url).pathname, request.headers.get("accept"), status);
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
