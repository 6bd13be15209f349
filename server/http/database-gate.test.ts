/**
 * The database gate (database-gate.ts): which driver errors mean "gone" or "busy", and the gate in
 * front of an Express route: closed by a lost connection, answering 503 "try again" at once while
 * the database does not answer its ping, open again by itself once it does.
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, expect, onTestFinished, test, vi } from "vitest";
import messagesEn from "#messages/en.json";
import messagesIt from "#messages/it.json";
import { createDatabaseGate, databaseTroubleOf } from "./database-gate";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** Drizzle wraps what the driver threw: "Failed query: ..." with the driver's error as its cause. */
const wrapped = (cause: Error) => Object.assign(new Error(`Failed query: select 1\nparams: `), { cause });

test("lost or refused connections are 'gone', a pool with nothing free is 'busy', a bad query is neither", () => {
  expect(databaseTroubleOf(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe("gone");
  expect(databaseTroubleOf(wrapped(withCode("terminating connection due to administrator command", "57P01")))).toBe("gone");
  expect(databaseTroubleOf(wrapped(withCode("the database system is starting up", "57P03")))).toBe("gone");
  expect(databaseTroubleOf(wrapped(new Error("Connection terminated unexpectedly")))).toBe("gone");
  expect(databaseTroubleOf(wrapped(new Error("timeout exceeded when trying to connect")))).toBe("busy");
  expect(databaseTroubleOf(wrapped(withCode("sorry, too many clients already", "53300")))).toBe("busy");
  expect(databaseTroubleOf(wrapped(withCode('syntax error at or near "selec"', "42601")))).toBeNull();
  expect(databaseTroubleOf(wrapped(withCode("duplicate key value violates unique constraint", "23505")))).toBeNull();
  expect(databaseTroubleOf("not an error")).toBeNull();
});

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function gatedApp(ping: () => Promise<void>) {
  const warnings: string[] = [];
  const gate = createDatabaseGate(ping, { warn: (_fields: object, message: string) => warnings.push(message), info: () => {} } as never);
  const app = express();
  app.use(gate.middleware);
  app.get("/{*splat}", (_req, res) => void res.send("the page"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  closers.push(() => server.close());
  return { gate, warnings, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test("a lost connection closes the gate: 503 pages and JSON at once, in the page's language, until a ping succeeds", async () => {
  // The gate pings at most every half second by the clock: only Date is faked, the server's timers keep running.
  vi.useFakeTimers({ toFake: ["Date"] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  let databaseAnswers = false;
  const { gate, warnings, url } = await gatedApp(async () => {
    if (!databaseAnswers) throw withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED");
  });
  expect(await (await fetch(`${url}/shop`)).text()).toBe("the page");

  expect(gate.noteError(wrapped(withCode("terminating connection due to administrator command", "57P01")))).toBe("gone");
  expect(gate.isDown()).toBe(true);
  expect(warnings).toHaveLength(1);
  vi.setSystemTime(Date.now() + 600);
  const started = performance.now();
  const page = await fetch(`${url}/shop`);
  expect(page.status).toBe(503);
  expect(page.headers.get("retry-after")).toBe("5");
  expect(await page.text()).toContain(messagesIt.serviceUnavailable.body);
  const english = await fetch(`${url}/en/shop`);
  expect(await english.text()).toContain(messagesEn.serviceUnavailable.title);
  const api = await fetch(`${url}/api/getListaProdotti`);
  expect(api.status).toBe(503);
  expect(await api.json()).toEqual({ error: { code: "service-unavailable", message: messagesIt.api.errors["service-unavailable"] } });
  expect(performance.now() - started).toBeLessThan(2_000);

  databaseAnswers = true;
  vi.setSystemTime(Date.now() + 600);
  expect(await (await fetch(`${url}/shop`)).text()).toBe("the page");
  expect(gate.isDown()).toBe(false);
});

test("a busy pool answers that request 503 but leaves the gate open for the next ones; the staff's log says so, not once per request", async () => {
  const { gate, url, warnings } = await gatedApp(async () => {});
  for (let request = 0; request < 3; request += 1) {
    expect(gate.noteError(wrapped(new Error("timeout exceeded when trying to connect")))).toBe("busy");
  }
  expect(gate.isDown()).toBe(false);
  expect(await (await fetch(`${url}/`)).text()).toBe("the page");
  expect(warnings).toEqual(["no database connection free in time: answered 503 (raise DATABASE_POOL_SIZE or add processes)"]);
});
