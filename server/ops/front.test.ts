/**
 * The front (front.ts) against two tiny app stand-ins on loopback: turns, a process that refuses
 * connections skipped, a GET repeated when its process dies, a form post never repeated (502 "try
 * again"), and the forwarded headers a process trusts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import messagesIt from "#messages/it.json";
import { startFront, type Front } from "./front";

type Upstream = { port: number; hits: { method: string; headers: http.IncomingHttpHeaders; body: string }[]; close: () => Promise<void> };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An app stand-in: answers its name, or (`dies`) drops the connection without answering. */
async function upstream(name: string, behaviour: "answers" | "dies" = "answers"): Promise<Upstream> {
  const hits: Upstream["hits"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      hits.push({ method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (behaviour === "dies") return req.socket.destroy();
      res.writeHead(200, { "Content-Type": "text/plain" }).end(name);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections());
  closers.push(close);
  return { port: (server.address() as AddressInfo).port, hits, close };
}

/** A port nothing listens on (a process restarting). */
async function refusingPort(): Promise<number> {
  const probe = await upstream("probe");
  await probe.close();
  closers.pop();
  return probe.port;
}

async function front(ports: number[], trustedHops = 0): Promise<Front> {
  const started = await startFront({
    host: "127.0.0.1",
    port: 0,
    upstreams: ports.map((port) => ({ host: "127.0.0.1", port })),
    trustedHops,
    log: () => {},
  });
  closers.unshift(started.close);
  return started;
}

test("requests take turns over the processes; one refusing connections is skipped and nothing is lost", async () => {
  const a = await upstream("a");
  const b = await upstream("b");
  const shop = await front([a.port, b.port]);
  const names = [];
  for (let i = 0; i < 4; i += 1) names.push(await (await fetch(`${shop.url}/`)).text());
  expect(names.sort()).toEqual(["a", "a", "b", "b"]);

  const restarting = await front([await refusingPort(), a.port]);
  for (let i = 0; i < 4; i += 1) {
    const answer = await fetch(`${restarting.url}/cart`, { method: "POST", body: new URLSearchParams({ intent: "add" }) });
    expect(await answer.text()).toBe("a");
  }
  expect(a.hits.filter((hit) => hit.method === "POST").map((hit) => hit.body)).toEqual(Array(4).fill("intent=add"));
});

test("a process dying on a GET: asked again of another; on a form post: 502 with the try-again page, never sent twice", async () => {
  const dying = await upstream("dying", "dies");
  const healthy = await upstream("healthy");
  const shop = await front([dying.port, healthy.port]);
  expect(await (await fetch(`${shop.url}/shop`)).text()).toBe("healthy");

  const answers = await Promise.all(
    [1, 2].map(() => fetch(`${shop.url}/checkout`, { method: "POST", body: new URLSearchParams({ idempotencyKey: "k" }) })),
  );
  const failed = answers.find((answer) => answer.status !== 200)!;
  expect(failed.status).toBe(502);
  expect(failed.headers.get("retry-after")).toBe("5");
  expect(await failed.text()).toContain(messagesIt.serviceUnavailable.title);
  expect(dying.hits.filter((hit) => hit.method === "POST")).toHaveLength(1);
  expect(healthy.hits.filter((hit) => hit.method === "POST")).toHaveLength(1);

  const api = await fetch(`${(await front([dying.port])).url}/api/getCart`, { method: "POST", body: "{}" });
  expect(api.status).toBe(502);
  expect(await api.json()).toEqual({ error: { code: "service-unavailable", message: messagesIt.api.errors["service-unavailable"] } });
});

test("the process sees the client's address appended to X-Forwarded-For, and no protocol or host the client made up", async () => {
  const app = await upstream("app");
  const outermost = await front([app.port]);
  await fetch(`${outermost.url}/`, { headers: { "X-Forwarded-For": "6.6.6.6", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" } });
  expect(app.hits[0]!.headers["x-forwarded-for"]).toBe("6.6.6.6, 127.0.0.1");
  expect(app.hits[0]!.headers["x-forwarded-proto"]).toBe("http");
  expect(app.hits[0]!.headers["x-forwarded-host"]).toBeUndefined();
  expect(app.hits[0]!.headers.host).toBe(new URL(outermost.url).host);

  // Behind the operator's TLS proxy (TRUST_PROXY=1), what that proxy says is kept.
  const behindTls = await front([app.port], 1);
  await fetch(`${behindTls.url}/`, { headers: { "X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https" } });
  expect(app.hits[1]!.headers["x-forwarded-for"]).toBe("203.0.113.5, 127.0.0.1");
  expect(app.hits[1]!.headers["x-forwarded-proto"]).toBe("https");
});
