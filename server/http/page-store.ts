/**
 * The pages kept for visitors in this process (page-cache.ts decides which): each compressed in brotli, fast
 * on the request that rendered it and strongly soon after, off any request's path (gzip too, once some client
 * asks for it), with the versions it was rendered under and the instant it stops holding; the least recently
 * given ones go first when their bytes pass the bound.
 */
import crypto from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const unbrotli = promisify(zlib.brotliDecompress);
const gzip = promisify(zlib.gzip);

/** Brotli quality of a kept page: compressed once, given many times (decision 0074 has the figures). */
export const keptBrotliQuality = 10;

/**
 * Brotli quality of a page on the request that rendered it, before the strong one replaces it
 * (docs/decisions/0082-page-cache-waits-bounded.md, "First compression").
 */
export const firstBrotliQuality = 4;

/** Kept pages waiting for their strong compression: past it, the oldest waiting one keeps its first bytes. */
const maxPagesToRecompress = 256;

/**
 * The smallest brotli window that holds the whole page (2^lgwin - 16 bytes): the same bytes as the default
 * 4 MiB window for any page under it. At quality 10 the encoder's match finder is sized by the window, some
 * 32 MB for the default, allocated in a zlib pool thread and kept by that thread's malloc arena after it is
 * freed; for a page of 200 KB, 2 MB (decision 0096).
 */
export function brotliWindowBits(length: number): number {
  return Math.min(zlib.constants.BROTLI_MAX_WINDOW_BITS, Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(length + 16))));
}

/**
 * The bytes alone, in memory of their own. zlib answers with a slice of its 64 KiB output chunk, so a kept page
 * of 15 KB held the whole chunk: the store held some four times the bytes its bound counts (decision 0114).
 */
function ownBytes(slice: Buffer): Buffer {
  if (slice.byteOffset === 0 && slice.buffer.byteLength === slice.length) return slice;
  const own = Buffer.allocUnsafeSlow(slice.length);
  slice.copy(own);
  return own;
}

async function brotliAt(quality: number, body: Buffer): Promise<Buffer> {
  const compressed = await brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(body.length),
    },
  });
  return ownBytes(compressed);
}

export type KeptPage = {
  status: number;
  /** The answer's headers as sent (Content-Security-Policy included), without ETag, Vary or encoding. */
  headers: [string, string][];
  etag: string;
  br: Buffer;
  /** Whether `br` is at `keptBrotliQuality` yet, or still the first, fast compression. */
  isStronglyCompressed: boolean;
  /**
   * Made on the first request that does not take brotli, then kept: every browser takes brotli, so most
   * pages never need it, and it was over half of the store's bytes.
   */
  gzip: Buffer | null;
  /** catalogue_version and page_content_version when it was rendered. */
  versions: string;
  /** When something it shows changes by the clock alone (an offer ending, the delivery cut-off). */
  expiresAt: number;
  bytes: number;
};

/** A kept page's validator: weak, the same page in any encoding is one; the same bytes, the same tag. */
export function etagOf(body: Buffer): string {
  return `W/"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

export async function keepPage(
  rendered: { status: number; headers: [string, string][]; body: Buffer },
  { versions, expiresAt }: { versions: string; expiresAt: number },
): Promise<KeptPage> {
  const br = await brotliAt(firstBrotliQuality, rendered.body);
  const etag = etagOf(rendered.body);
  const { status, headers } = rendered;
  const headerBytes = headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  return { status, headers, etag, br, isStronglyCompressed: false, versions, gzip: null, expiresAt, bytes: br.length + headerBytes };
}

/** The page's bytes as sent to a client that takes no compression. */
export function plainBytesOf(page: KeptPage): Promise<Buffer> {
  return unbrotli(page.br);
}

export type PageStore = {
  /** The page kept under `key` if it still holds at these versions and instant. */
  get: (key: string, versions: string, now: number) => KeptPage | undefined;
  set: (key: string, page: KeptPage) => void;
  /** The page's gzip bytes, made the first time and counted in the store's bytes while it keeps the page. */
  gzipOf: (key: string, page: KeptPage) => Promise<Buffer>;
  size: () => { pages: number; bytes: number };
  /** Resolves once no kept page waits for its strong compression. */
  recompressed: () => Promise<void>;
};

export function createPageStore(maxBytes: number): PageStore {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently given first.
  const pages = new Map<string, KeptPage>();
  let bytes = 0;
  const drop = (key: string) => {
    const page = pages.get(key);
    if (!page) return;
    pages.delete(key);
    bytes -= page.bytes + key.length;
  };
  const dropOldestPastBound = () => {
    for (const oldest of pages.keys()) {
      if (bytes <= maxBytes) break;
      drop(oldest);
    }
  };
  // Strong compression, one page at a time in the background (zlib's thread pool): a kept page's brotli bytes
  // are replaced once it is done, if the store still keeps that page. Never awaited by a request.
  const toRecompress = new Map<string, KeptPage>();
  let recompressing: Promise<void> | null = null;
  const recompressNext = async () => {
    for (const [key, page] of toRecompress) {
      toRecompress.delete(key);
      if (pages.get(key) !== page) continue;
      // A page that fails to compress again keeps its first bytes, which are whole.
      const strong = await plainBytesOf(page)
        .then((plain) => brotliAt(keptBrotliQuality, plain))
        .catch(() => null);
      if (!strong || page.isStronglyCompressed) continue;
      const saved = page.br.length - strong.length;
      page.br = strong;
      page.isStronglyCompressed = true;
      page.bytes -= saved;
      if (pages.get(key) === page) bytes -= saved;
    }
  };
  const recompressLater = (key: string, page: KeptPage) => {
    if (page.isStronglyCompressed) return;
    toRecompress.delete(key);
    toRecompress.set(key, page);
    if (toRecompress.size > maxPagesToRecompress) toRecompress.delete(toRecompress.keys().next().value!);
    startRecompressing();
  };
  const startRecompressing = () => {
    recompressing ??= recompressNext().finally(() => {
      recompressing = null;
      if (toRecompress.size > 0) startRecompressing();
    });
  };
  return {
    get(key, versions, now) {
      const page = pages.get(key);
      if (!page) return undefined;
      if (page.versions !== versions || now >= page.expiresAt) {
        drop(key);
        return undefined;
      }
      pages.delete(key);
      pages.set(key, page);
      return page;
    },
    set(key, page) {
      drop(key);
      if (page.bytes + key.length > maxBytes) return;
      pages.set(key, page);
      bytes += page.bytes + key.length;
      dropOldestPastBound();
      recompressLater(key, page);
    },
    async gzipOf(key, page) {
      if (page.gzip) return page.gzip;
      const gzipped = ownBytes(await gzip(await plainBytesOf(page), { level: 9 }));
      // Another request for the same page may have made it meanwhile: counted once.
      if (page.gzip) return page.gzip;
      page.gzip = gzipped;
      page.bytes += gzipped.length;
      if (pages.get(key) === page) {
        bytes += gzipped.length;
        dropOldestPastBound();
      }
      return gzipped;
    },
    size: () => ({ pages: pages.size, bytes }),
    recompressed: async () => {
      while (recompressing) await recompressing;
    },
  };
}
