/**
 * What better-auth's callbacks need to know about the person's request but cannot be told through
 * its API: the page's language (for the e-mails it asks us to send) and the client address (for the
 * login limits). Page actions pass both; the /api/auth route sets the address header itself.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { localeOfPath, type Locale } from "#common/locale.ts";

/**
 * Carries the client address (Express's req.ip, which honours TRUST_PROXY) into better-auth. Every
 * entry point overwrites it, so a value sent by the client is never trusted.
 */
export const clientIpHeader = "x-shop-client-ip";

const localeStore = new AsyncLocalStorage<Locale>();

/** Runs `work` (auth.api.* calls) with the page's language for any e-mail it sends. */
export function withAuthLocale<T>(locale: Locale, work: () => Promise<T>): Promise<T> {
  return localeStore.run(locale, work);
}

/**
 * The language of the e-mail being sent: the page's, else the one of the callback address that
 * better-auth put in its link (`?callbackURL=/en/...`), else Italian.
 */
export function currentAuthLocale(betterAuthUrl?: string): Locale {
  const fromPage = localeStore.getStore();
  if (fromPage) return fromPage;
  const callback = betterAuthUrl ? URL.parse(betterAuthUrl)?.searchParams.get("callbackURL") : null;
  return callback ? localeOfPath(callback) : "it";
}

/** The request's headers for an auth.api call, with the client address set by us. */
export function authHeaders(request: Request, clientIp: string): Headers {
  const headers = new Headers(request.headers);
  headers.delete(clientIpHeader);
  if (clientIp) headers.set(clientIpHeader, clientIp);
  return headers;
}

export function clientIpOf(headers: Headers | undefined): string | null {
  return headers?.get(clientIpHeader) || null;
}
