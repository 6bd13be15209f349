import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { expect, onTestFinished, test } from "vitest";
import { avifWidths, getProductImageSrcSet, getProductImageUrl, placeholderImageKey } from "#common/media.ts";
import { createDiskMediaStore } from "#server/media/media-store.ts";
import { generateProductImage, getImageVariantKeys, imageWidths, maxImageUploadBytes, writeImageVariants, writePlaceholderImage } from "./images";
import { drawSamplePictureFile } from "./sample-pictures";
import { sampleCatalogue } from "#server/db/sample-catalogue.ts";

function makeMediaDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-media-"));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const storeIn = (dir: string) => createDiskMediaStore(dir);

test("a generated product picture is an 800 px square raster", async () => {
  const png = await generateProductImage({ label: "Vaschetta da bagno ergonomica", colour: "blue", categorySlug: "Bagnetto", view: 0 });
  const metadata = await sharp(png).metadata();
  expect(metadata).toMatchObject({ format: "png", width: 800, height: 800 });
});

test("variants are written as WebP at every width and AVIF at the card widths", async () => {
  const mediaDir = makeMediaDir();
  const png = await generateProductImage({ label: "Passeggino leggero", colour: "black", categorySlug: "A-spasso", view: 1 });
  expect(await writeImageVariants(png, "test-stroller", storeIn(mediaDir))).toEqual({ ok: true, width: 800, height: 800 });
  for (const width of imageWidths) {
    const metadata = await sharp(path.join(mediaDir, "products", `test-stroller-${width}.webp`)).metadata();
    expect(metadata).toMatchObject({ format: "webp", width });
  }
  for (const width of avifWidths) {
    const metadata = await sharp(path.join(mediaDir, "products", `test-stroller-${width}.avif`)).metadata();
    // libheif reports AVIF files as HEIF with AV1 compression.
    expect(metadata).toMatchObject({ format: "heif", compression: "av1", width });
  }
  expect(getImageVariantKeys("test-stroller").every((key) => fs.existsSync(path.join(mediaDir, key)))).toBe(true);
  expect(fs.readdirSync(path.join(mediaDir, "products")).some((file) => file.endsWith(".partial"))).toBe(false);
});

test("an uploaded photo loses its metadata and is turned upright; small photos are not enlarged", async () => {
  const mediaDir = makeMediaDir();
  // A 300x200 JPEG whose EXIF says "rotate 90°" and names a camera.
  const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#c08060" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Make: "ShopCam" } })
    .toBuffer();
  expect(await sharp(photo).metadata()).toMatchObject({ orientation: 6, exif: expect.any(Buffer) });
  expect(await writeImageVariants(photo, "upload-1", storeIn(mediaDir))).toEqual({ ok: true, width: 200, height: 300 });
  const largest = await sharp(path.join(mediaDir, "products", "upload-1-800.webp")).metadata();
  expect(largest).toMatchObject({ width: 200, height: 300 });
  expect(largest.exif).toBeUndefined();
  expect(largest.orientation).toBeUndefined();
});

test("uploads that are not raster pictures, or too large, are refused and nothing is written", async () => {
  const mediaDir = makeMediaDir();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
  expect(await writeImageVariants(svg, "bad-svg", storeIn(mediaDir))).toEqual({ ok: false, error: "image-not-raster" });
  expect(await writeImageVariants(Buffer.from("%PDF-1.4 not a picture"), "bad-text", storeIn(mediaDir))).toEqual({
    ok: false,
    error: "image-unreadable",
  });
  expect(await writeImageVariants(Buffer.alloc(maxImageUploadBytes + 1), "bad-size", storeIn(mediaDir))).toEqual({
    ok: false,
    error: "image-too-large",
  });
  expect(fs.existsSync(path.join(mediaDir, "products"))).toBe(false);
});

test("a storage key that could leave the media folder is a programming error", async () => {
  const png = await generateProductImage({ label: "x", colour: null, categorySlug: "pappa", view: 0 });
  await expect(writeImageVariants(png, "../../etc/passwd", storeIn(makeMediaDir()))).rejects.toThrow(/storage key/);
});

test("a sample picture's file is drawn when first asked for, alone, and kept; other names draw nothing", async () => {
  const mediaDir = makeMediaDir();
  const product = sampleCatalogue.find((candidate) => candidate.colours.length > 1)!;
  const key = product.images[1]!.key;
  const file = path.join(mediaDir, "products", `${key}-480.avif`);
  // Two requests at once for the same file: one drawing, one file.
  expect(
    await Promise.all([drawSamplePictureFile(storeIn(mediaDir), `${key}-480.avif`), drawSamplePictureFile(storeIn(mediaDir), `${key}-480.avif`)]),
  ).toEqual([true, true]);
  expect((await sharp(file).metadata()).width).toBe(480);
  expect(fs.readdirSync(path.join(mediaDir, "products"))).toEqual([`${key}-480.avif`]);
  const before = fs.statSync(file).mtimeMs;
  expect(await drawSamplePictureFile(storeIn(mediaDir), `${key}-480.avif`)).toBe(true);
  expect(fs.statSync(file).mtimeMs).toBe(before);
  // A width never written in that format, an upload's key, a path: nothing is drawn.
  for (const name of [`${key}-800.avif`, `${key}-481.webp`, "upload-1-480.webp", `../${key}-480.webp`, `${key}-480.png`]) {
    expect(await drawSamplePictureFile(storeIn(mediaDir), name)).toBe(false);
  }
  expect(fs.readdirSync(path.join(mediaDir, "products"))).toEqual([`${key}-480.avif`]);
});

test("drawing pictures leaves nothing in libvips' operation cache", async () => {
  await writePlaceholderImage(storeIn(makeMediaDir()));
  const cache = sharp.cache();
  expect(cache.items).toEqual({ current: 0, max: 0 });
  expect(cache.memory.current).toBe(0);
});

test("the placeholder is written once, whether or not the sample catalogue is", async () => {
  const mediaDir = makeMediaDir();
  expect(await writePlaceholderImage(storeIn(mediaDir))).toBe(true);
  expect(getImageVariantKeys(placeholderImageKey).every((key) => fs.existsSync(path.join(mediaDir, key)))).toBe(true);
  expect(await writePlaceholderImage(storeIn(mediaDir))).toBe(false);
});

test("picture URLs name the key, width and format under /media/products", () => {
  expect(getProductImageUrl("sample-24-1", 480, "avif")).toBe("/media/products/sample-24-1-480.avif");
  expect(getProductImageSrcSet("sample-24-1", "avif")).toBe("/media/products/sample-24-1-320.avif 320w, /media/products/sample-24-1-480.avif 480w");
  expect(getProductImageSrcSet("placeholder", "webp").split(", ")).toHaveLength(4);
});
