/**
 * Playwright globalSetup: makes the run's data folders (e2e/shop-templates.ts: embedded PGlite migrated, the
 * sample catalogue seeded, one with the back-office account of back-office-account.ts), starts the built shop
 * (`node server.js`, NODE_ENV=production) on a free port with a copy of the latter, waits for /healthz, and
 * hands its address to the tests in E2E_BASE_URL. The returned teardown stops it and deletes the data. With
 * E2E_BASE_URL already set, that server is used as it is.
 */
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitForHealth } from "../server/ops/health";
import { exitOf, freePort, stopChildProcess } from "./peer-shop";
import { copyShopTemplate, makeShopTemplates } from "./shop-templates";

const root = path.resolve(import.meta.dirname, "..");
const startTimeoutMs = Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 240_000);

/** Settings that would reach outside the test (a real database, mail, payments) never leak in. */
const hostSettings = [
  "DATABASE_URL",
  "SMTP_URL",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_URL",
  "SCALAPAY_API_KEY",
  "SCALAPAY_API_URL",
  "RATES_URL",
  "OIDC_ISSUER",
];

export default async function startShop() {
  if (process.env.E2E_BASE_URL) {
    console.log(`e2e: testing the server already running at ${process.env.E2E_BASE_URL}`);
    return;
  }
  if (!fs.existsSync(path.join(root, "server.js")) || !fs.existsSync(path.join(root, "build"))) {
    throw new Error("e2e: server.js or build/ is missing: run `npm run build` first (npm run test:e2e builds when build/ is missing).");
  }

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-e2e-"));
  const logFile = path.join(scratch, "server.log");
  const log = fs.openSync(logFile, "a");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    ALLOW_LOCALHOST_PUBLIC_URL: "true",
    DATA_DIR: path.join(scratch, "data"),
    // Generated sample pictures are the same every run: draw them once per machine.
    MEDIA_DIR: path.resolve("node_modules/.cache/e2e-media"),
    AUTH_SECRET: crypto.randomBytes(32).toString("hex"),
    SEED_SAMPLE_DATA: "true",
    // Journeys may move the shop's clock per request (x-test-clock) to check the delivery promise.
    TEST_CLOCK_HEADER: "true",
    // No Stripe keys here: card orders are paid on the labelled test-payment page.
    ALLOW_TEST_PAYMENTS: "true",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
  };
  for (const name of hostSettings) delete env[name];
  // The shared shop and the journeys' own shops start from copies of one migrated, seeded folder.
  const templatesStartedAt = Date.now();
  makeShopTemplates(path.join(scratch, "templates"), env.MEDIA_DIR!);
  copyShopTemplate("backOffice", env.DATA_DIR!);
  process.env.E2E_BACK_OFFICE = "1";
  console.log(`e2e: data folders seeded in ${((Date.now() - templatesStartedAt) / 1000).toFixed(1)} s`);

  console.log(`e2e: starting the shop at ${baseUrl} (server log: ${logFile})`);
  const startedAt = Date.now();
  const server = spawn(process.execPath, ["server.js"], { cwd: root, env, stdio: ["ignore", log, log] });
  fs.closeSync(log);

  try {
    await waitForHealth(baseUrl, {
      name: "e2e: the shop",
      timeoutMs: startTimeoutMs,
      intervalMs: 250,
      exited: () => exitOf(server),
    });
  } catch (error) {
    await stopChildProcess(server);
    const tail = fs.readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n");
    fs.rmSync(scratch, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n--- last lines of the server log ---\n${tail}`, { cause: error });
  }
  console.log(`e2e: shop ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  process.env.E2E_BASE_URL = baseUrl;
  // Pages axe passed, shared by the workers (e2e/fixtures.ts); removed with the data.
  process.env.E2E_AXE_CHECKED_DIR = path.join(scratch, "axe-checked");
  fs.mkdirSync(process.env.E2E_AXE_CHECKED_DIR);

  return async () => {
    await stopChildProcess(server);
    if (process.env.E2E_KEEP_DATA) console.log(`e2e: data and server log kept in ${scratch}`);
    else fs.rmSync(scratch, { recursive: true, force: true });
  };
}
