import { defineConfig } from "vitest/config";

/**
 * The load and fault suite (`npm run test:load`, scripts/test-load.mjs): one file, its parts in
 * order on one shop, never beside another suite. Not part of `npx vitest run` (vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ["load/**/*.load.ts"],
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
