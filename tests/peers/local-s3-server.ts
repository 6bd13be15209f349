/**
 * A local S3-compatible server for the media tests: s3rver (from the npm registry) keeping its objects in a
 * temporary folder, behind a small HTTP relay that can refuse uploads (`refusePutsAfter`), so a test sees
 * a bucket failing half-way through a picture as a real service would answer it (HTTP 503 SlowDown).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
// s3rver ships no types; its constructor and run/close are all the tests use.
import S3rver from "s3rver";

export type LocalS3Server = {
  /** The endpoint the shop's S3 client talks to (the relay). */
  url: string;
  bucket: string;
  /** Keys of the objects in the bucket now, read from s3rver's own folder. */
  keys: () => string[];
  /** After this many more PUTs every PUT is refused (null: none refused). */
  refusePutsAfter: number | null;
  puts: number;
  close: () => Promise<void>;
};

export async function startLocalS3Server(bucket = "bimbi-media"): Promise<LocalS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "local-s3-"));
  const s3rver = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await s3rver.run();
  const state = { refusePutsAfter: null as number | null, puts: 0 };
  const relay = http.createServer((req, res) => {
    if (req.method === "PUT") {
      state.puts += 1;
      if (state.refusePutsAfter !== null && state.puts > state.refusePutsAfter) {
        req.resume();
        res.writeHead(503, { "Content-Type": "application/xml" });
        res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>`);
        return;
      }
    }
    const upstream = http.request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const server: LocalS3Server = {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    bucket,
    keys: () => listObjectKeys(path.join(directory, bucket)),
    get refusePutsAfter() {
      return state.refusePutsAfter;
    },
    set refusePutsAfter(value) {
      state.refusePutsAfter = value;
      state.puts = 0;
    },
    get puts() {
      return state.puts;
    },
    close: async () => {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  return server;
}

/** s3rver stores each object as `<key>._S3rver_object` (with its metadata beside it). */
function listObjectKeys(bucketDir: string): string[] {
  if (!fs.existsSync(bucketDir)) return [];
  return (fs.readdirSync(bucketDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith("._S3rver_object"))
    .map((file) => file.slice(0, -"._S3rver_object".length).split(path.sep).join("/"))
    .sort();
}
