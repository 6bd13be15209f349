import fs from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Unit and integration tests (Playwright journeys in e2e/ have their own runner).
 * Project "pglite": every test, databases on embedded PGlite.
 * Project "postgres" (only when TEST_DATABASE_URL is set): the tests that open a database
 * again, on real PostgreSQL. `#app/*`, `#common/*`, `#server/*`, `#tests/*` resolve through package.json "imports".
 */
const testFiles = ["server/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}", "common/**/*.test.ts", "tests/**/*.test.ts", "config/**/*.test.ts"];

/** A test opens a database through tests/db.ts (directly or through another #tests/ helper; peers and fixtures open none). */
function opensDatabase(file: string) {
  return /createTestDb|#tests\/(?!peers\/|fixtures\/)|tests\/db|from "\.\.?\/(db|in-process-shop)"/.test(fs.readFileSync(file, "utf8"));
}

/** Per project: it migrates that project's template database (see tests/db.global-setup.ts). */
const globalSetup = ["tests/db.global-setup.ts"];

const databaseTestFiles = fs.globSync(testFiles).filter(opensDatabase);

/**
 * The security sweeps walk every route through the whole app to test its HTTP edge, not the database: they
 * run once, on PostgreSQL when the run has it (`npm test` says so to its PGlite step), else on PGlite.
 */
const securitySweeps = databaseTestFiles.filter((file) => file.startsWith("tests/security/"));
const sweepsOnPostgres = Boolean(process.env.TEST_DATABASE_URL) || process.env.SECURITY_SWEEPS_ON_POSTGRES === "true";

export default defineConfig({
  test: {
    setupFiles: ["tests/setup.ts"],
    // Vitest's default in a run is one worker fewer than the cores: on CI's 2 cores that is one, and the
    // suite took twice as long as it needs to. Each test opens its own database, so two files at once is safe.
    maxWorkers: 2,
    // Test files share their worker's modules: with a fresh module graph per file, importing the server took a
    // quarter of the run, and each file loaded PGlite's template again. Measured on 2 cores: PGlite project
    // 491 -> 126 s, PostgreSQL 405 -> 264 s (docs/decisions/0079-test-run-time.md). Files must leave no state
    // behind: fake timers restored, no module mocks; tests/setup.ts runs before each file.
    isolate: false,
    testTimeout: 15_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: "pglite", include: testFiles, exclude: [...configDefaults.exclude, ...(sweepsOnPostgres ? securitySweeps : [])], globalSetup },
      },
      ...(process.env.TEST_DATABASE_URL ? [{ extends: true, test: { name: "postgres", include: databaseTestFiles, globalSetup } }] : []),
    ],
  },
});
