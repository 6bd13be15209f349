/**
 * The shop the load suite attacks, as production runs it: the production build in two app processes
 * behind nginx (server/ops/stack.ts, production's site configuration) on a fresh PostgreSQL database created on the test
 * server (dropped at the end), card payments through the local Stripe peer. The sample catalogue
 * is seeded by the first process; a few variants get a small stock so that customers race for it.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startLocalStripeServer, type LocalStripeServer } from "#tests/peers/local-stripe-server.ts";
import type { AppProcesses } from "#server/ops/app-processes.ts";
import { startStack, type Stack } from "#server/ops/stack.ts";
import { runAdminQuery, withDatabase } from "#tests/db.global-setup.ts";

export const root = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** Variants customers race for (stock `hotStock` each) and variants that never run out. */
const hotVariantCount = 6;
export const hotStock = 20;
const plentifulVariantCount = 40;

export type Catalogue = {
  hot: number[];
  plentiful: number[];
  productIds: number[];
  categorySlugs: string[];
};

export type LoadShop = {
  /** nginx's address. */
  url: string;
  /** `nginx/1.22.1`. */
  proxyVersion: string;
  processes: AppProcesses;
  /** nginx's access log: what reached the proxy, with the process that answered. */
  proxyAccessLog: string;
  stripe: LocalStripeServer;
  /** The shop's database, for the checks in SQL after each part. */
  sql: pg.Pool;
  /** Its connection string, for the back office's own services (a staff member's changes). */
  databaseUrl: string;
  catalogue: Catalogue;
  /** Stock of every variant in play when the suite began (after the hot ones were set). */
  initialStock: Map<number, number>;
  /** The app processes' log (JSON lines): removed at the end unless LOAD_KEEP_LOGS is set. */
  logFile: string;
  /** The processes directly (bypassing nginx): `Host` must stay the public one. */
  processUrl: (index: number) => string;
  /** The last lines of the processes' log (warnings and errors) and of nginx's error log: why answers failed. */
  troubleLines: (count?: number) => string;
  stop: () => Promise<void>;
};

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/**
 * The first port the kernel hands to outgoing connections: a port free when probed but inside that range can
 * be taken by a connection before the app process binds it (seen: "Port 41000 is already in use", 75 s of
 * restarts before the shop was ready).
 */
function firstEphemeralPort(): number {
  try {
    return Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768; // not Linux: its usual range starts there or higher
  }
}

/** `count` consecutive free ports on loopback (the first one), below the range of outgoing connections. */
export async function freePorts(count: number): Promise<number> {
  const below = Math.max(Math.min(firstEphemeralPort(), 32_768), 21_000);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = 20_000 + crypto.randomInt(below - 20_000 - count);
    const free = await Promise.all(Array.from({ length: count }, (_, index) => portIsFree(first + index)));
    if (free.every(Boolean)) return first;
  }
  throw new Error("no free ports on 127.0.0.1");
}

export async function startLoadShop(workers = 2): Promise<LoadShop> {
  if (!fs.existsSync(path.join(root, "build/server/index.js")))
    throw new Error("build/ is missing: run `npm run build` (npm run test:load builds it when missing)");
  const databaseName = `load_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  await runAdminQuery(adminUrl, `create database "${databaseName}"`);
  const databaseUrl = withDatabase(adminUrl, databaseName);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-load-"));
  // nginx's workers (nobody) read their pages and write request bodies below it.
  fs.chmodSync(scratch, 0o755);
  const logFile = path.join(scratch, "app-processes.log");
  const logFd = fs.openSync(logFile, "a");
  const stripe = await startLocalStripeServer();
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 10_000 });
  sql.on("error", () => {}); // idle clients lost in the PostgreSQL restart

  let stack: Stack | undefined;
  const stop = async () => {
    await stack?.stop();
    await stripe.close();
    // Stopping: a connection already lost has nothing left to close.
    await sql.end().catch(() => {});
    fs.closeSync(logFd);
    await runAdminQuery(adminUrl, `drop database if exists "${databaseName}" with (force)`);
    if (!process.env.LOAD_KEEP_LOGS) fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const proxyPort = await freePorts(1);
    const firstAppPort = await freePorts(workers);
    stack = await startStack({
      firstAppPort,
      prefixDir: path.join(scratch, "nginx"),
      output: logFd,
      // Only what the shop needs: no host setting (mail, rates, OIDC) leaks in.
      environment: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(proxyPort),
        ALLOW_LOCALHOST_PUBLIC_URL: "true",
        APP_PROCESSES: String(workers),
        DATABASE_URL: databaseUrl,
        // 100 connections on two processes: a pool of 10 each made requests wait past its 5 s for a connection.
        DATABASE_POOL_SIZE: "20",
        AUTH_SECRET: crypto.randomBytes(32).toString("hex"),
        DATA_DIR: path.join(scratch, "data"),
        MEDIA_DIR: path.join(root, "node_modules/.cache/e2e-media"),
        LOG_LEVEL: "warn",
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
      },
    });
    stripe.webhookUrl = `${stack.url}/api/payments/stripe/webhook`;
    const catalogue = await pickCatalogue(sql);
    await sql.query("update product_variants set stock = $1 where id = any($2)", [hotStock, catalogue.hot]);
    await sql.query("update product_variants set stock = 1000000 where id = any($1)", [catalogue.plentiful]);
    const stocks = await sql.query<{ id: number; stock: number }>("select id, stock from product_variants where id = any($1)", [
      [...catalogue.hot, ...catalogue.plentiful],
    ]);
    const ports = stack.processes.slots.map((slot) => slot.port);
    const proxyErrorLog = stack.errorLog;
    return {
      url: stack.url,
      proxyVersion: stack.proxyVersion,
      processes: stack.processes,
      proxyAccessLog: stack.accessLog,
      troubleLines: (count = 15) =>
        [`app processes (${logFile}):`, ...lastLines(logFile, count), `nginx (${proxyErrorLog}):`, ...lastLines(proxyErrorLog, count)].join("\n"),
      stripe,
      sql,
      databaseUrl,
      catalogue,
      initialStock: new Map(stocks.rows.map((row) => [row.id, row.stock])),
      logFile,
      processUrl: (index) => `http://127.0.0.1:${ports[index]}`,
      stop,
    };
  } catch (error) {
    // The start's own error is the one to report, not a second one from tidying up after it.
    await stop().catch(() => {});
    throw error;
  }
}

function lastLines(file: string, count: number): string[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  return text
    .split("\n")
    .filter((line) => line && !line.includes("[notice]"))
    .slice(-count)
    .map((line) => `  ${line.slice(0, 400)}`);
}

/** Published, buyable, one-size variants without personalisation: each product once. */
async function pickCatalogue(sql: pg.Pool): Promise<Catalogue> {
  const variants = await sql.query<{ variant_id: number; product_id: number }>(`
    select distinct on (p.id) v.id as variant_id, p.id as product_id
    from product_variants v join products p on p.id = v.product_id
    where p.is_published and not p.is_on_request and p.personalisation_fields is null and v.stock > 0
    order by p.id, v.id`);
  if (variants.rows.length < hotVariantCount + plentifulVariantCount)
    throw new Error(`only ${variants.rows.length} buyable products in the sample catalogue`);
  const ids = variants.rows.map((row) => row.variant_id);
  const categories = await sql.query<{ slug: string }>("select slug from categories order by id");
  return {
    hot: ids.slice(0, hotVariantCount),
    plentiful: ids.slice(hotVariantCount, hotVariantCount + plentifulVariantCount),
    productIds: variants.rows.map((row) => row.product_id),
    categorySlugs: categories.rows.map((row) => row.slug),
  };
}
