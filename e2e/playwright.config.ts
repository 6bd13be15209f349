import path from "node:path";
import { defineConfig } from "@playwright/test";
import { viewports } from "./fixtures";

/**
 * Journeys in Debian's Chromium (never a downloaded browser) against the built shop, which
 * e2e/server.ts starts. Run through `npm run test:e2e` (scripts/test-e2e.mjs).
 */
const isCi = Boolean(process.env.CI);
const resultsFolder = path.resolve(import.meta.dirname, "../test-results/e2e");

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: path.join(resultsFolder, "artifacts"),
  globalSetup: "./server.ts",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  forbidOnly: isCi,
  retries: isCi ? 1 : 0,
  workers: 2,
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.E2E_JSON_REPORT ?? path.join(resultsFolder, "report.json") }],
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    locale: "it-IT",
    timezoneId: "Europe/Rome",
    // Recording a trace for every test costs CPU the 2-core CI machine lacks: CI records only the retry of a failure.
    trace: isCi ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "desktop", use: { viewport: viewports.desktop }, grepInvert: /@phone-only/ },
    {
      name: "phone",
      use: { viewport: viewports.phone, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
      // Every journey on the phone too (docs/decisions/0020-e2e-time.md); @desktop-only says why in its test.
      grepInvert: /@desktop-only/,
    },
  ],
});
