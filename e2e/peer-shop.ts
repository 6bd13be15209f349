/**
 * A shop of its own for journeys that need outside peers (a local SMTP server, an OpenID Connect
 * provider, a local Stripe): the built shop (`node server.js`) on a free port with a fresh DATA_DIR
 * and the peers' settings in `env`. Settings not given are cleared, so nothing of the host leaks in.
 *
 *   const shop = await startPeerShop({ name: "accounts", env: (baseUrl) => ({ SMTP_URL: smtp.url }) });
 *   ...; await shop.stop();
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { waitForHealth } from "../server/ops/health";
import { backOfficeAccount, createBackOfficeAccount } from "./back-office-account";
import { copyShopTemplate } from "./shop-templates";

export type PeerShop = { baseUrl: string; stop: () => Promise<void>; /** What the shop printed so far (with `keepOutput`). */ output: () => string };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** How a child process ended ("code 1", "code SIGTERM"), or null while it runs. */
export function exitOf(child: ChildProcess): string | null {
  return child.exitCode !== null || child.signalCode !== null ? `code ${child.exitCode ?? child.signalCode}` : null;
}

/** Stops a shop process the tests started: SIGTERM lets it close its database; SIGKILL if it still runs 15 s later. */
export async function stopChildProcess(child: ChildProcess): Promise<void> {
  if (exitOf(child) !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

export async function startPeerShop(options: {
  name: string;
  env: (baseUrl: string) => Record<string, string>;
  /** A port chosen beforehand (a peer must know the shop's address first); default any free one. */
  port?: number;
  /** Make back-office-account.ts's account on the fresh data folder first, for journeys that check the back office. */
  withBackOffice?: boolean;
  /** Keep the shop's standard output (its log lines) for the journey to read. */
  keepOutput?: boolean;
}): Promise<PeerShop> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `bimbi-e2e-${options.name}-`));
  const mediaDir = path.resolve("node_modules/.cache/e2e-media");
  const dataDir = path.join(scratch, "data");
  const ownEnv = options.env(baseUrl);
  // A shop that seeds the sample catalogue starts from the run's seeded copy; one that asks for an empty database
  // (its first start is what the journey checks) migrates its own.
  const seeds = ownEnv.SEED_SAMPLE_DATA !== "false" && !ownEnv.DATA_DIR;
  const copied = seeds && copyShopTemplate(options.withBackOffice ? "backOffice" : "seeded", dataDir);
  if (options.withBackOffice && !copied) createBackOfficeAccount({ dataDir: ownEnv.DATA_DIR ?? dataDir, mediaDir, ...backOfficeAccount });
  const server: ChildProcess = spawn(process.execPath, ["server.js"], {
    // E2E_SHOP_DIR: a copy of the built shop to run instead of this checkout's (when others rebuild it meanwhile).
    cwd: process.env.E2E_SHOP_DIR ?? path.resolve(import.meta.dirname, ".."),
    stdio: ["ignore", options.keepOutput ? "pipe" : "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      ALLOW_LOCALHOST_PUBLIC_URL: "true",
      DATA_DIR: dataDir,
      MEDIA_DIR: mediaDir,
      AUTH_SECRET: crypto.randomBytes(32).toString("hex"),
      DATABASE_URL: "",
      SMTP_URL: "",
      OIDC_ISSUER: "",
      STRIPE_SECRET_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      STRIPE_API_URL: "",
      SCALAPAY_API_KEY: "",
      SCALAPAY_API_URL: "",
      ACUBE_EMAIL: "",
      ACUBE_PASSWORD: "",
      ACUBE_WEBHOOK_PUBLIC_KEY: "",
      // Without a Stripe peer, card orders go to the labelled test-payment page.
      ALLOW_TEST_PAYMENTS: "true",
      RATES_URL: "",
      LOG_LEVEL: "error",
      ...ownEnv,
    },
  });
  let output = "";
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    await stopChildProcess(server);
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, {
      name: `the ${options.name} shop`,
      // As long as the shared shop may take (e2e/server.ts): a busy machine seeds slowly.
      timeoutMs: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 180_000),
      intervalMs: 300,
      exited: () => exitOf(server),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop, output: () => output };
}
