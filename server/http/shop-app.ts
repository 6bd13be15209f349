/**
 * The shop's Express application: every middleware in its order, then React Router. `startShop`
 * (app.ts) serves it; the security suite (tests/security/) runs the same application in-process on
 * a test database, with React Router's build from Vite, so what it checks is what production serves.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import { createRequestHandler as createFetchHandler } from "react-router";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { drawSamplePictureFile } from "#server/catalog/sample-pictures.ts";
import { readingVersionsOnce } from "#server/catalog/catalogue-cache.ts";
import type { DbHandle } from "#server/db/client.ts";
import { couponOrderEffects } from "#server/coupons/coupon-order-effects.ts";
import { giftCardOrderEffects } from "#server/gift-cards/gift-card-order-effects.ts";
import { loyaltyOrderEffects } from "#server/loyalty/loyalty-order-effects.ts";
import { giftListOrderEffects } from "#server/gift-lists/gift-list-order-effects.ts";
import { wireOrderEffects } from "#server/orders/order-effects.ts";
import { voucherOrderEffects } from "#server/vouchers/voucher-order-effects.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { answerApiPreflight } from "./api/api-handler";
import { requestContext, shopContext } from "./context";
import { createDatabaseGate, sendUnavailable } from "./database-gate";
import { withPageMessages } from "./page-messages";
import { createPageCache, defaultPageCacheBytes, routePatternMatcher, type VisitorPage } from "./page-cache";
import { pageConcurrencyOf, pageQueue, uploadQueue } from "./page-queue";
import { precompressedAssets } from "./precompressed-assets";
import { requestEdge, withEdgeChecks } from "./request-edge";
import { allowNoncedScripts, securityHeaders, type PolicyOptions } from "./security-headers";
import { serveMedia } from "./media-files";
import { mediaStoreOf } from "#server/media/media-store.ts";
import { pageFillerOf } from "./page-filler";
import { markPersonalAnswers } from "./page-caching";
import { answerPersonalPart } from "./personal-answer";

// Wired when this module loads, before startShop's jobs run: gift lists keep their purchases and pledges,
// coupons their codes' uses, in step with the orders that pay for them (server/orders/order-effects.ts).
wireOrderEffects(giftListOrderEffects, couponOrderEffects, giftCardOrderEffects, loyaltyOrderEffects, voucherOrderEffects);

export type ShopAppOptions = {
  services: ShopServices;
  database: Pick<DbHandle, "ping" | "kind">;
  build: () => Promise<ServerBuild>;
  mode: "development" | "production";
  /** Production: the built client folder. Development: Vite's middlewares serve assets. */
  clientDir?: string;
  devMiddlewares?: express.RequestHandler;
  /** Origins besides our own that forms may post to (CSP form-action), read per request. */
  formActions: () => string[];
  /** Bytes of visitors' pages kept in this process (page-cache.ts); 0 renders each one. Production only. */
  pageCacheBytes?: number;
  /** False: customers' pages are always rendered, never filled in from visitors' kept ones (tests compare both). */
  fillPersonalPages?: boolean;
  /** Fill plans held (page-cache.ts), 64 unless given: tests hold fewer. */
  fillPlans?: number;
};

export function createShopApp(options: ShopAppOptions) {
  const { services, database } = options;
  const { env, log } = services;
  const gate = createDatabaseGate(database.ping, log);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  // Pages rendered for one person are compressed as they stream, once each: brotli's quality 4 (the
  // middleware's default) cost more CPU than the render; quality 1 (gzip level 1 where brotli is not
  // accepted) costs a few ms for a page 25-30% larger (decision 0074). Kept pages and built assets carry
  // their own compressed bytes.
  app.use(compression({ level: 1, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } } }));
  const https = services.publicUrl.startsWith("https:");
  const policy: PolicyOptions = { https, formActions: options.formActions };
  app.use(securityHeaders(policy));
  app.use(logRequests(services));
  // Unknown methods and oversized bodies are refused before anything else; the rest of the edge's checks run in the build below.
  app.use(requestEdge());

  app.get("/healthz", async (_req, res) => {
    try {
      await database.ping();
      res.json({ status: "ok", database: database.kind });
    } catch {
      res.status(503).json({ status: "unavailable", database: database.kind });
    }
  });

  const store = mediaStoreOf(env);
  if (env.SEED_SAMPLE_DATA) {
    // A sample picture not drawn yet is drawn now, then served like the others (server/catalog/sample-pictures.ts).
    if (store.dir) app.use("/media", express.static(store.dir, { maxAge: "7d", index: false, fallthrough: true }));
    app.use("/media/products", (req, _res, next) => {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      drawSamplePictureFile(store, req.path.slice(1)).then(
        () => next(),
        (error: unknown) => next(error),
      );
    });
  }
  app.use("/media", serveMedia(store));
  if (options.devMiddlewares) {
    app.use(options.devMiddlewares);
  } else if (options.clientDir) {
    // Vite's hashed assets never change; everything else may.
    const assetsDir = `${options.clientDir}/assets`;
    app.use("/assets", precompressedAssets(assetsDir), express.static(assetsDir, { immutable: true, maxAge: "1y", index: false }));
    app.use(publicFiles(options.clientDir));
  }

  // Everything below answers for the person asking: private when the request says who she is (page-caching.ts).
  app.use(markPersonalAnswers);
  // Everything below reads the database: while it is away, a 503 at once rather than a wait.
  app.use(gate.middleware);
  // In production the build is read once and handed over as it is, since React Router derives its routes
  // and handlers again at every request when given a function; in development Vite reloads it.
  const build = options.mode === "production" ? options.build().then((built) => withEdgeChecks(withPageMessages(built))) : null;
  // Visitors' pages kept whole: one given again skips the page queue (page-cache.ts).
  // The app's reader of her personal part, handed over with the build: kept pages are filled in with it, `/personal` gives it.
  const filler = build ? build.then((built) => pageFillerOf(built, services)) : null;
  const pageCache = build
    ? createPageCache({
        db: services.db,
        maxBytes: options.pageCacheBytes ?? defaultPageCacheBytes,
        policy,
        patternOf: build.then((built) => routePatternMatcher(built.routes)),
        filler: options.fillPersonalPages === false ? undefined : (filler ?? undefined),
        maxFillPlans: options.fillPlans,
      })
    : null;
  if (pageCache) app.use((req, res, next) => void pageCache.serveKept(req, res, next).catch(next));
  // Its counts, for tests and a look from a debugger.
  app.locals.pageCache = pageCache;
  // Pages are rendered a few at a time, in arrival order (page-queue.ts).
  app.use(pageQueue({ concurrency: pageConcurrencyOf(database.kind, env.DATABASE_POOL_SIZE) }));
  app.use(uploadQueue());
  // Her personal part, asked on every page she opens: answered before React Router (personal-answer.ts).
  app.use(answerPersonalPart({ filler, publicUrl: services.publicUrl }));

  // CORS preflights of /api (origins from settings): React Router refuses OPTIONS before any route runs.
  app.options("/api/{*splat}", (req, res, next) => {
    const headers = new Headers();
    for (const name of ["origin", "accept-language"]) {
      const value = req.get(name);
      if (value) headers.set(name, value);
    }
    answerApiPreflight(new Request(new URL(req.originalUrl, services.publicUrl), { headers }), services)
      .then(async (answer) =>
        res
          .status(answer.status)
          .set(Object.fromEntries(answer.headers))
          .send(await answer.text()),
      )
      .catch(next);
  });

  const loadContextOf = (req: Request, cspNonce: string, sharedPage: boolean) => {
    const context = new RouterContextProvider();
    context.set(shopContext, services);
    context.set(requestContext, { cspNonce, sharedPage, clientIp: req.ip ?? "", database: gate });
    return context;
  };
  const handlerOf = (built: ServerBuild | (() => Promise<ServerBuild>)) =>
    createRequestHandler({
      build: built,
      mode: options.mode,
      getLoadContext: (req, res) => loadContextOf(req, allowNoncedScripts(res, policy), false),
    });
  // Each page's loader data carries its messages (server/http/page-messages.ts), and every loader and action
  // runs behind the edge's checks of its URL and body (request-edge.ts).
  const pageHandler = build ? build.then(handlerOf) : Promise.resolve(handlerOf(async () => withEdgeChecks(withPageMessages(await options.build()))));
  const renderShared = build?.then((built) => {
    const handle = createFetchHandler(built, options.mode);
    return async (request: globalThis.Request, req: Request) => {
      const context = loadContextOf(req, "", true);
      const response = await handle(request, context);
      return { response, fillSource: context.get(requestContext).fillSource };
    };
  });
  const answer = (req: Request, res: Response, next: NextFunction) => {
    const visitorPage = res.locals.visitorPage as VisitorPage | undefined;
    if (visitorPage && pageCache && renderShared) {
      renderShared
        .then((render) => pageCache.renderVisitorPage(visitorPage, req, res, render))
        // A page that could not be filled in for the customer it was rendered for: hers is rendered.
        .then((sent) => (sent ? undefined : pageHandler.then((handle) => handle(req, res, next))))
        .catch(next);
      return;
    }
    pageHandler.then((handle) => handle(req, res, next)).catch(next);
  };
  // A GET's loaders, which each ask whether the catalogue moved, share one read of its versions; an action's
  // loaders must see what it committed and read them afresh (server/catalog/catalogue-cache.ts).
  app.all("/{*splat}", (req, res, next) =>
    req.method === "GET" || req.method === "HEAD" ? readingVersionsOnce(() => answer(req, res, next)) : answer(req, res, next),
  );

  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status ?? 500;
    if (status >= 500 && gate.noteError(error) !== null) return sendUnavailable(req, res);
    if (status >= 500) log.error({ err: error }, "request failed");
    res
      .status(status)
      .type("text/plain")
      .send(status === 404 ? "Not found" : "Error");
  });

  return app;
}

/**
 * The build's other files (public/: the social-media picture), found once: a production build does not
 * change while it runs, and asking the disk for every page's path cost a stat per request.
 */
function publicFiles(clientDir: string): express.RequestHandler {
  const serve = express.static(clientDir, { maxAge: "1h", index: false });
  const entries = fs.readdirSync(clientDir, { withFileTypes: true }).filter((entry) => entry.name !== "assets");
  const isPublic = (path: string) => entries.some((entry) => (entry.isDirectory() ? path.startsWith(`/${entry.name}/`) : path === `/${entry.name}`));
  return (req, res, next) => {
    if (isPublic(req.path)) void serve(req, res, next);
    else next();
  };
}

function logRequests({ log }: ShopServices) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on("finish", () => {
      log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) }, "request");
    });
    next();
  };
}
