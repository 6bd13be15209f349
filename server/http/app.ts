/**
 * The production HTTP entry (the server bundle's input; see vite.config.ts). `server.js` imports
 * the built copy and calls `startShop()`; `server.dev.ts` does the same through Vite in development.
 */
import "react-router";
import type express from "express";
import type { ServerBuild } from "react-router";
import * as productionBuild from "virtual:react-router/server-build";
import { createAuth } from "#server/accounts/auth.ts";
import { startExchangeRatesJob } from "#server/currency/rates-job.ts";
import { cardPaymentProviderOf, readEnv, publicUrlOf, refuseLocalPublicUrl, type Env } from "#server/env.ts";
import { startJob, stopAllJobs } from "#server/jobs/scheduler.ts";
import { currentFacetIndex } from "#server/catalog/facet-index.ts";
import { startMailDeliveryJob } from "#server/mail/delivery-job.ts";
import { startInvoiceIssuingJob, startSdiSendingJob } from "#server/invoices/sdi-job.ts";
import { startCardPaymentExpiryJob } from "#server/payments/payment-expiry-job.ts";
import { startCustomerMailsJob } from "#server/customer-mails/customer-mails-job.ts";
import { startRefundRetryJob } from "#server/after-sales/refund-retry-job.ts";
import { startExchangeExpiryJob } from "#server/after-sales/exchange-expiry-job.ts";
import { startLoyaltyJob } from "#server/loyalty/loyalty-job.ts";
import { startOrderExpiryJob } from "#server/orders/expiry-job.ts";
import { startGiftCardExpiryJob } from "#server/gift-cards/gift-card-expiry-job.ts";
import { getSettings } from "#server/settings/settings.service.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { createLogger } from "#server/log.ts";
import { makeOwnerSetupLink, ownerSetupLinkHours } from "#server/accounts/owner-setup.service.ts";
import { createShopApp } from "./shop-app";
import { linkSecretOf, serveBackupRequests } from "#server/ops/backup.ts";
import { mediaStoreOf } from "#server/media/media-store.ts";
import { openShopDatabase } from "./start";
import { appKeepAliveMs } from "./keep-alive";
import { answerUnreadableRequests } from "./unreadable-requests";

export { ConfigError } from "#server/env.ts";
export { DatabaseLockedError } from "#server/db/pglite-lock.ts";
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
  refuseLocalPublicUrl(env);
  const log = createLogger(env.LOG_LEVEL, env.LOG_FORMAT);
  const handle = await openShopDatabase(env, log);
  // `npm run backup` asks this process for the embedded database's copy: nobody else may open it.
  if (handle.dumpDataDir) serveBackupRequests(handle, { dataDir: env.DATA_DIR, mediaDir: mediaStoreOf(env).dir, linkSecret: linkSecretOf(env) }, log);
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
  // Issued invoices go to the SDI through A-Cube when its account is configured; otherwise staff download them.
  startSdiSendingJob({ db: handle.db, env, log });
  // Invoices due on payment or shipping, as the settings say, are issued within a minute.
  startInvoiceIssuingJob({ db: handle.db, log });
  // Card orders past their time to pay: asked of the payment provider, then paid or expired (stock back).
  startCardPaymentExpiryJob(services);
  // Bank-transfer orders unpaid past their due date expire and give their stock back.
  startOrderExpiryJob(services);
  // What is left on gift cards past their expiry is taken off, with its movement.
  startGiftCardExpiryJob(services);
  // Card refunds the provider has not made yet are asked again, each with its own idempotency key.
  startRefundRetryJob(services);
  // Units set aside for exchanges whose goods never came back go back on the shelf.
  startExchangeExpiryJob(services);
  // Abandoned-cart reminders and review invitations, as the back office's settings say (decision 0102).
  startCustomerMailsJob(services);
  // Loyalty points: earned after the withdrawal period, taken back on refunds, expired, statements mailed.
  startLoyaltyJob(services);
  // The listing's filter counts come from an index of the catalogue kept in this process: built at start
  // and again soon after any change, in the background, so visitors seldom wait for it.
  startJob({ name: "facet-index", everyMs: 5_000, runAtStart: true, log, run: () => currentFacetIndex(handle.db) });

  const app = createShopApp({
    services,
    database: handle,
    build: options.build ?? (() => Promise.resolve(productionBuild as unknown as ServerBuild)),
    mode: env.NODE_ENV === "development" ? "development" : "production",
    clientDir: options.clientDir,
    devMiddlewares: options.devMiddlewares,
    formActions: () => [...newsletterOrigin, ...formActionsBesidesNewsletter],
  });

  // Made before the shop answers, so a link printed at the end works from the first request.
  const setupPath = await makeOwnerSetupLink(handle.db);
  const server = app.listen(env.PORT, env.HOST);
  server.keepAliveTimeout = appKeepAliveMs;
  answerUnreadableRequests(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  if (env.NODE_ENV === "production" && cardPaymentProviderOf(env) === "test") {
    log.warn("TEST PAYMENTS ARE ON (ALLOW_TEST_PAYMENTS): card orders are marked paid on a test page and no money moves. Never run a live shop so.");
  }
  const ready = { url: publicUrl, adminUrl: `${publicUrl}/admin`, setupUrl: setupPath ? `${publicUrl}${setupPath}` : undefined };
  // At the terminal the last line is plain: where the shop and its back office are (and the setup link).
  if (env.LOG_FORMAT === "text") process.stdout.write(`${readyLine(ready)}\n`);
  else log.info({ port: env.PORT, ...ready, ms: Math.round(performance.now() - startedAt) }, "shop ready");

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

export function readyLine(ready: { url: string; adminUrl: string; setupUrl?: string }): string {
  const line = `The shop is at ${ready.url} - back office: ${ready.adminUrl}`;
  if (!ready.setupUrl) return line;
  return `${line} - no administrator yet: create the owner's account at ${ready.setupUrl} (works once, for ${ownerSetupLinkHours} hours)`;
}

/** Tests point Stripe at a local server: its checkout page is where the card form redirects. */
function stripeTestOrigin(env: Env): string[] {
  return env.STRIPE_API_URL ? [new URL(env.STRIPE_API_URL).origin] : [];
}

async function readNewsletterOrigin(services: ShopServices) {
  const { newsletter } = await getSettings(services.db, ["newsletter"]);
  return newsletter.url ? [new URL(newsletter.url).origin] : [];
}
