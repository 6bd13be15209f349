import fs from "node:fs";
import { defineConfig } from "vitest/config";

/**
 * Unit and integration tests (Playwright journeys in e2e/ have their own runner).
 * Project "pglite": every test, databases on embedded PGlite.
 * Project "postgres" (only when TEST_DATABASE_URL is set): the tests that open a database
 * again, on real PostgreSQL. `#app/*`, `#common/*`, `#server/*`, `#tests/*` resolve through package.json "imports".
 */
const testFiles = ["server/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}", "common/**/*.test.ts", "tests/**/*.test.ts", "config/**/*.test.ts"];

/** A test opens a database through tests/db.ts (directly or through another #tests/ helper; peers and fixtures open none). */
function opensDatabase(file: string) {
  return /createTestDb|#tests\/(?!peers\/|fixtures\/)|tests\/db/.test(fs.readFileSync(file, "utf8"));
}

/** Per project: it migrates that project's template database (see tests/db.global-setup.ts). */
const globalSetup = ["tests/db.global-setup.ts"];

const databaseTestFiles = fs.globSync(testFiles).filter(opensDatabase);

export default defineConfig({
  test: {
    setupFiles: ["tests/setup.ts"],
    // Vitest's default in a run is one worker fewer than the cores: on CI's 2 cores that is one, and the
    // suite took twice as long as it needs to. Each test opens its own database, so two files at once is safe.
    maxWorkers: 2,
    testTimeout: 15_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "pglite", include: testFiles, globalSetup } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true, test: { name: "postgres", include: databaseTestFiles, globalSetup } }]
        : []),
    ],
  },
});
