import fs from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import { precompressedAssets } from "./precompressed-assets";

const script = "console.log('Bimbi Felici');\n".repeat(50);
let baseUrl = "";
let close: () => void;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
  fs.writeFileSync(path.join(dir, "entry-abc.js"), script);
  fs.writeFileSync(path.join(dir, "entry-abc.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dir, "plain-abc.js"), script);
  const app = express();
  app.use("/assets", precompressedAssets(dir), express.static(dir, { immutable: true, maxAge: "1y" }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

/** Node's fetch decodes brotli itself: the raw exchange shows what the browser gets. */
function get(file: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(`${baseUrl}/assets/${file}`, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

test("a browser that accepts brotli gets the build's brotli copy, as the script it is", async () => {
  const answer = await get("entry-abc.js", "gzip, deflate, br");
  expect(answer.status).toBe(200);
  expect(answer.headers["content-encoding"]).toBe("br");
  expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(answer.headers.vary).toContain("Accept-Encoding");
  expect(answer.headers["cache-control"]).toContain("immutable");
  expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(script);
});

test("without brotli, or without a brotli copy, the plain file is sent", async () => {
  const gzipOnly = await get("entry-abc.js", "gzip");
  expect(gzipOnly.headers["content-encoding"]).toBeUndefined();
  expect(gzipOnly.headers.vary).toContain("Accept-Encoding");
  expect(gzipOnly.body.toString()).toBe(script);
  const noCopy = await get("plain-abc.js", "br");
  expect(noCopy.headers["content-encoding"]).toBeUndefined();
  expect(noCopy.body.toString()).toBe(script);
});

test("only the listed copies are sent: a made-up name is not found", async () => {
  expect((await get("../entry-abc.js", "br")).status).toBe(404);
  expect((await get("missing.js", "br")).status).toBe(404);
});
