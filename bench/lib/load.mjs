// The two halves of every throughput figure: autocannon against the shop, and the same load against a
// bare Node http server in its own process that reads each request and answers the same bytes, so the
// ratio between them holds on a busy machine.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "./shop-server.mjs";

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSecondsOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * autocannon for `durationSeconds`, or for `amount` requests when given; `requests` (optional) is autocannon's
 * request sequence per connection.
 */
export function runLoad({ url, connections, durationSeconds, amount, requests }) {
  return new Promise((resolve, reject) => {
    const length = amount === undefined ? { duration: durationSeconds } : { amount };
    autocannon({ url, connections, ...length, requests }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Shop run then bare run of the same load, each after a 2-second warm-up (JIT, database caches). */
export async function compareWithBare({ shopUrl, bareUrl, connections, durationSeconds, requests }) {
  await runLoad({ url: shopUrl, connections, durationSeconds: 2, requests });
  const shop = await runLoad({ url: shopUrl, connections, durationSeconds, requests });
  await runLoad({ url: bareUrl, connections, durationSeconds: 2, requests });
  const bare = await runLoad({ url: bareUrl, connections, durationSeconds, requests });
  return { shop, bare, ratio: Math.round((shop.requests.average / bare.requests.average) * 1000) / 1000 };
}

/** A plain node:http server answering every request with `body` once it has read the request's body. */
export async function startBareServer(body, contentType) {
  const port = await freePort();
  // The body goes through a file: a large answer (the API's product list) does not fit in argv.
  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bare-body-")), "body");
  fs.writeFileSync(bodyFile, body);
  const source = `
    const http = require("node:http");
    const body = require("node:fs").readFileSync(${JSON.stringify(bodyFile)});
    http.createServer((req, res) => {
      const chunks = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => {
        Buffer.concat(chunks).toString();
        res.writeHead(200, { "Content-Type": ${JSON.stringify(contentType)}, "Content-Length": body.length });
        res.end(body);
      });
    }).listen(${port}, "127.0.0.1", () => process.send("ready"));
  `;
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }).finally(() => fs.rmSync(path.dirname(bodyFile), { recursive: true, force: true })),
  };
}
