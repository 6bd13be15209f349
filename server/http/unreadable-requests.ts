/**
 * The answer to a request Node gives up on before Express sees it (server/http/app.ts listens with it):
 * the edge's own refusal (request-edge.ts), written straight to the socket.
 */
import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { EdgeRefusal } from "#common/edge-refusal.ts";
import { edgeRefusalResponse } from "./request-edge";

/**
 * Requests Node refuses before Express sees them (a head above its 16 KB limit, as a 10 MB query makes; a
 * request line it cannot parse) get the edge's refusal, JSON for the API and a small page for the rest,
 * instead of Node's bare status line. Only the start of the head is known (`rawPacket`): the path and any
 * Accept and Accept-Language it holds choose the form and the language.
 */
export function answerUnreadableRequests(server: Server) {
  const answered = new WeakSet<Duplex>();
  server.on("clientError", (error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) => {
    // The rest of a 10 MB head arrives after the answer and fails again: it is let in (and dropped) until the
    // client has read the answer and closes, or 5 s pass; a reset now could lose the answer on its way.
    if (answered.has(socket)) return;
    // Node's own rule: nothing is written over an answer already begun on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
      return;
    }
    answered.add(socket);
    const refusal: EdgeRefusal = error.code === "HPE_HEADER_OVERFLOW" ? "headers-too-large" : "bad-request";
    void rawAnswerOf(edgeRefusalResponse(requestOfHeadStart(error.rawPacket), refusal)).then((bytes) => {
      socket.end(bytes);
      setTimeout(() => socket.destroy(), 5_000).unref();
    });
  });
}

/** A fetch Request with what the start of a head tells: its path (no query) and its Accept headers. */
function requestOfHeadStart(rawPacket: Buffer | undefined): Request {
  const head = (rawPacket ?? Buffer.alloc(0)).subarray(0, 64 * 1024).toString("latin1");
  const target = /^[A-Z]+ (\/[^?#\s]{0,2000})/.exec(head)?.[1] ?? "/";
  const headers = new Headers();
  for (const name of ["accept", "accept-language"]) {
    const value = new RegExp(`\r\n${name}:[ \t]*([^\r\n]{1,500})\r\n`, "i").exec(head)?.[1];
    if (value) headers.set(name, value);
  }
  return new Request(URL.parse(target, "http://edge.invalid") ?? "http://edge.invalid/", { headers });
}

/** The refusal as HTTP/1.1 bytes for a socket Node has given up on. */
async function rawAnswerOf(response: Response): Promise<Buffer> {
  const body = Buffer.from(await response.text());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  if (!response.headers.has("cache-control")) lines.push("cache-control: no-store");
  lines.push(`content-length: ${body.byteLength}`, "x-content-type-options: nosniff", "connection: close", "", "");
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]);
}
