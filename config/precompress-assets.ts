import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

/**
 * Writes `name.br` beside every script and stylesheet of the browser build, at brotli's highest quality:
 * 15% fewer bytes than the quality the server can afford per request (the home page's scripts: 123 KB
 * instead of 144 KB), and no compression work per request. server/http/precompressed-assets.ts serves them;
 * nginx serves them and the `name.gz` copies (for browsers without brotli) itself (server/ops/nginx-config.ts).
 */
export function precompressAssets(): Plugin {
  return {
    name: "precompress-assets",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(file)) continue;
        const source = path.join(options.dir!, file);
        const bytes = fs.readFileSync(source);
        const compressed = zlib.brotliCompressSync(bytes, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
        });
        fs.writeFileSync(`${source}.br`, compressed);
        fs.writeFileSync(`${source}.gz`, zlib.gzipSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}
