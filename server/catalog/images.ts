/**
 * Product pictures in the media store (server/media/media-store.ts: a folder or a bucket) under
 * `products/{key}-{width}.{webp|avif}`, served as /media/products/... (common/media.ts builds the URLs). An upload's variants are written once, at
 * upload: AVIF costs about 120 ms per 800 px image on 2 cores. The sample catalogue's drawings are
 * written one variant at a time, the first time each is asked for (sample-pictures.ts).
 *
 * Measured on the 2-core machines (sharp 0.35): AVIF at all four widths (effort 2) costs about
 * 230 ms of CPU per picture, so AVIF is written only at 320 and 480 px (listing cards and the
 * product gallery) and WebP at every width; browsers without AVIF get WebP.
 */
import type sharpFunction from "sharp";
import type { Metadata, Sharp } from "sharp";
import { avifWidths, imageKeyPattern, imageWidths, placeholderImageKey, type ImageFormat, type ImageWidth } from "#common/media.ts";
import { renderPlaceholderSvg, renderProductSvg, type ProductImageSpec } from "#server/db/sample-catalogue/drawing.ts";
import { contentTypeOf, type MediaStore } from "#server/media/media-store.ts";

let loadedSharp: Promise<typeof sharpFunction> | undefined;

/**
 * sharp and libvips, loaded with the first picture this process draws or encodes: one that serves pictures
 * already stored never holds them (about 20 MB, docs/decisions/0075-process-memory.md).
 */
function loadSharp() {
  return (loadedSharp ??= import("sharp").then(({ default: sharp }) => {
    // libvips keeps the last 100 operations and up to 50 MB of their results for reuse; every picture this
    // process draws or encodes is a different one, so the cache only held memory (about 20 MB once pictures
    // were drawn, bench/memory.mjs).
    sharp.cache(false);
    return sharp;
  }));
}

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

/** A variant's key in the media store. */
export function imageVariantKey(key: string, width: ImageWidth, format: ImageFormat): string {
  return `products/${key}-${width}.${format}`;
}

/** Every file a stored image consists of (for deleting or checking an image). */
export function getImageVariantKeys(key: string): string[] {
  const formats: ImageFormat[] = ["webp", "avif"];
  return formats.flatMap((format) => (format === "avif" ? avifWidths : imageWidths).map((width) => imageVariantKey(key, width, format)));
}

function assertImageKey(key: string) {
  if (!imageKeyPattern.test(key) || key.length > 100) throw new Error(`Bad image storage key: ${JSON.stringify(key)}`);
}

/**
 * Validates an uploaded picture and writes its variants under `key`. Only raster formats are
 * accepted (an SVG can carry scripts); EXIF orientation is applied and all metadata (GPS
 * position, camera serial) is dropped, since sharp writes none unless asked to.
 */
export async function writeImageVariants(source: Buffer, key: string, store: MediaStore): Promise<WriteImageResult> {
  assertImageKey(key);
  const checked = await checkUploadedImage(source);
  if (!checked.ok) return checked;
  const { metadata } = checked;
  const sharp = await loadSharp();
  let pixels: { data: Buffer; info: RawInfo };
  try {
    // Decoded straight to the widest variant: a JPEG shrinks while it decodes, so a 6-megapixel photo is 1.4 MB
    // of pixels instead of 36 (with libvips's buffers, a process went from 300 to 480 MB per upload).
    const decoded = sharp(source, { failOn: "error", limitInputPixels: maxInputPixels })
      .rotate()
      .resize({ width: imageWidths.at(-1), withoutEnlargement: true });
    // An alpha channel costs AVIF a second encoded plane: keep it only when something is see-through.
    const isOpaque = !metadata.hasAlpha || (await decoded.clone().stats()).isOpaque;
    const { data, info } = await (isOpaque ? decoded.removeAlpha() : decoded).raw().toBuffer({ resolveWithObject: true });
    pixels = { data, info };
  } catch {
    // A truncated or corrupt file: the person gets a message. Disk errors below are not theirs and throw.
    return { ok: false, error: "image-unreadable" };
  }
  try {
    await writeVariantsFromRaw(pixels.data, pixels.info, key, store, uploadAvifEffort);
  } catch (error) {
    // A store that fails half-way (a bucket refusing one file) keeps no part of the picture.
    await store.remove(getImageVariantKeys(key)).catch(() => {});
    throw error;
  }
  return { ok: true, width: pixels.info.width, height: pixels.info.height };
}

/** The checks every uploaded picture passes before sharp decodes it: size, a raster format, a sane canvas. */
async function checkUploadedImage(source: Buffer): Promise<{ ok: true; metadata: Metadata } | { ok: false; error: ImageRejection }> {
  if (source.byteLength > maxImageUploadBytes) return { ok: false, error: "image-too-large" };
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    metadata = await sharp(source).metadata();
  } catch {
    return { ok: false, error: "image-unreadable" };
  }
  if (!metadata.format || !acceptedUploadFormats.has(metadata.format)) return { ok: false, error: "image-not-raster" };
  if (!metadata.width || !metadata.height) return { ok: false, error: "image-unreadable" };
  if (metadata.width * metadata.height > maxInputPixels) return { ok: false, error: "image-too-many-pixels" };
  return { ok: true, metadata };
}

export type EncodedPhoto = { ok: true; webp: Buffer; width: number; height: number } | { ok: false; error: ImageRejection };

/**
 * A customer's photo (a guarantee claim): the upload checks above, EXIF orientation applied, then one WebP at
 * most `maxWidth` wide with no metadata (GPS position, camera serial), as sharp writes none unless asked to.
 */
export async function encodeUploadedPhoto(source: Buffer, maxWidth: number): Promise<EncodedPhoto> {
  const checked = await checkUploadedImage(source);
  if (!checked.ok) return checked;
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(source, { failOn: "error", limitInputPixels: maxInputPixels })
      .rotate()
      .resize({ width: maxWidth, height: maxWidth, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80, effort: 2 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, webp: data, width: info.width, height: info.height };
  } catch {
    return { ok: false, error: "image-unreadable" };
  }
}

type RawInfo = { width: number; height: number; channels: 1 | 2 | 3 | 4 };

/**
 * Decodes once, then encodes each width and format from the same pixels, one after the other:
 * callers run one image per core, and more parallel libvips work only grows memory (sharp runs
 * single-threaded per operation on glibc Linux to limit fragmentation).
 */
async function writeVariantsFromRaw(data: Buffer, info: RawInfo, key: string, store: MediaStore, avifEffort: number) {
  for (const width of imageWidths) await encodeVariant(await imageFromRaw(data, info), store, key, width, "webp", avifEffort);
  for (const width of avifWidths) await encodeVariant(await imageFromRaw(data, info), store, key, width, "avif", avifEffort);
}

/** Decoded pixels back into sharp, for one encode each (a sharp pipeline runs once). */
async function imageFromRaw(data: Buffer, info: RawInfo) {
  const sharp = await loadSharp();
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
}

async function encodeVariant(image: Sharp, store: MediaStore, key: string, width: ImageWidth, format: ImageFormat, avifEffort: number) {
  const resized = image.resize({ width, withoutEnlargement: true });
  // 4:2:0 chroma: sharp's AVIF default (4:4:4) costs a fifth more time for no visible gain in photos.
  const encoded =
    format === "avif" ? resized.avif({ quality: 50, effort: avifEffort, chromaSubsampling: "4:2:0" }) : resized.webp({ quality: 78, effort: 2 });
  const variantKey = imageVariantKey(key, width, format);
  await store.put(variantKey, await encoded.toBuffer(), contentTypeOf(variantKey));
}

// ---------------------------------------------------------------- generated sample pictures

/** The drawings are opaque: dropping the alpha channel roughly halves AVIF encoding time. */
async function renderRaw(svg: string) {
  const sharp = await loadSharp();
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, info: info as RawInfo };
}

/** A sample product picture (800x800 PNG), drawn locally: no network, no stock photos. */
export async function generateProductImage(spec: ProductImageSpec): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(renderProductSvg(spec)))
    .png()
    .toBuffer();
}

async function hasAllVariants(store: MediaStore, key: string) {
  const checks = await Promise.all(getImageVariantKeys(key).map((variantKey) => store.has(variantKey)));
  return checks.every(Boolean);
}

/** Draws `svg` and writes its variants under `key`, unless they are all there already. */
async function writeDrawingIfMissing(key: string, svg: () => string, store: MediaStore): Promise<boolean> {
  if (await hasAllVariants(store, key)) return false;
  const { data, info } = await renderRaw(svg());
  await writeVariantsFromRaw(data, info, key, store, sampleAvifEffort);
  return true;
}

/**
 * The picture shown for a product or colour without pictures of its own. Cheap when present:
 * call it on every start, since the shop needs it with or without the sample catalogue.
 */
export async function writePlaceholderImage(store: MediaStore): Promise<boolean> {
  return writeDrawingIfMissing(placeholderImageKey, renderPlaceholderSvg, store);
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
 * Draws `svg` and writes only the one variant asked for, unless it is stored already. The same file asked
 * for twice at once is drawn once; two processes may both draw it, and the store keeps the file whole.
 */
export async function writeDrawingVariantIfMissing(
  store: MediaStore,
  variant: { key: string; width: ImageWidth; format: ImageFormat },
  svg: () => string,
): Promise<void> {
  const variantKey = imageVariantKey(variant.key, variant.width, variant.format);
  const underWay = drawingsUnderWay.get(variantKey);
  if (underWay) return underWay;
  const drawing = (async () => {
    if (await store.has(variantKey)) return;
    const { data, info } = await renderRaw(svg());
    await encodeVariant(await imageFromRaw(data, info), store, variant.key, variant.width, variant.format, sampleAvifEffort);
  })().finally(() => drawingsUnderWay.delete(variantKey));
  drawingsUnderWay.set(variantKey, drawing);
  return drawing;
}
