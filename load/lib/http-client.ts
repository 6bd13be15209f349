/**
 * The load suite's browser stand-in: plain HTTP/1.1 over a kept-alive pool of at most `connections`
 * sockets (the "connections" of every figure), a cookie jar per customer, and a bound on every
 * request: an answer not complete within `timeoutMs` counts as a hang, never as a wait. On loopback
 * each socket connects from its own address (127.0.1.x), as many visitors do: nginx's per-address rate
 * limits then count visitors, not the whole test as one.
 */
import http from "node:http";
import type net from "node:net";
import type { Duplex } from "node:stream";

export type Answer = { status: number; headers: http.IncomingHttpHeaders; location: string | null; setCookies: string[]; body: string; ms: number };

export class RequestFailed extends Error {
  constructor(
    readonly kind: "timeout" | "connection",
    message: string,
    readonly ms: number,
  ) {
    super(message);
  }
}

export type HttpClient = {
  baseUrl: string;
  request: (
    path: string,
    init?: { method?: string; headers?: Record<string, string>; form?: Record<string, string>; timeoutMs?: number },
  ) => Promise<Answer>;
  close: () => void;
};

/** `localAddress`: every socket from this one address (one visitor), instead of one address per socket. */
export function createHttpClient(baseUrl: string, connections: number, options: { localAddress?: string } = {}): HttpClient {
  const base = new URL(baseUrl);
  // `timeout`: an idle socket is dropped before the server's Keep-Alive timeout (5 s) closes it under us.
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, timeout: 4_000 });
  if (base.hostname === "127.0.0.1") {
    let sockets = 0;
    const connect = agent.createConnection.bind(agent);
    agent.createConnection = (socketOptions: net.NetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void) => {
      sockets += 1;
      return connect({ ...socketOptions, localAddress: options.localAddress ?? `127.0.1.${1 + (sockets % 254)}` }, callback);
    };
  }
  return {
    baseUrl,
    request: (path, init = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const started = performance.now();
        const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
        const headers: Record<string, string> = { "User-Agent": "bimbi-load-test", Accept: "text/html", ...init.headers };
        if (body !== undefined) {
          headers["Content-Type"] = "application/x-www-form-urlencoded";
          headers["Content-Length"] = String(Buffer.byteLength(body));
        }
        const request = http.request(
          { host: base.hostname, port: base.port, path, method: init.method ?? (body ? "POST" : "GET"), headers, agent },
          (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => {
              clearTimeout(timer);
              const setCookie = response.headers["set-cookie"] ?? [];
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                location: response.headers.location ?? null,
                setCookies: setCookie,
                body: Buffer.concat(chunks).toString("utf8"),
                ms: performance.now() - started,
              });
            });
            response.on("error", (error) => {
              clearTimeout(timer);
              reject(new RequestFailed("connection", error.message, performance.now() - started));
            });
          },
        );
        const timeoutMs = init.timeoutMs ?? 30_000;
        const timer = setTimeout(
          () => request.destroy(new RequestFailed("timeout", `no complete answer within ${timeoutMs} ms`, timeoutMs)),
          timeoutMs,
        );
        request.on("error", (error) => {
          clearTimeout(timer);
          reject(error instanceof RequestFailed ? error : new RequestFailed("connection", error.message, performance.now() - started));
        });
        request.end(body);
      }),
    close: () => agent.destroy(),
  };
}
