// Start-up to first served page on the embedded database. Measures the production build:
// a first start (empty data folder: initdb + migrations + sample catalogue + images) and a second
// start on the same folder. Prints a table and writes bench/results/startup.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeResult } from "./lib/results.mjs";
import { freePort, root } from "./lib/shop-server.mjs";

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.error("Build first: npm run build");
  process.exit(1);
}

async function timeToFirstPage(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ALLOW_LOCALHOST_PUBLIC_URL: "true",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.status === 200) {
          await response.text();
          return Math.round(performance.now() - started);
        }
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 300_000) throw new Error("no page after 5 minutes");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-startup-"));
const first = await timeToFirstPage(dataDir);
const second = await timeToFirstPage(dataDir);
fs.rmSync(dataDir, { recursive: true, force: true });

const rows = [
  { case: "first start (empty data folder: create, migrate, seed, images)", ms: first },
  { case: "second start (existing data folder)", ms: second },
];
console.table(rows);
writeResult("startup", { rows }, [
  { measure: "first start to first page (empty data folder)", figure: `${(first / 1000).toFixed(1)} s` },
  { measure: "later start to first page", figure: `${(second / 1000).toFixed(1)} s` },
]);
