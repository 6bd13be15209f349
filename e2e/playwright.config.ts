import path from "node:path";
import { defineConfig } from "@playwright/test";
import { journeyBrowserArgs, journeyBrowserPath } from "./browser";
import { viewports } from "./fixtures";

/**
 * Journeys in Debian's Chromium headless shell (e2e/browser.ts; never a downloaded browser) against the
 * built shop, which e2e/server.ts starts. Run through `npm run test:e2e` (scripts/test-e2e.mjs).
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
  reporter: [["list"], ["json", { outputFile: process.env.E2E_JSON_REPORT ?? path.join(resultsFolder, "report.json") }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    locale: "it-IT",
    timezoneId: "Europe/Rome",
    // Recording a trace for every test costs CPU the 2-core CI machine lacks: CI records only the retry of a failure.
    trace: isCi ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: journeyBrowserPath, args: journeyBrowserArgs },
  },
  projects: [
    { name: "desktop", use: { viewport: viewports.desktop }, grepInvert: /@phone-only/ },
    {
      name: "phone",
      // Device scale 1: the journeys check what a person can read and do, and at 2 Chromium paints four
      // times the pixels on CI's two cores (docs/decisions/0050-e2e-on-the-phone.md).
      use: { viewport: viewports.phone, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
      // On the phone what the screen decides, in Italian: not the English copies of a journey, not the
      // server's refusals (@server-rule), not what only the staff or the mail see; @desktop-only says why
      // in its test. The smoke and back-office small-screen journeys check the English phone pages.
      // The long journeys through several people (staff, mail, a second customer) run on the desktop only:
      // the customer's screens they pass through (product page, cart, checkout, account, a list's cards) have
      // their own phone journeys, and together they took 360 of the phone's 1,210 s (decision 0079); the
      // withdrawal journeys too (the form's fields are checked on the phone by shop-details.spec.ts). Nor the
      // staff's SDI and first-visit pages, nor product-page.spec.ts: the phone's product page has its own
      // (phone-product-page.spec.ts), and the variant choice is the same component (decision 0107).
      testIgnore: [
        "owner-setup.spec.ts",
        "after-sales.spec.ts",
        "withdrawal-guest.spec.ts",
        "product-page.spec.ts",
        "sdi.spec.ts",
        "delivery-promise.spec.ts",
        "error-pages.spec.ts",
        "launch-checklist.spec.ts",
        "newsletter.spec.ts",
        "carrier-tracking.spec.ts",
        "coupons.spec.ts",
        "gift-lists.spec.ts",
        "payment-methods.spec.ts",
        "reviews.spec.ts",
        "stock-alerts.spec.ts",
      ],
      grepInvert: /@desktop-only|@server-rule|\(en\)|\ben: /,
    },
  ],
});
