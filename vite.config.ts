import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { browserChunkGroups } from "./config/browser-chunks.ts";
import { chunkOrigins } from "./config/chunk-origins.ts";
import { precompressAssets } from "./config/precompress-assets.ts";
import { serverGuard } from "./config/server-guard.ts";

/** `VERBOSE=1 npm start` (or `npm run build`) lists the built files and the bundler's timings; warnings and errors show always. */
const verbose = process.env.VERBOSE === "1";

export default defineConfig({
  logLevel: verbose ? "info" : "warn",
  build: { rolldownOptions: { checks: { bundlerTimings: verbose } } },
  environments: {
    // A few larger browser chunks instead of one per set of pages sharing a module (config/browser-chunks.ts).
    client: { build: { rolldownOptions: { output: { codeSplitting: { groups: browserChunkGroups(import.meta.dirname) } } } } },
    // The server bundle's entry is our Express app (server/http/app.ts), which embeds the
    // React Router build; React Router 8 reads the SSR input from here.
    ssr: {
      // Bundled, not loaded from node_modules: Node 24 reads drizzle-orm's 179 KB package.json again for each of
      // its ~450 files, which cost every start 1.3 s of CPU and 110 MB of RSS (decision 0075). better-auth's
      // adapter comes with it, so drizzle-orm is loaded once.
      resolve: { noExternal: ["drizzle-orm", "@better-auth/drizzle-adapter"] },
      // ASCII only, and no JSDoc: V8 keeps a module's source for its life, and one "…" or "€" among its 3.3
      // million characters made it two bytes a character, 6.5 MB of heap (decision 0114). Licences are kept.
      build: {
        rolldownOptions: {
          input: "./server/http/app.ts",
          output: { charset: "ascii", comments: { legal: true, annotation: false, jsdoc: false } },
        },
      },
    },
  },
  plugins: [serverGuard(), tailwindcss(), reactRouter(), chunkOrigins(), precompressAssets()],
});
