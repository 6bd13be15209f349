/**
 * Which answers page-cache.ts keeps, with a stand-in renderer: only a 200 that sets no cookie and is not
 * marked private; visitors asking for one page at once share one render; requests naming someone are not
 * a visitor's.
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import type { DbHandle } from "#server/db/client.ts";
import { seedDefaultSettings } from "#server/settings/settings.service.ts";
import { createTestDb } from "#tests/db.ts";
import { readWatchedVersion, settleMs } from "#server/catalog/catalogue-cache.ts";
import { createPageCache, type VisitorPage } from "./page-cache";

let handle: DbHandle;
let server: ReturnType<express.Express["listen"]>;
let base: string;
let cache: ReturnType<typeof createPageCache>;
let answer: () => Response;
let renders = 0;
let renderDelayMs = 0;

beforeAll(async () => {
  handle = await createTestDb();
  await seedDefaultSettings(handle.db);
  cache = createPageCache({
    db: handle.db,
    maxBytes: 1_000_000,
    policy: { https: false, formActions: () => [] },
    patternOf: Promise.resolve(() => "en?/shop"),
  });
  const app = express();
  app.use((req, res, next) => void cache.serveKept(req, res, next).catch(next));
  app.use((req, res, next) => {
    const page = res.locals.visitorPage as VisitorPage | undefined;
    if (!page) return void res.status(418).end("not a visitor's page");
    cache
      .renderVisitorPage(page, req, res, async () => {
        renders += 1;
        await new Promise((resolve) => setTimeout(resolve, renderDelayMs));
        return { response: answer() };
      })
      .catch(next);
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await handle?.close();
});

beforeEach(() => {
  renders = 0;
  renderDelayMs = 0;
});

const html = (headers: Record<string, string> = {}, status = 200) =>
  new Response("<html><body><script>hydrate()</script></body></html>", {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  });

async function askTwice(path: string) {
  for (let i = 0; i < 2; i += 1) await (await fetch(`${base}${path}`, { redirect: "manual" })).arrayBuffer();
  return renders;
}

test("a 200 without cookies is kept; its CSP allows its inline script by hash", async () => {
  answer = () => html();
  const first = await fetch(`${base}/kept`);
  expect(await first.text()).toContain("hydrate()");
  expect(first.headers.get("content-security-policy")).toContain("'sha256-");
  await fetch(`${base}/kept`);
  expect(renders).toBe(1);
});

test("never kept: an answer setting a cookie, a private one, a redirect, a 404, an error", async () => {
  const cases: [string, () => Response][] = [
    ["/cookie", () => html({ "Set-Cookie": "cart_flash=x; Path=/" })],
    ["/private", () => html({ "Cache-Control": "private, no-store" })],
    ["/redirect", () => new Response(null, { status: 302, headers: { Location: "/shop" } })],
    ["/missing", () => html({}, 404)],
    ["/broken", () => html({}, 500)],
  ];
  for (const [path, make] of cases) {
    answer = make;
    renders = 0;
    expect(await askTwice(path), path).toBe(2);
  }
});

test("visitors asking for one page while it renders share that render", async () => {
  answer = () => html();
  renderDelayMs = 300;
  const bodies = await Promise.all(Array.from({ length: 5 }, () => fetch(`${base}/together`).then((response) => response.text())));
  expect(renders).toBe(1);
  expect(new Set(bodies).size).toBe(1);
});

test("not a visitor's request: credentials, a session cookie, a moved clock, a post", async () => {
  answer = () => html();
  for (const init of <RequestInit[]>[
    { headers: { Authorization: "Bearer x" } },
    { headers: { Cookie: "currency=USD; better-auth.session_token=x" } },
    { headers: { "x-test-clock": "2026-12-01T10:00:00Z" } },
    { method: "POST", body: "a=1" },
  ]) {
    expect((await fetch(`${base}/shop`, init)).status, JSON.stringify(init)).toBe(418);
  }
  expect(renders).toBe(0);
  expect((await fetch(`${base}/shop`, { headers: { Cookie: "currency=USD" } })).status).toBe(200);
});

test("the versions are read one query at a time, and a read asked after a change sees it", async () => {
  const read = async () => (await readWatchedVersion(handle.db, "catalogue and page content")).version;
  const together = await Promise.all(Array.from({ length: 10 }, () => read()));
  expect(new Set(together).size).toBe(1);
  await handle.db.execute(sql`update shop_settings set value = value where key = 'shop'`);
  const after = await read();
  expect(after).not.toBe(together[0]);
  expect(after.split(".")[0]).toBe(together[0]!.split(".")[0]);
});

test("pages rendered just after the versions move are sent, not kept; once settled they are kept again", async () => {
  answer = () => html();
  const settle = () => new Promise((resolve) => setTimeout(resolve, settleMs + 100));
  // Versions an earlier test moved are read, then settle.
  await (await fetch(`${base}/before`)).arrayBuffer();
  await settle();
  renders = 0;
  expect(await askTwice("/settling")).toBe(1);
  await handle.db.execute(sql`update shop_settings set value = value where key = 'shop'`);
  renders = 0;
  expect(await askTwice("/settling")).toBe(2);
  await settle();
  renders = 0;
  expect(await askTwice("/settling")).toBe(1);
});
