import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** Per browser chunk, the share of its code that comes from packages (React, React Router, i18next...). */
export type ChunkOrigins = Record<string, { packageShare: number }>;

/** Where the client build's chunk report lands: beside build/client, so it is never served. */
export const chunkOriginsFile = (clientDir: string) => path.join(clientDir, "..", "chunk-origins.json");

/**
 * Writes build/chunk-origins.json after the browser build: how much of each chunk is package code and how
 * much the shop's own, from the bundler's rendered module lengths. bench/lib/page-sizes.mjs splits a
 * page's JavaScript with it into framework and own code (docs/decisions/0019-javascript-budget.md).
 */
export function chunkOrigins(): Plugin {
  return {
    name: "chunk-origins",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options, bundle) {
      const report: ChunkOrigins = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        let fromPackages = 0;
        let total = 0;
        for (const [id, module] of Object.entries(output.modules)) {
          total += module.renderedLength;
          // Bundler helpers ("\0" ids) count with the packages: the shop did not write them.
          if (id.includes("/node_modules/") || id.startsWith("\0")) fromPackages += module.renderedLength;
        }
        report[output.fileName] = { packageShare: total === 0 ? 1 : Math.round((fromPackages / total) * 1000) / 1000 };
      }
      fs.writeFileSync(chunkOriginsFile(options.dir!), `${JSON.stringify(report, null, 1)}\n`);
    },
  };
}
