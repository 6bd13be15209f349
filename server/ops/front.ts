/**
 * The front of several app processes (docs/deploy.md): the one address customers connect to. Each
 * request goes to the next live process in turn over kept-alive loopback connections, with the
 * client's address appended to X-Forwarded-For (the processes run with TRUST_PROXY one higher).
 *
 * - A process that refuses the connection (restarting) is skipped for a second and the request,
 *   which it never received, goes to another: a restart loses no request.
 * - A process that dies while answering: a GET is tried once more elsewhere; anything else gets a
 *   502 "try again" page, never a second delivery (the checkout's idempotency key makes the
 *   customer's retry find the order if it was placed).
 * - No answer within `answerTimeoutMs`: 504. Bodies are read whole first (up to `maxBodyBytes`).
 *
 * Plain Node (no build step): `node server/ops/cluster.ts` runs it with its processes.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { unavailableAnswer } from "../http/unavailable.ts";

export type Upstream = { host: string; port: number };

export type FrontOptions = {
  host: string;
  port: number;
  upstreams: readonly Upstream[];
  /** Proxies in front of this one whose X-Forwarded-Proto/-Host to keep (the operator's TRUST_PROXY). */
  trustedHops: number;
  log: (level: "info" | "warn" | "error", fields: object, message: string) => void;
};

/** The admin's CSV import is the largest body the shop takes. */
const maxBodyBytes = 64 * 1024 * 1024;
/** Longer than any page or checkout takes (a card checkout waits up to ~17 s on Stripe). */
const answerTimeoutMs = 60_000;
const skipRefusingProcessMs = 1_000;
/** Headers that describe one connection, not the request (RFC 9110 section 7.6.1). */
const hopByHop = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "proxy-authorization"]);

type Target = Upstream & { agent: http.Agent; skipUntil: number };

export type Front = { url: string; server: http.Server; close: () => Promise<void> };

export async function startFront(options: FrontOptions): Promise<Front> {
  if (options.upstreams.length === 0) throw new Error("front: no app processes to send requests to");
  const targets: Target[] = options.upstreams.map((upstream) => ({
    ...upstream,
    // With a `timeout`, Node drops an idle kept-alive socket a second before the process's announced
    // Keep-Alive timeout (5 s); without one it would reuse a socket the process had just closed.
    agent: new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 4_000 }),
    skipUntil: 0,
  }));
  let next = 0;

  /** The next process in turn that has not just refused a connection (all refusing: try them anyway). */
  const pick = (tried: Set<Target>): Target | null => {
    const now = Date.now();
    for (const preferLive of [true, false]) {
      for (let step = 0; step < targets.length; step += 1) {
        const target = targets[(next + step) % targets.length]!;
        if (tried.has(target) || (preferLive && target.skipUntil > now)) continue;
        next = (next + step + 1) % targets.length;
        return target;
      }
    }
    return null;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        answerTrouble(req, res, 413);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (size > maxBodyBytes) return;
      forward(req, res, Buffer.concat(chunks), forwardedHeaders(req, options.trustedHops), new Set());
    });
    req.on("error", () => res.destroy());
  });

  function forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, headers: http.OutgoingHttpHeaders, tried: Set<Target>) {
    const target = pick(tried);
    if (!target) return answerTrouble(req, res, 502);
    tried.add(target);
    let answered = false;
    const upstream = http.request({ host: target.host, port: target.port, method: req.method, path: req.url, headers, agent: target.agent });
    const timer = setTimeout(() => upstream.destroy(Object.assign(new Error("no answer in time"), { code: "FRONT_TIMEOUT" })), answerTimeoutMs);
    upstream.on("response", (answer) => {
      answered = true;
      clearTimeout(timer);
      const outgoing: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!hopByHop.has(name) && value !== undefined) outgoing[name] = value;
      res.writeHead(answer.statusCode ?? 502, outgoing);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (answered || res.headersSent) return res.destroy();
      if (error.code === "FRONT_TIMEOUT") return answerTrouble(req, res, 504);
      const neverReceived = error.code === "ECONNREFUSED";
      if (neverReceived) target.skipUntil = Date.now() + skipRefusingProcessMs;
      // A reset on a reused kept-alive socket, or a process that died: safe to repeat only for reads.
      const safeToRepeat = neverReceived || req.method === "GET" || req.method === "HEAD";
      if (safeToRepeat && tried.size < targets.length) return forward(req, res, body, headers, tried);
      options.log(
        "warn",
        { err: error.message, code: error.code, method: req.method, path: req.url, port: target.port },
        "front: app process failed the request",
      );
      answerTrouble(req, res, 502);
    });
    // The client gave up: so does the request to the process.
    res.on("close", () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const target of targets) target.agent.destroy();
      }),
  };
}

/** The request's headers as the app process should see them. */
function forwardedHeaders(req: http.IncomingMessage, trustedHops: number): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) if (!hopByHop.has(name) && value !== undefined) headers[name] = value;
  const clientAddress = req.socket.remoteAddress ?? "";
  // Appended, never replaced: the processes trust exactly the hops the operator said plus this one.
  const earlier = req.headers["x-forwarded-for"];
  headers["x-forwarded-for"] = earlier ? `${String(earlier)}, ${clientAddress}` : clientAddress;
  if (trustedHops === 0) {
    // This is the outermost proxy: what the client claims about protocol and host is not passed on.
    headers["x-forwarded-proto"] = "http";
    delete headers["x-forwarded-host"];
  } else {
    headers["x-forwarded-proto"] ??= "http";
  }
  return headers;
}

function answerTrouble(req: http.IncomingMessage, res: http.ServerResponse, status: number) {
  if (res.headersSent) return res.destroy();
  if (status === 413) {
    res.writeHead(413, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
    res.end("Payload too large");
    return;
  }
  const answer = unavailableAnswer(new URL(req.url ?? "/", "http://front").pathname, req.headers.accept, status);
  res.writeHead(answer.status, {
    ...answer.headers,
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(answer.body);
}
