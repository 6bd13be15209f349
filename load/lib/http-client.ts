/**
 * The load suite's browser stand-in: plain HTTP/1.1 over a kept-alive pool of at most `connections`
 * sockets (the "connections" of every figure), a cookie jar per customer, and a bound on every
 * request: an answer not complete within `timeoutMs` counts as a hang, never as a wait.
 */
import http from "node:http";

export type Answer = { status: number; location: string | null; setCookies: string[]; body: string; ms: number };

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

export function createHttpClient(baseUrl: string, connections: number): HttpClient {
  const base = new URL(baseUrl);
  // `timeout`: an idle socket is dropped before the server's Keep-Alive timeout (5 s) closes it under us.
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections, timeout: 4_000 });
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
