/**
 * Product pictures on disk: `${mediaDir}/products/{key}-{width}.{webp|avif}`, served as
 * /media/products/... (common/media.ts builds the URLs). Variants are written once, at upload or
 * seed time, never per request: AVIF costs about 120 ms per 800 px image on 2 cores.
 *
 * Measured on the 2-core machines (sharp 0.35): AVIF at all four widths (effort 2) costs about
 * 230 ms of CPU per picture, well over a minute and a half for the 891 sample pictures, so AVIF is
 * written only at 320 and 480 px (listing cards and the product gallery) and WebP at every width;
 * browsers without AVIF get WebP. With the settings below the sample set takes 45-55 s on first
 * start, and nothing on later starts.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Metadata, type Sharp } from "sharp";
import { avifWidths, imageKeyPattern, imageWidths, placeholderImageKey, type ImageFormat, type ImageWidth } from "#common/media.ts";
import type { SampleProduct } from "#server/db/sample-catalogue.ts";
import { renderPlaceholderSvg, renderProductSvg, type ProductImageSpec } from "#server/db/sample-catalogue/drawing.ts";

export { imageWidths } from "#common/media.ts";
export { sourceImageSize, type ProductImageSpec } from "#server/db/sample-catalogue/drawing.ts";

/** Uploads above this are refused before sharp decodes anything. */
export const maxImageUploadBytes = 15 * 1024 * 1024;
/** Refuse decompression bombs: a small file can declare a huge canvas. */
const maxInputPixels = 40_000_000;
const acceptedUploadFormats = new Set(["jpeg", "png", "webp", "avif", "heif", "gif", "tiff"]);
/**
 * AVIF effort: an upload is encoded once, so it gets the smaller files of effort 2 (~0.1 s);
 * the ~900 flat sample drawings use effort 0, three times faster, still smaller than their WebP.
 */
const uploadAvifEffort = 2;
const sampleAvifEffort = 0;

export type ImageRejection = "image-too-large" | "image-unreadable" | "image-not-raster" | "image-too-many-pixels";
export type WriteImageResult = { ok: true; width: number; height: number } | { ok: false; error: ImageRejection };

function getProductImagesDir(mediaDir: string) {
  return path.join(mediaDir, "products");
}

/** Every file a stored image consists of (for deleting or checking an image). */
export function getImageVariantPaths(mediaDir: string, key: string): string[] {
  const dir = getProductImagesDir(mediaDir);
  const formats: ImageFormat[] = ["webp", "avif"];
  return formats.flatMap((format) => (format === "avif" ? avifWidths : imageWidths).map((width) => path.join(dir, `${key}-${width}.${format}`)));
}

function assertImageKey(key: string) {
  if (!imageKeyPattern.test(key) || key.length > 100) throw new Error(`Bad image storage key: ${JSON.stringify(key)}`);
}

/**
 * Validates an uploaded picture and writes its variants under `key`. Only raster formats are
 * accepted (an SVG can carry scripts); EXIF orientation is applied and all metadata (GPS
 * position, camera serial) is dropped, since sharp writes none unless asked to.
 */
export async function writeImageVariants(source: Buffer, key: string, mediaDir: string): Promise<WriteImageResult> {
  assertImageKey(key);
  if (source.byteLength > maxImageUploadBytes) return { ok: false, error: "image-too-large" };
  let metadata: Metadata;
  try {
    metadata = await sharp(source).metadata();
  } catch {
    return { ok: false, error: "image-unreadable" };
  }
  if (!metadata.format || !acceptedUploadFormats.has(metadata.format)) return { ok: false, error: "image-not-raster" };
  if (!metadata.width || !metadata.height) return { ok: false, error: "image-unreadable" };
  if (metadata.width * metadata.height > maxInputPixels) return { ok: false, error: "image-too-many-pixels" };
  let pixels: { data: Buffer; info: RawInfo };
  try {
    const decoded = sharp(source, { failOn: "error", limitInputPixels: maxInputPixels }).rotate();
    // An alpha channel costs AVIF a second encoded plane: keep it only when something is see-through.
    const isOpaque = !metadata.hasAlpha || (await decoded.clone().stats()).isOpaque;
    const { data, info } = await (isOpaque ? decoded.removeAlpha() : decoded).raw().toBuffer({ resolveWithObject: true });
    pixels = { data, info };
  } catch {
    // A truncated or corrupt file: the person gets a message. Disk errors below are not theirs and throw.
    return { ok: false, error: "image-unreadable" };
  }
  await writeVariantsFromRaw(pixels.data, pixels.info, key, mediaDir, uploadAvifEffort);
  return { ok: true, width: pixels.info.width, height: pixels.info.height };
}

type RawInfo = { width: number; height: number; channels: 1 | 2 | 3 | 4 };

/**
 * Decodes once, then encodes each width and format from the same pixels, one after the other:
 * callers run one image per core, and more parallel libvips work only grows memory (sharp runs
 * single-threaded per operation on glibc Linux to limit fragmentation).
 */
async function writeVariantsFromRaw(data: Buffer, info: RawInfo, key: string, mediaDir: string, avifEffort: number) {
  const dir = getProductImagesDir(mediaDir);
  await fs.mkdir(dir, { recursive: true });
  const fromRaw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  for (const width of imageWidths) await encodeVariant(fromRaw(), dir, key, width, "webp", avifEffort);
  for (const width of avifWidths) await encodeVariant(fromRaw(), dir, key, width, "avif", avifEffort);
}

async function encodeVariant(image: Sharp, dir: string, key: string, width: ImageWidth, format: ImageFormat, avifEffort: number) {
  const file = path.join(dir, `${key}-${width}.${format}`);
  const resized = image.resize({ width, withoutEnlargement: true });
  // 4:2:0 chroma: sharp's AVIF default (4:4:4) costs a fifth more time for no visible gain in photos.
  const encoded =
    format === "avif" ? resized.avif({ quality: 50, effort: avifEffort, chromaSubsampling: "4:2:0" }) : resized.webp({ quality: 78, effort: 2 });
  // Write beside and rename, so a crash never leaves a half-written file that "already exists".
  const partial = `${file}.${process.pid}.partial`;
  try {
    await encoded.toFile(partial);
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  }
}

// ---------------------------------------------------------------- generated sample pictures

/** The drawings are opaque: dropping the alpha channel roughly halves AVIF encoding time. */
async function renderRaw(svg: string) {
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info: info as RawInfo };
}

/** A sample product picture (800x800 PNG), drawn locally: no network, no stock photos. */
export async function generateProductImage(spec: ProductImageSpec): Promise<Buffer> {
  return sharp(Buffer.from(renderProductSvg(spec)))
    .png()
    .toBuffer();
}

async function hasAllVariants(mediaDir: string, key: string) {
  const checks = await Promise.all(
    getImageVariantPaths(mediaDir, key).map((file) =>
      fs.access(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return checks.every(Boolean);
}

/** Draws `svg` and writes its variants under `key`, unless they are all there already. */
async function writeDrawingIfMissing(key: string, svg: () => string, mediaDir: string): Promise<boolean> {
  if (await hasAllVariants(mediaDir, key)) return false;
  const { data, info } = await renderRaw(svg());
  await writeVariantsFromRaw(data, info, key, mediaDir, sampleAvifEffort);
  return true;
}

/**
 * The picture shown for a product or colour without pictures of its own. Cheap when present:
 * call it on every start, since the shop needs it with or without the sample catalogue.
 */
export async function writePlaceholderImage(mediaDir: string): Promise<boolean> {
  return writeDrawingIfMissing(placeholderImageKey, renderPlaceholderSvg, mediaDir);
}

/**
 * Draws and writes every picture of the sample catalogue plus the shared placeholder.
 * Pictures whose files all exist are skipped, so a second run takes a moment.
 */
export async function writeSampleCatalogueImages(
  products: readonly SampleProduct[],
  mediaDir: string,
  log: (line: string) => void = () => {},
): Promise<{ written: number; skipped: number }> {
  const jobs: { key: string; svg: () => string }[] = [
    { key: placeholderImageKey, svg: renderPlaceholderSvg },
    ...products.flatMap((product) =>
      product.images.map((image) => ({
        key: image.key,
        svg: () => renderProductSvg({ label: product.nameIt, colour: image.colour, categorySlug: product.categorySlug, view: image.position }),
      })),
    ),
  ];
  let written = 0;
  let skipped = 0;
  let next = 0;
  const startedAt = performance.now();
  // One picture per core, plus one so a core never idles while a worker waits on the disk.
  const workers = Math.max(2, Math.min(5, os.availableParallelism() + 1));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        if (!(await writeDrawingIfMissing(job.key, job.svg, mediaDir))) {
          skipped++;
          continue;
        }
        written++;
        if (written % 100 === 0) log(`sample images: ${written + skipped}/${jobs.length}`);
      }
    }),
  );
  if (written > 0) log(`sample images: wrote ${written}, kept ${skipped}, in ${Math.round(performance.now() - startedAt)} ms`);
  return { written, skipped };
}
