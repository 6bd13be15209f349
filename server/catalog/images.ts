/**
 * Product pictures on disk: `${mediaDir}/products/{key}-{width}.{webp|avif}`, served as
 * /media/products/... (common/media.ts builds the URLs). An upload's variants are written once, at
 * upload: AVIF costs about 120 ms per 800 px image on 2 cores. The sample catalogue's drawings are
 * written one variant at a time, the first time each is asked for (sample-pictures.ts).
 *
 * Measured on the 2-core machines (sharp 0.35): AVIF at all four widths (effort 2) costs about
 * 230 ms of CPU per picture, so AVIF is written only at 320 and 480 px (listing cards and the
 * product gallery) and WebP at every width; browsers without AVIF get WebP.
 */
import fs from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata, type Sharp } from "sharp";
import { avifWidths, imageKeyPattern, imageWidths, placeholderImageKey, type ImageFormat, type ImageWidth } from "#common/media.ts";
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

/** `{key}-{width}.{format}`, as common/media.ts names a variant's file: null for any other name. */
export function parseImageVariantFile(file: string): { key: string; width: ImageWidth; format: ImageFormat } | null {
  const match = /^([a-z0-9-]{1,100})-(\d{2,4})\.(webp|avif)$/.exec(file);
  if (!match || !imageKeyPattern.test(match[1]!)) return null;
  const format = match[3] as ImageFormat;
  const width = Number(match[2]);
  const widths: readonly number[] = format === "avif" ? avifWidths : imageWidths;
  return widths.includes(width) ? { key: match[1]!, width: width as ImageWidth, format } : null;
}

const drawingsUnderWay = new Map<string, Promise<void>>();

/**
 * Draws `svg` and writes only the one variant asked for, unless its file exists. The same file asked
 * for twice at once is drawn once; two processes may both draw it, and the rename keeps the file whole.
 */
export async function writeDrawingVariantIfMissing(
  mediaDir: string,
  variant: { key: string; width: ImageWidth; format: ImageFormat },
  svg: () => string,
): Promise<void> {
  const dir = getProductImagesDir(mediaDir);
  const file = path.join(dir, `${variant.key}-${variant.width}.${variant.format}`);
  const underWay = drawingsUnderWay.get(file);
  if (underWay) return underWay;
  const drawing = (async () => {
    if (
      await fs.access(file).then(
        () => true,
        () => false,
      )
    )
      return;
    await fs.mkdir(dir, { recursive: true });
    const { data, info } = await renderRaw(svg());
    const fromRaw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    await encodeVariant(fromRaw, dir, variant.key, variant.width, variant.format, sampleAvifEffort);
  })().finally(() => drawingsUnderWay.delete(file));
  drawingsUnderWay.set(file, drawing);
  return drawing;
}
