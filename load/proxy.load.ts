/**
 * nginx in front of the shop, `npm run test:load` (after load-and-faults.load.ts): what the proxy itself
 * must do, on the stack production runs (server/ops/stack.ts, server/ops/nginx-config.ts, decision 0072).
 *   f. a 10 MB picture is refused (413) before any app process reads it; a 2 MB picture is accepted;
 *   g. 20 pictures uploaded at once: every app process stays within its memory budget;
 *   h. per-address rate limits (login, API): 429 with Retry-After, a page in the visitor's language or the
 *      API's JSON; other addresses go on; the app sees the connecting address, never a forged one;
 *   i. static files and pictures come from nginx with long cache headers, precompressed;
 *   j. a process killed: GETs go to the other with no error; back in turn once restarted;
 *   k. the production site with TLS: HTTP/2, and plain HTTP redirected to https.
 */
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http2 from "node:http2";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { proxyRateLimits } from "#server/ops/nginx-config.ts";
import { startNginx } from "#server/ops/stack.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createHttpClient, type HttpClient } from "./lib/http-client";
import { freePorts, root, startLoadShop, type LoadShop } from "./lib/load-shop";
import { recordResult } from "./lib/results";

const run = promisify(execFile);
const parts = new Set((process.env.LOAD_PARTS ?? "f,g,h,i,j,k").split(",").map((part) => part.trim()));
/**
 * What 20 pictures uploaded at once may add to an app process's resident memory. Uploads are worked on one
 * at a time per process (server/http/page-queue.ts), each decoded straight to its widest variant: measured
 * +81 to +174 MB over idle in five runs, most of it libvips and glibc's arenas, which keep what they once
 * held. Read all at once, the same uploads added 384 MB.
 */
const uploadMemoryGrowthBudgetMb = 220;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let shop: LoadShop;
let staff: CookieJar;
const clients: HttpClient[] = [];

beforeAll(async () => {
  const started = performance.now();
  shop = await startLoadShop(2);
  console.log(`proxy: ${shop.proxyVersion} in front of the shop at ${shop.url} in ${Math.round((performance.now() - started) / 1000)} s`);
  staff = await signInStaff();
}, 300_000);

afterAll(async () => {
  for (const client of clients) client.close();
  await shop?.stop();
});

function clientFor(localAddress?: string): HttpClient {
  const client = createHttpClient(shop.url, 4, { localAddress });
  clients.push(client);
  return client;
}

/** A customer registered through nginx, then made staff as `npm run admin:create` does, signed in. */
async function signInStaff(): Promise<CookieJar> {
  const client = clientFor("127.0.3.1");
  const origin = { Origin: shop.url };
  const email = `staff.${Date.now()}@example.it`;
  const password = "Tr3no-Blu-Vesuvio";
  const registered = await client.request("/login-register", {
    headers: origin,
    form: { intent: "register", name: "Gennaro Staff", email, password, passwordConfirm: password, privacy: "on" },
  });
  expect(registered.status, registered.body.slice(0, 300)).toBeLessThan(400);
  await shop.sql.query("update users set role = 'admin', email_verified = true where email = $1", [email]);
  const jar = new CookieJar();
  const login = await client.request("/login-register", { headers: origin, form: { intent: "login", email, password } });
  jar.take(login.setCookies);
  expect(login.status).toBe(302);
  return jar;
}

/** A phone photo's worth of JPEG: 3000x2000 pixels, about 2 MB. */
async function photoOfAbout2Mb(): Promise<Buffer> {
  const [width, height] = [3000, 2000];
  const noise = crypto.randomBytes(width * height * 3);
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .blur(0.8)
    .jpeg({ quality: 78 })
    .toBuffer();
}

/** The back office's picture form, sent through nginx as the browser sends it (multipart). */
async function uploadPicture(productId: number, file: Buffer, name: string): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.set("intent", "image-add");
  form.set("image", new Blob([new Uint8Array(file)], { type: "image/jpeg" }), name);
  const response = await fetch(`${shop.url}/admin/prodotti/${productId}`, {
    method: "POST",
    body: form,
    headers: { Origin: shop.url, Cookie: staff.header(), Accept: "text/html" },
    redirect: "manual",
    signal: AbortSignal.timeout(120_000),
  });
  return { status: response.status, body: await response.text() };
}

/** nginx's access-log lines (log_format bimbi) for requests whose line contains `text`. */
function accessLogLines(text: string): string[] {
  return fs
    .readFileSync(shop.proxyAccessLog, "utf8")
    .split("\n")
    .filter((line) => line.includes(text));
}

/**
 * The log's lines with `text` once there are at least `count` of them: nginx writes a line when it is done with
 * the request, which can be after the client has its answer (a refused upload's, once the rest of the body is
 * read and dropped).
 */
function awaitAccessLogLines(text: string, count: number): Promise<string[]> {
  return vi.waitFor(
    () => {
      const lines = accessLogLines(text);
      if (lines.length < count) throw new Error(`${lines.length} of ${count} access-log lines with ${text}`);
      return lines;
    },
    { timeout: 10_000, interval: 50 },
  );
}

const pictureCount = async (productId: number) =>
  Number((await shop.sql.query<{ n: string }>("select count(*) as n from product_images where product_id = $1", [productId])).rows[0]!.n);

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

function record(part: string, started: number, connections: number, requests: number, errors: number, note: string) {
  recordResult({
    part,
    connections,
    requests,
    errors,
    hangs: 0,
    refused: 0,
    unavailable: 0,
    ordersPlaced: 0,
    oversells: 0,
    lost: 0,
    doubled: 0,
    halfWritten: 0,
    recoverySeconds: null,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    note,
  });
}

test.runIf(parts.has("f"))(
  "f. a 10 MB picture is refused by nginx before any app process reads it; a 2 MB picture is accepted",
  async () => {
    const started = performance.now();
    const productId = shop.catalogue.productIds[0]!;
    const before = await pictureCount(productId);

    const tooBig = await uploadPicture(productId, crypto.randomBytes(10 * 1024 * 1024), "grande.jpg");
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toContain(messagesIt.errors.tooLargeBody);
    const refusedLines = await awaitAccessLogLines(`"POST /admin/prodotti/${productId} HTTP/1.1" 413`, 1);
    expect(refusedLines.length).toBe(1);
    expect(refusedLines[0], "nginx asked no app process").toContain("upstream=- ");

    const photo = await photoOfAbout2Mb();
    expect(photo.byteLength).toBeGreaterThan(1.6 * 1024 * 1024);
    expect(photo.byteLength).toBeLessThan(2.6 * 1024 * 1024);
    const accepted = await uploadPicture(productId, photo, "foto.jpg");
    expect(accepted.status, accepted.body.slice(0, 300)).toBeGreaterThanOrEqual(300);
    expect(accepted.status).toBeLessThan(400);
    expect(await pictureCount(productId)).toBe(before + 1);
    record(
      "f body limits",
      started,
      1,
      2,
      0,
      `10 MB refused by nginx (413, no process asked); ${(photo.byteLength / 1024 / 1024).toFixed(1)} MB photo accepted`,
    );
  },
  180_000,
);

test.runIf(parts.has("g"))(
  `g. 20 pictures uploaded at once: no app process grows by more than ${uploadMemoryGrowthBudgetMb} MB`,
  async () => {
    const started = performance.now();
    const productId = shop.catalogue.productIds[1]!;
    const before = await pictureCount(productId);
    const photos = await Promise.all(Array.from({ length: 4 }, () => photoOfAbout2Mb()));
    const pids = shop.processes.slots.map((slot) => slot.child!.pid!);
    const idle = pids.map(rssMb);
    const peak = [...idle];
    const sampler = setInterval(() => {
      pids.forEach((pid, index) => {
        peak[index] = Math.max(peak[index]!, rssMb(pid));
      });
    }, 50);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => uploadPicture(productId, photos[index % photos.length]!, `foto-${index}.jpg`)),
    ).finally(() => clearInterval(sampler));
    const accepted = answers.filter((answer) => answer.status >= 300 && answer.status < 400).length;
    record(
      "g 20 uploads at once",
      started,
      20,
      answers.length,
      answers.length - accepted,
      `RSS per process idle ${idle.join(" / ")} MB, peak ${peak.join(" / ")} MB (budget: idle + ${uploadMemoryGrowthBudgetMb})`,
    );
    expect(accepted, JSON.stringify(answers.filter((answer) => answer.status >= 400).map((answer) => answer.status))).toBe(20);
    expect(await pictureCount(productId)).toBe(before + 20);
    peak.forEach((mb, index) => expect(mb - idle[index]!).toBeLessThanOrEqual(uploadMemoryGrowthBudgetMb));
  },
  600_000,
);

test.runIf(parts.has("h"))(
  "h. rate limits per address: 429 with Retry-After in the visitor's language, JSON for the API; other addresses go on; no forged address",
  async () => {
    const started = performance.now();
    const origin = { Origin: shop.url };
    // A new e-mail each time: the app's own limit per account (5 a minute) must not answer first.
    const loginForm = (attempt: number) => ({ intent: "login", email: `nessuno.${attempt}@example.it`, password: "sbagliata-1234" });

    // One address trying passwords: past the burst, nginx answers for the app.
    const guesser = clientFor("127.0.2.1");
    const answers = [];
    for (let attempt = 0; attempt < proxyRateLimits.login.burst + 10; attempt += 1) {
      answers.push(await guesser.request("/en/login-register", { headers: origin, form: loginForm(attempt) }));
    }
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers[0]!.status).not.toBe(429);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(limited[0]!.headers["retry-after"]).toBe("5");
    expect(limited[0]!.body).toContain(messagesEn.proxy.tooManyRequests.title);
    const refusedLogins = await awaitAccessLogLines('"POST /en/login-register HTTP/1.1" 429', limited.length);
    expect(refusedLogins.length).toBeGreaterThanOrEqual(limited.length);
    expect(refusedLogins.every((line) => line.includes("upstream=- "))).toBe(true);

    // Another address is not held back by the first one's guesses.
    const neighbour = await clientFor("127.0.2.2").request("/login-register", { headers: origin, form: loginForm(100) });
    expect(neighbour.status).not.toBe(429);

    // Search and gift-list codes, each from its own address: past the burst, 429 in the page's language.
    // All at once on their own sockets: nginx counts them as they arrive, however slowly the shop answers.
    const burstOf = async (localAddress: string, paths: string[]) => {
      const client = createHttpClient(shop.url, paths.length, { localAddress });
      clients.push(client);
      return Promise.all(paths.map((path) => client.request(path)));
    };
    const searches = await burstOf(
      "127.0.2.4",
      Array.from({ length: proxyRateLimits.search.burst * 2 }, (_, index) => `/en/shop?search=passeggino-${index}`),
    );
    const searchesLimited = searches.filter((answer) => answer.status === 429);
    expect(searchesLimited.length).toBeGreaterThan(0);
    expect(searchesLimited[0]!.body).toContain(messagesEn.proxy.tooManyRequests.title);
    const codes = await burstOf(
      "127.0.2.5",
      Array.from({ length: proxyRateLimits.giftListCode.burst * 2 }, (_, index) => `/lista-nascita?codice=NESSUNA${index}`),
    );
    const codesLimited = codes.filter((answer) => answer.status === 429);
    expect(codesLimited.length).toBeGreaterThan(0);
    expect(codesLimited[0]!.body).toContain(messagesIt.proxy.tooManyRequests.title);
    expect(codes.filter((answer) => answer.status !== 429).every((answer) => answer.status === 200)).toBe(true);

    // The API: JSON in the caller's language.
    const apiClient = clientFor("127.0.2.3");
    const apiAnswers = await Promise.all(
      Array.from({ length: proxyRateLimits.api.burst * 3 }, () =>
        apiClient.request("/api/openapi.json", { headers: { Accept: "application/json", "Accept-Language": "en" } }),
      ),
    );
    const apiLimited = apiAnswers.filter((answer) => answer.status === 429);
    expect(apiLimited.length).toBeGreaterThan(0);
    expect(apiLimited[0]!.headers["content-type"]).toContain("application/json");
    expect(JSON.parse(apiLimited[0]!.body)).toEqual({ error: { code: "too-many-requests", message: messagesEn.api.errors["too-many-requests"] } });

    // A client that says it is somebody else: the app counts its failed login against the address it connects from.
    await shop.sql.query("delete from rate_limits where key like 'login:ip:%'");
    const forger = clientFor("127.0.2.9");
    const forged = await forger.request("/login-register", { headers: { ...origin, "X-Forwarded-For": "203.0.113.7" }, form: loginForm(101) });
    expect(forged.status).not.toBe(429);
    const keys = (await shop.sql.query<{ key: string }>("select key from rate_limits where key like 'login:ip:%'")).rows.map((row) => row.key);
    expect(keys).toContain("login:ip:127.0.2.9");
    expect(keys.some((key) => key.includes("203.0.113.7"))).toBe(false);

    record(
      "h rate limits",
      started,
      4,
      answers.length + searches.length + codes.length + apiAnswers.length + 2,
      0,
      `login: ${limited.length} of ${answers.length} refused (429) from one address, its neighbour served; search: ${searchesLimited.length} of ${searches.length}; gift-list codes: ${codesLimited.length} of ${codes.length}; API: ${apiLimited.length} of ${apiAnswers.length}; forged X-Forwarded-For ignored`,
    );
  },
  120_000,
);

test.runIf(parts.has("i"))(
  "i. scripts and pictures come from nginx, precompressed and cached for long",
  async () => {
    const started = performance.now();
    const assetsDir = path.join(root, "build/client/assets");
    const script = fs
      .readdirSync(assetsDir)
      .filter((name) => name.endsWith(".js"))
      .map((name) => ({ name, size: fs.statSync(path.join(assetsDir, name)).size }))
      .sort((a, b) => b.size - a.size)[0]!.name;
    const client = clientFor();
    const brotli = await client.request(`/assets/${script}`, { headers: { "Accept-Encoding": "gzip, deflate, br, zstd" } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const gzip = await client.request(`/assets/${script}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const scriptLines = await awaitAccessLogLines(`"GET /assets/${script} HTTP/1.1" 200`, 2);
    expect(scriptLines.length).toBeGreaterThanOrEqual(2);
    expect(scriptLines.every((line) => line.includes("upstream=- "))).toBe(true);

    // A picture the app has drawn once is on disk: from then on nginx sends it.
    const home = await client.request("/");
    const picture = /\/media\/products\/[a-z0-9.-]+\.avif/.exec(home.body)![0];
    expect((await client.request(picture)).status).toBe(200);
    const again = await client.request(picture);
    expect(again.status).toBe(200);
    expect(again.headers["cache-control"]).toBe("public, max-age=604800");
    expect((await awaitAccessLogLines(`"GET ${picture} HTTP/1.1" 200`, 2)).at(-1)).toContain("upstream=- ");
    record("i static from nginx", started, 1, 5, 0, `${script}: br and gzip copies with a year's cache; ${picture} from disk with a week's`);
  },
  60_000,
);

test.runIf(parts.has("j"))(
  "j. a process killed: GETs go to the other with no error; once restarted it answers its share again",
  async () => {
    const started = performance.now();
    const client = clientFor();
    const victim = shop.processes.slots[1]!;
    victim.child!.kill("SIGKILL");
    const statuses: number[] = [];
    for (let request = 0; request < 30; request += 1) statuses.push((await client.request(`/product/${shop.catalogue.productIds[request]!}`)).status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    await shop.processes.waitUntilServing(1, 60_000);
    // nginx tries a process it left out again after fail_timeout (5 s).
    await sleep(6_000);
    const marker = `/shop?proxy-check=${Date.now()}`;
    for (let request = 0; request < 20; request += 1) expect((await client.request(`${marker}-${request}`)).status).toBe(200);
    const upstreams = new Set(accessLogLines(marker).map((line) => /upstream=(\S+)/.exec(line)![1]));
    expect(upstreams).toEqual(new Set(shop.processes.slots.map((slot) => `127.0.0.1:${slot.port}`)));
    record(
      "j process out and in",
      started,
      1,
      50,
      0,
      `30 product pages while one process was down: all 200; after its restart both processes answered`,
    );
  },
  120_000,
);

test.runIf(parts.has("k"))(
  "k. the production site with TLS speaks HTTP/2, and plain HTTP is sent to https",
  async () => {
    const started = performance.now();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bimbi-tls-"));
    // nginx's workers (nobody) read their pages below it.
    fs.chmodSync(dir, 0o755);
    try {
      const certificate = path.join(dir, "cert.pem");
      const key = path.join(dir, "key.pem");
      await run("openssl", [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        key,
        "-out",
        certificate,
      ]);
      const httpsPort = await freePorts(2);
      const httpPort = httpsPort + 1;
      const nginx = await startNginx(path.join(dir, "nginx"), {
        serverName: "localhost",
        listen: { host: "127.0.0.1", port: httpsPort },
        tls: { certificate, key, redirectPort: httpPort },
        upstreams: shop.processes.slots.map((slot) => ({ host: "127.0.0.1", port: slot.port })),
        clientDir: path.join(root, "build/client"),
        mediaDir: null,
      });
      try {
        const session = http2.connect(`https://127.0.0.1:${httpsPort}`, { ca: fs.readFileSync(certificate), servername: "localhost" });
        const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = session.request({ ":path": "/en/", "accept-encoding": "identity" });
          let status = 0;
          const chunks: Buffer[] = [];
          request.on("response", (headers) => (status = Number(headers[":status"])));
          request.on("data", (chunk: Buffer) => chunks.push(chunk));
          request.on("end", () => resolve({ status, body: Buffer.concat(chunks).toString("utf8") }));
          request.on("error", reject);
          request.end();
        });
        expect(session.alpnProtocol).toBe("h2");
        session.close();
        expect(status).toBe(200);
        expect(body).toContain('<html lang="en"');
        const plain = await fetch(`http://127.0.0.1:${httpPort}/shop?x=1`, { redirect: "manual" });
        expect(plain.status).toBe(301);
        expect(plain.headers.get("location")).toBe("https://127.0.0.1/shop?x=1");
      } finally {
        await nginx.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    record("k TLS and HTTP/2", started, 1, 2, 0, "h2 over TLS on the production site; plain HTTP answered 301 to https");
  },
  60_000,
);
