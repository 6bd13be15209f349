/**
 * The page cache never hangs (docs/decisions/0082-page-cache-waits-bounded.md): first requests for pages not
 * kept yet, each dropped by its client at a point of its path (before the versions read, in the page queue,
 * mid-render, mid-send), and then every page asked again answers, within a bound, through the production
 * application in-process.
 */
import http from "node:http";
import { sql, TransactionRollbackError } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { startInProcessShop, type InProcessShop } from "#tests/security/in-process-shop.ts";
import { concreteRoutes } from "#tests/security/page-routes.ts";
import { isKeptPattern, type PageCache } from "./page-cache";

const slow = { timeout: 240_000 };
/** What a page asked again may take at most: a render on a loaded machine, never a wait for a render that will not come. */
const answerBoundMs = 10_000;

let shop: InProcessShop;
let keptUrls: string[];

beforeAll(async () => {
  shop = await startInProcessShop();
  const routes = (await concreteRoutes(shop.handle.db)).filter((route) => isKeptPattern(route.pattern));
  keptUrls = [
    ...routes.map((route) => route.url),
    ...routes.filter((route) => route.isPage).map((route) => (route.url === "/" ? "/_.data" : `${route.url}.data`)),
  ];
}, 240_000);

afterAll(async () => {
  await shop?.close();
});

/** Every kept route's page and `.data`, under a query of its own: none of them kept yet. */
const firstVisitUrls = (visit: string) => keptUrls.map((url) => `${url}${url.includes("?") ? "&" : "?"}visit=${visit}`);

/**
 * Holds a transaction that the versions read waits for (on PostgreSQL the sequence's ACCESS EXCLUSIVE lock;
 * PGlite runs one transaction at a time): requests arriving meanwhile stop before their versions read.
 */
async function holdVersionsRead(db: Db): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = db
    .transaction(async (tx) => {
      await tx.execute(sql`alter sequence catalogue_version owner to current_user`);
      locked();
      await released;
      tx.rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    });
  await Promise.race([isLocked, done]);
  return async () => {
    release();
    await done;
  };
}

/** Resolves once the server has received a request for each of `urls`, and once each of their answers is closed. */
function watchRequests(server: http.Server, urls: string[]) {
  const waiting = new Set(urls);
  const closes: Promise<void>[] = [];
  let arrived!: () => void;
  const allArrived = new Promise<void>((resolve) => (arrived = resolve));
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!waiting.delete(req.url ?? "")) return;
    closes.push(new Promise((resolve) => (res.closed ? resolve() : res.once("close", () => resolve()))));
    if (waiting.size === 0) {
      server.off("request", onRequest);
      arrived();
    }
  };
  server.on("request", onRequest);
  return { arrived: allArrived, closed: () => Promise.all(closes) };
}

/** A visitor's request that she abandons: `leave()` closes the connection; `leaveOnAnswer` as soon as the headers come. */
function sendAndLeave(url: string, { leaveOnAnswer = false } = {}) {
  let answered = false;
  const outgoing = http.request({
    host: "127.0.0.1",
    port: shop.port,
    path: url,
    headers: { Host: new URL(shop.publicUrl).host, "X-Forwarded-Proto": "http", Accept: "text/html", "Accept-Encoding": "gzip, deflate, br, zstd" },
    agent: false,
  });
  outgoing.on("response", () => {
    answered = true;
    if (leaveOnAnswer) outgoing.destroy();
  });
  outgoing.on("error", () => {});
  outgoing.end();
  return { leave: () => outgoing.destroy(), wasAnswered: () => answered };
}

/** The status of `url` asked by a visitor who stays, or an error when no answer came within `answerBoundMs`. */
async function statusWithin(url: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${url} within ${answerBoundMs / 1000} s`)), answerBoundMs);
  });
  try {
    return (await Promise.race([shop.request(url), timeout])).status;
  } finally {
    clearTimeout(timer);
  }
}

const pageCacheOf = (app: InProcessShop) => app.app.locals.pageCache as PageCache;

/** Each page, asked again by a visitor who stays, answers within the bound; then no render is left to wait for. */
async function expectEveryPageAnswers(urls: string[]) {
  for (const url of urls) expect(await statusWithin(url), url).toBeLessThan(500);
  expect(pageCacheOf(shop).rendersUnderWay(), "renders left to wait for").toBe(0);
}

test("first requests dropped before their versions read: every page asked again answers", slow, async () => {
  const urls = firstVisitUrls("before-versions");
  const release = await holdVersionsRead(shop.handle.db);
  const watch = watchRequests(shop.server, urls);
  const visitors = urls.map((url) => sendAndLeave(url));
  await watch.arrived;
  for (const visitor of visitors) visitor.leave();
  await watch.closed();
  await release();
  await expectEveryPageAnswers(urls);
  // And they are kept: the next visitor of each is given the kept page.
  const given = pageCacheOf(shop).counts.given;
  for (const url of urls) expect((await shop.request(url)).status, url).toBeLessThan(500);
  expect(pageCacheOf(shop).counts.given - given, "pages given from the store").toBeGreaterThan(urls.length / 2);
});

test(
  "first requests dropped one after another while they wait in the page queue, render and are sent: every page asked again answers",
  slow,
  async () => {
    const urls = firstVisitUrls("queue-render-send");
    const release = await holdVersionsRead(shop.handle.db);
    const watch = watchRequests(shop.server, urls);
    const visitors = urls.map((url) => sendAndLeave(url, { leaveOnAnswer: true }));
    await watch.arrived;
    // All read the versions at once and meet the page queue together (4 pages at a time on PGlite, the pool's
    // size on PostgreSQL): the first render, the others waiting their turn. Each leaves a moment after the one
    // before it, the last ones once their answers have begun to come.
    await release();
    for (const visitor of visitors) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      visitor.leave();
    }
    await watch.closed();
    expect(visitors.filter((visitor) => visitor.wasAnswered()).length, "some left before their answer, some once it began").toBeLessThan(
      visitors.length,
    );
    await expectEveryPageAnswers(urls);
  },
);
