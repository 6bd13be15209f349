// Server-rendered throughput (issue 3): the product page and a listing through the whole shop
// (Express, React Router SSR, database), against a bare Node http server sending the same bytes,
// measured in the same run with autocannon at 50 connections. The ratio is what to compare
// between machines. Prints a table and writes bench/results/throughput.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchPages, freePort, startShopForBench, writeResult } from "./lib/shop-server.mjs";

const connections = 50;
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);

const shop = await startShopForBench();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bare-"));
try {
  const pages = (await benchPages(shop.baseUrl)).filter((page) => page.name !== "home");
  const rows = [];
  for (const page of pages) {
    const url = `${shop.baseUrl}${page.path}`;
    const response = await fetch(url);
    const body = Buffer.from(await response.arrayBuffer());
    const bare = await startBareServer(body, response.headers.get("content-type") ?? "text/html; charset=utf-8");
    try {
      await load(url, 2); // warm-up: JIT, database caches
      const shopRun = await load(url, durationSeconds);
      await load(bare.url, 2);
      const bareRun = await load(bare.url, durationSeconds);
      rows.push({
        page: page.name,
        path: page.path,
        built: page.real ? "yes" : "no (coming soon)",
        "KB per page": Math.round(body.length / 102.4) / 10,
        "shop req/s": Math.round(shopRun.requests.average),
        "shop p50 ms": shopRun.latency.p50,
        "shop p99 ms": shopRun.latency.p99,
        "bare req/s": Math.round(bareRun.requests.average),
        "bare p99 ms": bareRun.latency.p99,
        "shop / bare": Math.round((shopRun.requests.average / bareRun.requests.average) * 1000) / 1000,
        errors: shopRun.errors + shopRun.non2xx,
      });
    } finally {
      await bare.stop();
    }
  }
  console.table(rows);
  const file = writeResult("throughput", { connections, durationSeconds, rows });
  console.log(`written to ${file}`);
} finally {
  await shop.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}

function load(url, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** A plain node:http server, in its own process like the shop, answering every request with `body`. */
async function startBareServer(body, contentType) {
  const port = await freePort();
  const bodyFile = path.join(scratch, `body-${port}`);
  fs.writeFileSync(bodyFile, body);
  const source = `
    const http = require("node:http");
    const body = require("node:fs").readFileSync(${JSON.stringify(bodyFile)});
    http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": ${JSON.stringify(contentType)}, "Content-Length": body.length });
      res.end(body);
    }).listen(${port}, "127.0.0.1", () => process.send("ready"));
  `;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}
