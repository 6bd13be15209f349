/**
 * Debian's Chromium as the suites and benches launch it. The full browser (`chromium`) for Lighthouse and the
 * benches, whose figures are what a visitor's Chrome does; the journeys use its headless shell
 * (e2e/browser.ts). CHROMIUM_PATH picks another build for both.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Every launch: no sandbox (CI runs as root), no GPU, and none of the browser's own traffic or first-run pages. */
export const quietChromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The full browser, headless. */
export const chromiumFlags = ["--headless=new", ...quietChromiumFlags];
