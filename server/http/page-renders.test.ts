import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Response } from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRendersUnderWay } from "./page-renders";

/** Answers of requests the tests hold open, in arrival order; each test takes its own. */
const held: http.ServerResponse[] = [];
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => held.push(res));
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A request held open by the server: its answer, and a way for its client to leave. */
async function openRequest() {
  const count = held.length;
  const outgoing = http.get({ host: "127.0.0.1", port, path: "/", agent: false });
  outgoing.on("error", () => {});
  while (held.length === count) await new Promise((resolve) => setTimeout(resolve, 5));
  return { res: held[count] as unknown as Response, leave: () => outgoing.destroy() };
}

const closed = (res: Response) => new Promise((resolve) => (res.closed ? resolve(undefined) : res.once("close", resolve)));

test("a render whose client left before it began releases its waiters at once, also when she left before it was claimed", async () => {
  const renders = createRendersUnderWay<string>({ waitMs: 60_000 });
  const inQueue = await openRequest();
  renders.claim("a", inQueue.res);
  const waiting = renders.waitFor("a", Date.now() + 60_000);
  inQueue.leave();
  expect(await waiting).toBeNull();

  const gone = await openRequest();
  gone.leave();
  await closed(gone.res);
  renders.claim("b", gone.res);
  expect(await renders.waitFor("b", Date.now() + 60_000)).toBe("none");
  expect(renders.size()).toBe(0);
});

test("once begun, the render is waited for whatever its client does, and hands its page over", async () => {
  const renders = createRendersUnderWay<string>({ waitMs: 60_000 });
  const rendering = await openRequest();
  const claim = renders.claim("a", rendering.res);
  claim.begin();
  const waiting = renders.waitFor("a", Date.now() + 60_000);
  rendering.leave();
  await closed(rendering.res);
  expect(renders.size()).toBe(1);
  claim.settle("the page");
  claim.settle(null);
  expect(await waiting).toBe("the page");
  expect(renders.size()).toBe(0);
  rendering.res.end();
});

test("no wait is longer than its bound: a waiter gives up at her deadline, a render never settled stops being waited for", async () => {
  const renders = createRendersUnderWay<string>({ waitMs: 300 });
  const stuck = await openRequest();
  renders.claim("a", stuck.res).begin();
  const started = Date.now();
  expect(await renders.waitFor("a", Date.now() + 50)).toBe("late");
  expect(Date.now() - started).toBeLessThan(250);
  expect(await renders.waitFor("a", Date.now() + 60_000)).toBeNull();
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(renders.size()).toBe(0);
  stuck.res.end();
});
