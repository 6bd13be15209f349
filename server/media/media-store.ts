/**
 * Where product pictures live: a folder on this machine (MEDIA_DIR, default DATA_DIR/media), or an
 * S3-compatible bucket when MEDIA_S3_BUCKET is set (s3-media-store.ts), so several machines serve one
 * shop. Keys are paths under the store's root, "products/{key}-{width}.{format}" (common/media.ts);
 * pages always link /media/{key}, which the shop serves from the store (server/http/shop-app.ts).
 * docs/decisions/0071-media-in-object-storage.md.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { Env } from "#server/env.ts";
import { createS3MediaStore } from "./s3-media-store";

export type StoredFile = { body: Readable; size: number; contentType: string };

export type MediaStore = {
  kind: "disk" | "s3";
  /** Writes one file whole or not at all: a crash or a failed upload never leaves half a picture under `key`. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  has(key: string): Promise<boolean>;
  /** Removes the files; missing ones are fine. */
  remove(keys: readonly string[]): Promise<void>;
  /** The file to send, or null when there is none. */
  read(key: string): Promise<StoredFile | null>;
  /** The folder on this machine (disk only): served by express.static and copied by the backup. */
  dir: string | null;
};

/** Keys are made by the shop (common/media.ts names): anything climbing out of the root is a bug. */
export function assertMediaKey(key: string) {
  if (!/^[a-z0-9]+(?:\/[a-z0-9][a-z0-9.-]*)+$/.test(key) || key.includes("..")) throw new Error(`Bad media key: ${JSON.stringify(key)}`);
}

const contentTypes: Record<string, string> = { webp: "image/webp", avif: "image/avif", png: "image/png", jpg: "image/jpeg", pdf: "application/pdf" };
export const contentTypeOf = (key: string) => contentTypes[key.split(".").pop() ?? ""] ?? "application/octet-stream";

export function createDiskMediaStore(dir: string): MediaStore {
  const fileOf = (key: string) => {
    assertMediaKey(key);
    return path.join(dir, key);
  };
  return {
    kind: "disk",
    dir,
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a crash never leaves a half-written file that "already exists".
      const partial = `${file}.${process.pid}.partial`;
      try {
        await fs.writeFile(partial, body);
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
    },
    has: (key) =>
      fs.access(fileOf(key)).then(
        () => true,
        () => false,
      ),
    async remove(keys) {
      await Promise.all(keys.map((key) => fs.rm(fileOf(key), { force: true })));
    },
    async read(key) {
      const file = fileOf(key);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { body: createReadStream(file), size: stat.size, contentType: contentTypeOf(key) };
    },
  };
}

const stores = new WeakMap<Env, MediaStore>();

/** The shop's store for this environment (one per Env: the S3 client keeps its connections). */
export function mediaStoreOf(env: Env): MediaStore {
  let store = stores.get(env);
  if (!store) {
    store = env.MEDIA_S3_BUCKET
      ? createS3MediaStore({
          bucket: env.MEDIA_S3_BUCKET,
          prefix: env.MEDIA_S3_PREFIX,
          endpoint: env.MEDIA_S3_ENDPOINT,
          region: env.MEDIA_S3_REGION,
          accessKeyId: env.MEDIA_S3_ACCESS_KEY_ID,
          secretAccessKey: env.MEDIA_S3_SECRET_ACCESS_KEY,
        })
      : createDiskMediaStore(path.resolve(env.MEDIA_DIR ?? path.join(env.DATA_DIR, "media")));
    stores.set(env, store);
  }
  return store;
}
