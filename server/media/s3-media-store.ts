/**
 * Pictures in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2...): the only file that
 * imports the AWS SDK. Objects are written whole by S3's own semantics (a failed PUT leaves nothing);
 * the shop serves them at /media/... with long cache headers, so the bucket need not be public.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { assertMediaKey, contentTypeOf, type MediaStore } from "./media-store";

export type S3MediaConfig = {
  bucket: string;
  /** A folder inside the bucket, e.g. "bimbifelici/"; empty: the bucket's root. */
  prefix?: string;
  /** Anything but AWS: the service's endpoint (https://<account>.r2.cloudflarestorage.com, http://127.0.0.1:9000). */
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
};

/** Pictures never change under a key (a new upload gets a new key): browsers and proxies may keep them. */
const cacheControl = "public, max-age=31536000, immutable";

type S3Sdk = typeof import("@aws-sdk/client-s3");

export function createS3MediaStore(config: S3MediaConfig): MediaStore {
  // The SDK is loaded with the first picture asked for: a process importing this file does not hold it (decision 0075).
  let connected: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  const connect = () =>
    (connected ??= import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region ?? "auto",
        // Path-style addressing works with every S3-compatible service; AWS still accepts it.
        ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
        ...(config.accessKeyId && config.secretAccessKey
          ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
          : {}),
        maxAttempts: 3,
      }),
    })));
  const prefix = config.prefix ? `${config.prefix.replace(/\/+$/, "")}/` : "";
  const objectKey = (key: string) => {
    assertMediaKey(key);
    return `${prefix}${key}`;
  };
  const isMissing = (sdk: S3Sdk, error: unknown) =>
    error instanceof sdk.NotFound ||
    error instanceof sdk.NoSuchKey ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  return {
    kind: "s3",
    dir: null,
    async put(key, body, contentType) {
      const { sdk, client } = await connect();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: config.bucket, Key: objectKey(key), Body: body, ContentType: contentType, CacheControl: cacheControl }),
      );
    },
    async has(key) {
      const { sdk, client } = await connect();
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (isMissing(sdk, error)) return false;
        throw error;
      }
    },
    async remove(keys) {
      const { sdk, client } = await connect();
      // S3 deletes up to 1,000 objects per request.
      for (let start = 0; start < keys.length; start += 1000) {
        const objects = keys.slice(start, start + 1000).map((key) => ({ Key: objectKey(key) }));
        await client.send(new sdk.DeleteObjectsCommand({ Bucket: config.bucket, Delete: { Objects: objects, Quiet: true } }));
      }
    },
    async read(key) {
      const { sdk, client } = await connect();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: config.bucket, Key: objectKey(key) }));
        return { body: answer.Body as Readable, size: answer.ContentLength ?? 0, contentType: answer.ContentType ?? contentTypeOf(key) };
      } catch (error) {
        if (isMissing(sdk, error)) return null;
        throw error;
      }
    },
  };
}
