import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  type RouterContextProvider,
} from "react-router";
import { requestContext } from "#server/http/context.ts";
import { unavailableResponse } from "#server/http/unavailable.ts";
import { getPageMessages } from "#server/http/page-messages.ts";
import { localeOfPath } from "#common/locale.ts";
import type { Messages } from "#common/messages.ts";
import { serverI18nFor } from "./lib/i18n";
import { handle as rootHandle } from "./root";
import { NonceProvider } from "./lib/nonce";
import { DocumentPersonalPart } from "./lib/personal-part";
import { FillRecording } from "./lib/root-data";
import type { FillSource } from "./lib/personal-fill.server";
import { requestPersonalPart } from "./lib/personal-part.server";
import { coalescedChunks } from "./lib/coalesced-chunks.server";

export const streamTimeout = 5_000;

/** Handed to the page cache with the build (server/http/page-filler.ts). */
export { createPageFiller } from "./lib/personal-fill.server";

/** The errors React Router throws when it refuses a cross-site action (its only "Bad Request" error). */
const crossSiteRefusal = /`origin` header|^Bad Request$/;

/** This request's information from the Express entry (with the process's database gate). */
function requestInfoOf(context: Pick<RouterContextProvider, "get"> | undefined) {
  try {
    return context?.get(requestContext);
  } catch {
    return undefined; // no request context: a request that failed before the entry built one
  }
}

/** The database was gone or too busy for this request, or is known gone: the "try again" answer. */
const answersUnavailable = (context: Pick<RouterContextProvider, "get"> | undefined) => {
  const info = requestInfoOf(context);
  return info?.metDatabaseTrouble === true || info?.database?.isDown() === true;
};

/**
 * Every error a loader, action or render throws. The database gone or too busy: this request is
 * answered 503 "try again" (a lost connection also closes the gate, logged there once); a refused
 * cross-site post is a warning; anything else is logged as React Router would.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  const info = requestInfoOf(context);
  if (info?.database?.noteError(error)) {
    info.metDatabaseTrouble = true;
    return;
  }
  if (request.signal.aborted) return;
  // A 4xx is an answer, not a failure to log: a refusal thrown on purpose, or one React Router gives itself (a post to a page without a form: 405).
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // React Router refusing a post from another site (react-router.config.ts): an attempt to note, not a bug.
  if (error instanceof Error && crossSiteRefusal.test(error.message)) {
    console.warn(`refused a cross-site ${request.method} to ${new URL(request.url).pathname}`);
    return;
  }
  console.error(error);
};

/** A client navigation that met the database gone or busy gets the 503 answer (the root ErrorBoundary says to retry). */
export const handleDataRequest: HandleDataRequestFunction = (response, { request, context }) => {
  if (response.status >= 500 && answersUnavailable(context)) return unavailableResponse(request);
  return response;
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The database went away (or had no connection free) during this request: the "try again" page, not the error page.
  if (responseStatusCode >= 500 && answersUnavailable(loadContext)) return unavailableResponse(request);
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // A page kept for every visitor (server/http/page-cache.ts) has no nonce and is rendered whole: its CSP
  // lists the hashes of the scripts it ended with.
  const info = loadContext.get(requestContext);
  const { cspNonce, sharedPage } = info;
  const nonce = cspNonce || undefined;
  // The messages of the page's loader data (the same ones the browser gets), in an instance shared by the
  // requests for pages with the same messages.
  const locale = localeOfPath(new URL(request.url).pathname);
  const { matches, loaderData } = routerContext.staticHandlerContext;
  const pageMessages = matches.flatMap(({ route }) => {
    const messages = (loaderData[route.id] as { messages?: Messages | null } | undefined)?.messages;
    return typeof messages === "object" && messages !== null ? [messages] : [];
  });
  // The root's own loader failed: its error page still speaks the page's language (the shell's messages).
  if (!loaderData.root) pageMessages.unshift(getPageMessages(locale, rootHandle));
  const i18n = serverI18nFor(locale, pageMessages);
  // A visitor's page to keep notes what it asks of the personal part outside its regions, and its regions: a
  // customer may be given it with her regions rendered in when her part answers the same (personal-fill.server.tsx).
  const visitorPart = loadContext.get(requestPersonalPart);
  const rootData: unknown = loaderData.root;
  const fillSource: FillSource | null =
    sharedPage && rootData && visitorPart ? { reads: new Map(), regions: new Map(), rootData, visitorPart, i18n } : null;
  if (fillSource) info.fillSource = fillSource;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode || sharedPage ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={cspNonce}>
        <DocumentPersonalPart value={visitorPart}>
          <FillRecording value={fillSource}>
            <I18nextProvider i18n={i18n}>
              <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
            </I18nextProvider>
          </FillRecording>
        </DocumentPersonalPart>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = coalescedChunks({
            onEnd() {
              clearTimeout(timeoutId);
              timeoutId = undefined;
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error("The page's shell failed to render", { cause: error }));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by React Router; these are streamed ones.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
