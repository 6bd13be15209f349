// Start-up to first served page on the embedded database. Measures the production build:
// a first start (empty data folder: initdb + migrations + sample catalogue) and a second start on the
// same folder, plus what the first visitor then waits for the home page's pictures, which are drawn on
// their first request (server/catalog/sample-pictures.ts) and served from disk the second time.
// Prints a table and writes bench/results/startup.json.
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

/** Each distinct picture of the page at the card width, six at a time as a browser fetches: ms. */
async function timePictures(base, html) {
  const keys = [...new Set([...html.matchAll(/\/media\/products\/([a-z0-9-]+)-\d+\.(?:avif|webp)/g)].map((match) => match[1]))];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      while (next < keys.length) {
        const response = await fetch(`${base}/media/products/${keys[next++]}-320.avif`);
        if (response.status !== 200) throw new Error(`picture answered ${response.status}`);
        await response.arrayBuffer();
      }
    }),
  );
  return { pictures: keys.length, ms: Math.round(performance.now() - started) };
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
          const html = await response.text();
          const ms = Math.round(performance.now() - started);
          return { ms, pictures: await timePictures(`http://127.0.0.1:${port}`, html) };
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
  { case: "first start (empty data folder: create, migrate, seed)", ms: first.ms },
  { case: `then the home page's ${first.pictures.pictures} pictures, drawn on first request`, ms: first.pictures.ms },
  { case: "second start (existing data folder)", ms: second.ms },
  { case: `then the same ${second.pictures.pictures} pictures, from disk`, ms: second.pictures.ms },
];
console.table(rows);
writeResult("startup", { rows }, [
  // Issue 23: `npm start` on a fresh clone shows its first page within 10 s of the build.
  { measure: "first start to first page (empty data folder)", figure: `${(first.ms / 1000).toFixed(1)} s`, target: "<= 10 s" },
  { measure: "the first page's pictures on first start", figure: `${(first.pictures.ms / 1000).toFixed(1)} s (${first.pictures.pictures})` },
  { measure: "later start to first page", figure: `${(second.ms / 1000).toFixed(1)} s` },
]);
