/**
 * `GET /personal` (and /en/personal), her personal part as JSON (decision 0095), answered here rather than by
 * React Router: the same part from the same reader (the app's, handed over with the build as the page filler's),
 * the same private headers and cookies, without matching the URL against every route twice, the loader's data
 * path and a compression stream for a few hundred bytes (decision 0109). Anything else on these paths (a query,
 * HEAD, a build without a filler) goes on to the route in app/routes/account/personal.ts, which answers the same.
 */
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { readingVersionsOnce } from "#server/catalog/catalogue-cache.ts";
import { fetchHeadersOf } from "./page-cache";
import type { PageFiller } from "./page-filler";
import { personalCacheControl, personalPartPath } from "./page-caching";
import { brotliWindowBits } from "./page-store";

/** Brotli in one call on the small answer: its size is known, the window sized to it as a kept page's is. */
const brotliOptions = (bytes: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(bytes),
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
  },
});

/** Express: answers a plain `GET /personal` with her part; `filler` null (development) leaves it to React Router. */
export function answerPersonalPart({ filler, publicUrl }: { filler: Promise<PageFiller | null> | null; publicUrl: string }) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!filler || req.method !== "GET" || !personalPartPath.test(req.path) || req.originalUrl !== req.path) return next();
    filler
      .then((reader) => {
        if (!reader) return next();
        return readingVersionsOnce(async () => {
          const { part, headers } = await reader.readPersonalPart(
            new globalThis.Request(new URL(req.originalUrl, publicUrl), { headers: fetchHeadersOf(req) }),
          );
          const json = Buffer.from(JSON.stringify(part));
          for (const cookie of headers.getSetCookie()) res.append("Set-Cookie", cookie);
          res.setHeader("Cache-Control", personalCacheControl);
          res.setHeader("Content-Type", "application/json; charset=utf-8");
          res.vary("Accept-Encoding");
          // Every browser takes brotli; anything else is left to the compression middleware (shop-app.ts).
          const body = req.acceptsEncodings("br") === "br" ? zlib.brotliCompressSync(json, brotliOptions(json.length)) : json;
          if (body !== json) res.setHeader("Content-Encoding", "br");
          res.setHeader("Content-Length", body.length);
          res.end(body);
        });
      })
      .catch(next);
  };
}
