import fs from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";

/**
 * Sends the build's brotli copy of a script or stylesheet (`name.js.br`, written by
 * config/precompress-assets.ts) to browsers that accept brotli; anything else falls through to the plain
 * file, which the compression middleware compresses as before. Put it before the static middleware of the
 * same folder, which then serves the `.br` file (ETag, ranges, cache headers) under the original type.
 */
export function precompressedAssets(assetsDir: string) {
  // Hashed build files never change while the process runs: list them once.
  const compressed = new Set(fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir).filter((name) => name.endsWith(".br")) : []);
  const contentTypes: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
  return (req: Request, res: Response, next: NextFunction) => {
    const name = req.path.slice(1);
    const contentType = contentTypes[path.extname(name)];
    if ((req.method !== "GET" && req.method !== "HEAD") || !contentType || !compressed.has(`${name}.br`)) return next();
    res.vary("Accept-Encoding");
    if (!req.acceptsEncodings("br")) return next();
    res.set({ "Content-Encoding": "br", "Content-Type": contentType });
    req.url = `/${name}.br`;
    next();
  };
}
