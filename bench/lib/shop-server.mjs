// Shared by the benches (not a bench itself: scripts/bench.mjs runs only bench/*.mjs).
// Starts the production build (`node server.js`) on a free port with a fresh embedded database
// and the machine's cached sample pictures, or uses BENCH_BASE_URL when set.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { waitForHealth } from "../../server/ops/health.ts";

export const root = path.resolve(import.meta.dirname, "../..");

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * { baseUrl, pid, stop } of a running shop: on a fresh embedded database (or the one in `dataDir`, kept on
 * stop), or on `databaseUrl`'s PostgreSQL database as it is (migrated on start; seeded only when it has no
 * products). `nodeArgs` go before server.js; `env` is added to the shop's environment. `counted`: the build is
 * started by lib/counted-shop.mjs instead, and `counts()` gives its page cache's counts.
 */
export async function startShopForBench({
  databaseUrl = "",
  appRoot = root,
  dataDir: givenDataDir = "",
  nodeArgs = [],
  env = {},
  counted = false,
} = {}) {
  if (process.env.BENCH_BASE_URL && appRoot === root)
    return { baseUrl: process.env.BENCH_BASE_URL.replace(/\/$/, ""), pid: null, stop: async () => {} };
  if (!fs.existsSync(path.join(appRoot, "build/server/index.js"))) {
    console.error("Build first: npm run build");
    process.exit(1);
  }
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = givenDataDir || fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-"));
  const entry = counted ? path.join(root, "bench/lib/counted-shop.mjs") : "server.js";
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: appRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      ALLOW_LOCALHOST_PUBLIC_URL: "true",
      DATA_DIR: dataDir,
      MEDIA_DIR: process.env.MEDIA_DIR ?? path.join(root, "node_modules/.cache/e2e-media"),
      AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0",
      LOG_LEVEL: "warn",
      DATABASE_URL: databaseUrl,
      RATES_URL: "",
      // No Stripe keys: card orders are paid on the labelled test-payment page.
      ALLOW_TEST_PAYMENTS: "true",
      ...env,
    },
    stdio: counted ? ["ignore", "ignore", "inherit", "ipc"] : ["ignore", "ignore", "inherit"],
  });
  await waitForHealth(baseUrl, {
    name: "the shop",
    timeoutMs: 300_000,
    exited: () => (child.exitCode === null ? null : `code ${child.exitCode}`),
  });
  return {
    baseUrl,
    pid: child.pid,
    counts: () =>
      new Promise((resolve) => {
        child.once("message", (message) => resolve(message.counts));
        child.send("counts");
      }),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!givenDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The pages the benches measure: home, a category listing and a product page (the first product
 * the home page links to). `real` says whether the page is built yet or still "coming soon".
 */
export async function benchPages(baseUrl) {
  const home = await (await fetch(`${baseUrl}/`)).text();
  const productId = /href="\/product\/(\d+)"/.exec(home)?.[1];
  if (!productId) throw new Error("no product link on the home page");
  const pages = [
    { name: "home", path: "/" },
    { name: "category", path: "/categoria/A-spasso" },
    { name: "product", path: `/product/${productId}` },
  ];
  for (const page of pages) {
    const html = await (await fetch(`${baseUrl}${page.path}`)).text();
    // The stand-in of pages not built yet (app/routes/pages/coming-soon.tsx) says so.
    page.real = !html.includes("Questa pagina arriverà presto");
  }
  return pages;
}
