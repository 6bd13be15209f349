/**
 * The browser the journeys run in: Debian's Chromium headless shell (package `chromium-headless-shell`), the
 * same engine as `/usr/bin/chromium` without the browser's own windows, and what Playwright itself runs for
 * headless tests. The full browser draws an address bar and preloads its suggestion list in a renderer of its
 * own per window: 35-40 % of a journey run's time (docs/decisions/0080-journeys-in-the-headless-shell.md).
 * CHROMIUM_PATH picks another Chromium (the full one gets `--headless=new`).
 */
import path from "node:path";
import { quietChromiumFlags } from "../scripts/lib/chromium.ts";

export const journeyBrowserPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

const isHeadlessShell = path.basename(journeyBrowserPath).includes("headless-shell");

export const journeyBrowserArgs = [
  ...(isHeadlessShell ? [] : ["--headless=new"]),
  ...quietChromiumFlags,
  // A journey's page lives seconds: V8's optimising compilers (Maglev, TurboFan) spend CPU on code that will
  // not run long enough to repay it. The interpreter and Sparkplug run the same JavaScript (decision 0080).
  "--js-flags=--no-opt --no-maglev",
];
