/**
 * The whole shop in the test process for the security suite: the production Express application
 * (server/http/shop-app.ts: headers, CSP, the database gate, React Router) with React Router's
 * build from Vite, on a fresh migrated database with the sample catalogue, listening on 127.0.0.1.
 * Requests go over real HTTP with the public `Host` (and X-Forwarded-Proto, TRUST_PROXY=1), so
 * React Router sees the public address, as behind the front.
 */
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Express } from "express";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll } from "vitest";
import { createTestAuthServices } from "#tests/fixtures/accounts.fixtures.ts";
import { makeAdmin } from "#server/accounts/admin.service.ts";
import type { DbHandle } from "#server/db/client.ts";
import { seedSampleCatalogue } from "#server/db/seed.ts";
import type { ShopServices } from "#server/shop-services.ts";
import { createLogger } from "#server/log.ts";
import { seedDefaultSettings } from "#server/settings/settings.service.ts";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createTestDb } from "#tests/db.ts";
import { concreteRoutes } from "./page-routes";

export type HttpAnswer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  setCookies: string[];
  location: string | null;
  body: string;
  /** The bytes as sent (compressed when the request asked for it). */
  raw: Buffer;
};

export type RequestInit = {
  method?: string;
  headers?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** A raw body, sent as it is with the Content-Type given in `headers`. */
  body?: string | Buffer;
  cookie?: string;
  /** The client address the shop sees (rate limits count per address). */
  clientIp?: string;
};

export type InProcessShop = {
  publicUrl: string;
  /** The local port, for tests that speak HTTP over a raw socket. */
  port: number;
  /** The listening server, for tests that watch requests arrive and connections close. */
  server: http.Server;
  handle: DbHandle;
  services: ShopServices;
  /** The Express application (its `locals`: the page cache's counts). */
  app: Express;
  request: (pathAndQuery: string, init?: RequestInit) => Promise<HttpAnswer>;
  close: () => Promise<void>;
};

let vite: ViteDevServer | undefined;

/**
 * One Vite server per test worker (test files share their worker's modules, vitest.config.ts): it compiles
 * each route module once, on its first request, for every file the worker runs. The
 * Express application is loaded through it too, so the router contexts it sets are the very
 * objects the route modules read (a second copy of server/http/context.ts would not match).
 */
async function loadApp() {
  vite ??= await startViteAlone();
  const server = vite;
  const { createShopApp } = (await server.ssrLoadModule("/server/http/shop-app.ts")) as typeof import("#server/http/shop-app.ts");
  const { answerUnreadableRequests } = (await server.ssrLoadModule(
    "/server/http/unreadable-requests.ts",
  )) as typeof import("#server/http/unreadable-requests.ts");
  return { createShopApp, answerUnreadableRequests, build: () => server.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild> };
}

const viteStartLock = path.resolve(import.meta.dirname, "../../node_modules/.cache/in-process-vite.lock");

/**
 * React Router's Vite plugin deletes and rewrites .react-router/types as a dev server starts: two test
 * workers starting one at once broke each other's writes (ENOTEMPTY, ENOENT). One start at a time across
 * processes, held until the server has loaded the route build, by which time that rewrite is long done;
 * a lock older than two minutes was left by a process that died and is taken over.
 */
async function startViteAlone() {
  fs.mkdirSync(path.dirname(viteStartLock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(viteStartLock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(viteStartLock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) fs.rmSync(viteStartLock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    const server = await createServer({ server: { middlewareMode: true, hmr: false, ws: false, watch: null }, appType: "custom", logLevel: "error" });
    await server.ssrLoadModule("virtual:react-router/server-build");
    return server;
  } finally {
    fs.rmSync(viteStartLock, { recursive: true, force: true });
  }
}

/**
 * `database`: another shop's database, already seeded (a second app process on it; the caller closes it).
 * `pageCacheBytes`: server/http/page-cache.ts's bound, 0 to render every page. `fillPlans`: its fill plans held.
 * `env`: settings besides the tests' own.
 */
export async function startInProcessShop(
  options: {
    publicUrl?: string;
    database?: DbHandle;
    pageCacheBytes?: number;
    fillPersonalPages?: boolean;
    fillPlans?: number;
    env?: Record<string, string>;
  } = {},
): Promise<InProcessShop> {
  const publicUrl = options.publicUrl ?? "http://shop.test";
  const handle = options.database ?? (await createTestDb());
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "security-media-"));
  if (!options.database) {
    await seedDefaultSettings(handle.db);
    await seedSampleCatalogue(handle.db, { now: new Date() });
  }
  const services: ShopServices = {
    ...createTestAuthServices(handle.db, { TRUST_PROXY: "1", MEDIA_DIR: mediaDir, ...options.env }, publicUrl),
    log: createLogger("silent"),
  };
  const { createShopApp, answerUnreadableRequests, build } = await loadApp();
  const app = createShopApp({
    services,
    database: handle,
    build,
    mode: "production",
    formActions: () => [],
    pageCacheBytes: options.pageCacheBytes,
    fillPersonalPages: options.fillPersonalPages,
    fillPlans: options.fillPlans,
  });
  const server = app.listen(0, "127.0.0.1");
  answerUnreadableRequests(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const publicHost = new URL(publicUrl).host;
  const protocol = new URL(publicUrl).protocol.replace(":", "");
  // A connection per request: an action refusing a post before reading its body leaves a connection Node then closes.
  const agent = new http.Agent({ keepAlive: false });

  const request = (pathAndQuery: string, init: RequestInit = {}) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      let body: string | Buffer | undefined = init.body;
      const headers: Record<string, string> = {
        Host: publicHost,
        "X-Forwarded-Proto": protocol,
        "X-Forwarded-For": init.clientIp ?? "203.0.113.50",
        Accept: "text/html",
      };
      if (body === undefined && init.form) {
        body = new URLSearchParams(init.form).toString();
        headers["Content-Type"] = "application/x-www-form-urlencoded";
      } else if (body === undefined && init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers["Content-Type"] = "application/json";
        headers.Accept = "application/json";
      }
      if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
      if (init.cookie) headers.Cookie = init.cookie;
      Object.assign(headers, init.headers);
      let answered = false;
      const outgoing = http.request(
        { host: "127.0.0.1", port, path: pathAndQuery, method: init.method ?? (body === undefined ? "GET" : "POST"), headers, agent },
        (answer) => {
          answered = true;
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () =>
            resolve({
              status: answer.statusCode ?? 0,
              headers: answer.headers,
              setCookies: answer.headers["set-cookie"] ?? [],
              location: answer.headers.location ?? null,
              body: Buffer.concat(chunks).toString("utf8"),
              raw: Buffer.concat(chunks),
            }),
          );
          answer.on("error", reject);
        },
      );
      outgoing.setTimeout(60_000, () => outgoing.destroy(new Error(`no answer to ${pathAndQuery} within 60 s`)));
      // A server that answers before reading a large body (413, 401) may close while it is still being sent: the answer counts.
      outgoing.on("error", (error) => {
        if (!answered) reject(error);
      });
      outgoing.end(body);
    });

  return {
    publicUrl,
    port,
    server,
    handle,
    services,
    app,
    request,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await handle.close();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

/** The cookies a browser would keep from the answers so far, as a Cookie header. */
export function cookieHeaderOf(...answers: HttpAnswer[]): string {
  const jar = new CookieJar();
  for (const answer of answers) jar.take(answer.setCookies);
  return jar.header();
}

const testPassword = "Tr3no-Blu-Vesuvio-42";

/** The login page's form post, as a browser sends it (the answer carries the session cookies). */
export function logIn(shop: InProcessShop, email: string, password = testPassword): Promise<HttpAnswer> {
  return shop.request("/login-register", { form: { intent: "login", email, password }, headers: { Origin: shop.publicUrl } });
}

/** A signed-in customer (registered through the page) or admin (made as the command line does): the session's Cookie header. */
export async function signIn(shop: InProcessShop, role: "customer" | "admin", email: string, password = testPassword): Promise<string> {
  if (role === "admin") {
    const made = await makeAdmin(shop.services, { email, password });
    if (!made.ok) throw new Error(`admin not made: ${made.error}`);
  } else {
    const registered = await shop.request("/login-register", {
      form: { intent: "register", name: "Anna Esposito", email, password, passwordConfirm: password, privacy: "on" },
      headers: { Origin: shop.publicUrl },
    });
    if (registered.status >= 400) throw new Error(`registration refused: ${registered.status}`);
  }
  const login = await logIn(shop, email, password);
  if (login.status !== 302 && login.status !== 303) throw new Error(`login refused: ${login.status} ${login.body.slice(0, 200)}`);
  return cookieHeaderOf(login);
}

/** The shop, its concrete routes, and an admin and a customer signed in: the start of the suites that post everywhere. */
export async function startShopWithVisitors() {
  const shop = await startInProcessShop();
  return {
    shop,
    routes: await concreteRoutes(shop.handle.db),
    admin: await signIn(shop, "admin", "carla.admin@bimbifelici.test"),
    customer: await signIn(shop, "customer", "anna.cliente@example.it"),
  };
}

export type ShopWithVisitors = Awaited<ReturnType<typeof startShopWithVisitors>>;

/**
 * The file's shop with its visitors, started before its tests and closed after them;
 * `take` hands them to the file's own variables.
 */
export function useShopWithVisitors(take: (started: ShopWithVisitors) => void) {
  let shop: InProcessShop | undefined;
  beforeAll(async () => {
    const started = await startShopWithVisitors();
    shop = started.shop;
    take(started);
  }, 240_000);
  afterAll(async () => {
    await shop?.close();
  });
}

/** Every endpoint of the auth library, from its own endpoint table: its URL (parameters filled) and methods. */
export function authEndpointsOf(shop: InProcessShop): { path: string; methods: string[] }[] {
  return Object.values(shop.services.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
    .filter((endpoint) => typeof endpoint.path === "string" && endpoint.path.startsWith("/"))
    .map((endpoint) => ({
      path: `/api/auth${endpoint.path!.replace(/:[a-zA-Z]+/g, "x")}`,
      methods: [endpoint.options?.method ?? "GET"].flat().filter((method) => method !== "*"),
    }));
}

/** Speaks HTTP/1.1 over a raw socket: what arrives, when the answer's head came and when the server closed. */
export function rawExchange(port: number, head: string, body: Buffer): Promise<{ text: string; answeredMs: number; closedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answeredMs = -1;
    let text = "";
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(head);
      socket.write(body, () => {});
    });
    socket.on("data", (chunk) => {
      if (answeredMs < 0) answeredMs = performance.now() - started;
      text += chunk.toString("latin1");
    });
    // A reset after the answer is how a server may end a connection whose body it did not read.
    socket.on("error", (error) => (answeredMs < 0 ? reject(error) : undefined));
    socket.on("close", () => resolve({ text, answeredMs, closedMs: performance.now() - started }));
    socket.setTimeout(15_000, () => socket.destroy());
  });
}
