/**
 * The production HTTP entry (the server bundle's input; see vite.config.ts). `server.js` imports
 * the built copy and calls `startShop()`; `server.dev.ts` does the same through Vite in development.
 */
import "react-router";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import * as productionBuild from "virtual:react-router/server-build";
import { createAuth } from "#server/accounts/auth.ts";
import { answerApiPreflight } from "#server/api/api-handler.ts";
import { startExchangeRatesJob } from "#server/currency/rates-job.ts";
import { readEnv, publicUrlOf, type Env } from "#server/env.ts";
import { startJob, stopAllJobs } from "#server/jobs/scheduler.ts";
import { startMailDeliveryJob } from "#server/mail/delivery-job.ts";
import { startCardPaymentExpiryJob } from "#server/payments/payment-expiry-job.ts";
import { startOrderExpiryJob } from "#server/orders/expiry-job.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import { requestContext, shopContext, type ShopServices } from "./context";
import { createLogger } from "./log";
import { securityHeaders } from "./security-headers";
import { mediaDirOf, openShopDatabase } from "./start";

export { ConfigError } from "#server/env.ts";
export { DatabaseLockedError } from "#server/db/client.ts";
export { DatabaseUnreachableError } from "./start";

type StartOptions = {
  /** Production: the built client folder. Development: Vite's middlewares serve assets. */
  clientDir?: string;
  devMiddlewares?: express.RequestHandler;
  /** Development passes Vite's freshly loaded build; production uses the bundled one. */
  build?: () => Promise<ServerBuild>;
  env?: Env;
};

export async function startShop(options: StartOptions) {
  const startedAt = performance.now();
  const env = options.env ?? readEnv();
  const log = createLogger(env.LOG_LEVEL);
  const handle = await openShopDatabase(env, log);
  const publicUrl = publicUrlOf(env);
  const services: ShopServices = { db: handle.db, auth: createAuth({ db: handle.db, env, publicUrl }), env, log, publicUrl };
  // The back office can change the newsletter URL: its origin (CSP form-action) is read again every 30 s,
  // in the background, so no request waits for it.
  let newsletterOrigin = await readNewsletterOrigin(services);
  startJob({
    name: "newsletter-origin",
    everyMs: 30_000,
    runAtStart: false,
    log,
    run: async () => {
      newsletterOrigin = await readNewsletterOrigin(services);
    },
  });
  const formActionsBesidesNewsletter = stripeTestOrigin(env);
  // Display-currency rates from the ECB when configured; otherwise the stored or bundled ones.
  if (env.RATES_URL) startExchangeRatesJob({ db: handle.db, url: env.RATES_URL, log });
  // Queued e-mails go out every 15 s over SMTP_URL; without it they wait in the outbox.
  startMailDeliveryJob({ db: handle.db, env, log });
  // Card orders past their time to pay: asked of the payment provider, then paid or expired (stock back).
  startCardPaymentExpiryJob(services);
  // Bank-transfer orders unpaid past their due date expire and give their stock back.
  startOrderExpiryJob(services);

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(compression());
  app.use(securityHeaders({ https: services.publicUrl.startsWith("https:"), formActions: () => [...newsletterOrigin, ...formActionsBesidesNewsletter] }));
  app.use(logRequests(services));

  app.get("/healthz", async (_req, res) => {
    try {
      await handle.ping();
      res.json({ status: "ok", database: handle.kind });
    } catch {
      res.status(503).json({ status: "unavailable", database: handle.kind });
    }
  });

  app.use("/media", express.static(mediaDirOf(env), { maxAge: "7d", index: false, fallthrough: false }));
  if (options.devMiddlewares) {
    app.use(options.devMiddlewares);
  } else if (options.clientDir) {
    // Vite's hashed assets never change; everything else may.
    app.use("/assets", express.static(`${options.clientDir}/assets`, { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(options.clientDir, { maxAge: "1h", index: false }));
  }

  // CORS preflights of /api (origins from settings): React Router refuses OPTIONS before any route runs.
  app.options("/api/{*splat}", (req, res, next) => {
    const headers = new Headers();
    for (const name of ["origin", "accept-language"]) if (req.get(name)) headers.set(name, req.get(name)!);
    answerApiPreflight(new Request(new URL(req.originalUrl, services.publicUrl), { headers }), services)
      .then(async (answer) => res.status(answer.status).set(Object.fromEntries(answer.headers)).send(await answer.text()))
      .catch(next);
  });

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build ?? (() => Promise.resolve(productionBuild as unknown as ServerBuild)),
      mode: env.NODE_ENV === "development" ? "development" : "production",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(shopContext, services);
        context.set(requestContext, { cspNonce: String(res.locals.cspNonce), clientIp: req.ip ?? "" });
        return context;
      },
    }),
  );

  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status ?? 500;
    if (status >= 500) log.error({ err: error }, "request failed");
    res.status(status).type("text/plain").send(status === 404 ? "Not found" : "Error");
  });

  const server = app.listen(env.PORT, env.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  log.info({ port: env.PORT, url: services.publicUrl, ms: Math.round(performance.now() - startedAt) }, "shop ready");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    // Give open requests a moment, then close the database (PGlite must be closed to release its lock).
    const forceExit = setTimeout(() => process.exit(1), 10_000);
    forceExit.unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await stopAllJobs();
    await handle.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  return { server, services, stop };
}

/** Tests point Stripe at a local server: its checkout page is where the card form redirects. */
function stripeTestOrigin(env: Env): string[] {
  return env.STRIPE_API_URL ? [new URL(env.STRIPE_API_URL).origin] : [];
}

async function readNewsletterOrigin(services: ShopServices) {
  const { newsletter } = await getSettings(services.db, ["newsletter"]);
  return newsletter.url ? [new URL(newsletter.url).origin] : [];
}

function logRequests({ log }: ShopServices) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on("finish", () => {
      log.info(
        { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) },
        "request",
      );
    });
    next();
  };
}
