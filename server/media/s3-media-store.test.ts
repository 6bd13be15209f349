import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import express from "express";
import sharp from "sharp";
import { afterAll, beforeAll, expect, onTestFinished, test } from "vitest";
import { getImageVariantKeys } from "#server/catalog/images.ts";
import { drawSamplePictureFile } from "#server/catalog/sample-pictures.ts";
import { productImages } from "#server/db/schema.ts";
import { sampleCatalogue } from "#server/db/sample-catalogue.ts";
import { addProductImage, removeProductImage } from "#server/admin/product-stock.service.ts";
import { serveMedia } from "#server/http/media-files.ts";
import { createTestDb } from "#tests/db.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { startLocalS3Server, type LocalS3Server } from "#tests/peers/local-s3-server.ts";
import { createS3MediaStore } from "./s3-media-store";

let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3Server();
});
afterAll(() => s3?.close());

const storeOf = (server: LocalS3Server) =>
  createS3MediaStore({
    bucket: server.bucket,
    prefix: "shop",
    endpoint: server.url,
    region: "eu-south-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: "#d98" } })
    .jpeg()
    .toBuffer();

test("a picture uploaded in the back office goes to the bucket in every size; removing it deletes them", { timeout: 60_000 }, async () => {
  const db = await openDb();
  const media = storeOf(s3);
  const { productId } = await createProduct(db);
  const added = await addProductImage(db, { productId, colourId: null, bytes: await photo(), media, actorUserId: null });
  expect(added).toMatchObject({ ok: true });
  const [image] = await db.select().from(productImages).where(eq(productImages.productId, productId));
  const expected = getImageVariantKeys(image!.storageKey).map((key) => `shop/${key}`);
  expect(s3.keys()).toEqual(expect.arrayContaining(expected));
  const stored = await media.read(`products/${image!.storageKey}-800.webp`);
  expect(stored?.contentType).toBe("image/webp");
  const bytes = Buffer.concat(await stored!.body.toArray());
  expect(await sharp(bytes).metadata()).toMatchObject({ format: "webp", width: 800 });

  expect(await removeProductImage(db, { productId, imageId: (added as { id: number }).id, media, actorUserId: null })).toBe(true);
  expect(s3.keys().filter((key) => expected.includes(key))).toEqual([]);
});

test("the bucket failing half-way: the upload is refused whole, no row and no file of it are left", { timeout: 60_000 }, async () => {
  const db = await openDb();
  const media = storeOf(s3);
  const { productId } = await createProduct(db);
  const before = s3.keys();
  // Three sizes go up, then every upload is refused (the client's own retries included).
  s3.refusePutsAfter = 3;
  onTestFinished(() => {
    s3.refusePutsAfter = null;
  });
  await expect(addProductImage(db, { productId, colourId: null, bytes: await photo(), media, actorUserId: null })).rejects.toThrow();
  expect(s3.puts).toBeGreaterThan(3);
  expect(await db.$count(productImages, eq(productImages.productId, productId))).toBe(0);
  expect(s3.keys()).toEqual(before);
});

test("sample pictures are drawn into the bucket on first request and served from it at /media", { timeout: 60_000 }, async () => {
  const media = storeOf(s3);
  const app = express();
  app.use("/media/products", (req, _res, next) => {
    drawSamplePictureFile(media, req.path.slice(1)).then(() => next(), next);
  });
  app.use("/media", serveMedia(media));
  const server = app.listen(0, "127.0.0.1");
  onTestFinished(() => {
    server.close();
  });
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = sampleCatalogue[0]!.images[0]!.key;

  const first = await fetch(`${base}/media/products/${key}-320.avif`);
  expect(first.status).toBe(200);
  expect(first.headers.get("content-type")).toBe("image/avif");
  expect(first.headers.get("cache-control")).toBe("public, max-age=604800");
  expect(await sharp(Buffer.from(await first.arrayBuffer())).metadata()).toMatchObject({ format: "heif", width: 320 });
  expect(s3.keys()).toContain(`shop/products/${key}-320.avif`);

  expect((await fetch(`${base}/media/products/not-a-sample-320.avif`)).status).toBe(404);
  expect((await fetch(`${base}/media/products/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
});
