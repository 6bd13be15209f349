/**
 * POST /currency: the display-currency switch (top bar). A form post (with or without JavaScript)
 * sets the `currency` cookie and goes back to the same-site page it came from; an unknown code
 * changes nothing. API-like callers (JSON) get 200 `{ currency }` or 400 `{ error: { code, message } }`.
 */
import { data, redirect } from "react-router";
import { localeOfPath } from "#common/locale.ts";
import { currencyCookie } from "#server/currency/rates.ts";
import { CurrencyChoice } from "#server/currency/rates.inputs.ts";
import { shopContext } from "#server/http/context.ts";
import { isCrossSiteRequest } from "#server/http/same-origin.ts";
import { sameSitePath } from "#server/http/same-site-path.ts";
import { getTranslator } from "#server/i18n/translator.ts";
import type { Route } from "./+types/currency";

/** Nothing to show at this address: back to where the visitor came from. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(backPath(request, null), 303);
}

export async function action({ request, context }: Route.ActionArgs) {
  // Another site cannot switch the visitor's currency (a resource route: React Router does not check it).
  if (isCrossSiteRequest(request)) throw data(null, { status: 403 });
  const { publicUrl } = context.get(shopContext);
  const apiCall = isApiCall(request);
  const input = await readInput(request, apiCall);
  const parsed = CurrencyChoice.safeParse(input);
  const back = backPath(request, input.redirectTo);
  if (!parsed.success) {
    if (apiCall) {
      const t = getTranslator(localeOfPath(back));
      return data({ error: { code: "unknown-currency", message: t("currency.unknown") } }, { status: 400 });
    }
    return redirect(back, 303);
  }
  const headers = { "Set-Cookie": currencyCookie(parsed.data.currency, { secure: publicUrl.startsWith("https:") }) };
  if (apiCall) return data({ currency: parsed.data.currency }, { headers });
  return redirect(back, { status: 303, headers });
}

/** A JSON body, or a client that asks for JSON rather than a page. */
function isApiCall(request: Request) {
  const contentType = request.headers.get("Content-Type") ?? "";
  const accept = request.headers.get("Accept") ?? "";
  return contentType.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"));
}

async function readInput(request: Request, json: boolean): Promise<Record<string, unknown>> {
  try {
    const body: unknown =
      json && (request.headers.get("Content-Type") ?? "").includes("application/json")
        ? await request.json()
        : Object.fromEntries(await request.formData());
    return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The form's `redirectTo`, else the same-site page in Referer, else home. */
function backPath(request: Request, redirectTo: unknown): string {
  const fromForm = sameSitePath(redirectTo);
  if (fromForm) return fromForm;
  const referer = request.headers.get("Referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.origin === new URL(request.url).origin) return sameSitePath(`${url.pathname}${url.search}`) ?? "/";
    } catch {
      // A Referer that is not a URL: the shop's home page below.
    }
  }
  return "/";
}
