/**
 * What every journey imports instead of @playwright/test:
 *   import { expect, test } from "./fixtures";
 *   test("...", async ({ page, expectNoAxeViolations }) => { ...; await expectNoAxeViolations(page); });
 *
 * - `expectNoAxeViolations(page)`: axe-core on the page as it is now (WCAG 2.2 A/AA rules).
 * - Any browser console error or uncaught page error fails the test (hydration mismatches, 404 assets);
 *   a test that expects one lists it: `test.use({ allowedBrowserErrors: [/pattern/] })`.
 * - Two projects: desktop (1280x800) runs every spec; phone (375x740) runs the shell's specs and the tests
 *   tagged `@phone` (see playwright.config.ts). Tag a test `@desktop-only` or `@phone-only` to keep it to one.
 */
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 740 },
} as const;

const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const pagesWithoutViolations = new Set<string>();

type Fixtures = {
  expectNoAxeViolations: (page: Page) => Promise<void>;
  allowedBrowserErrors: RegExp[];
  failOnBrowserErrors: void;
};

export const test = base.extend<Fixtures>({
  expectNoAxeViolations: async ({}, use, testInfo) => {
    await use(async (page) => {
      // A page already checked in this worker, on this viewport, with the same address and the same number
      // of elements is the same page in the same state: skip it (axe costs 5-15 s a page on 2 cores).
      // A page still loading (aria-busy) or fading in is not the page a person reads: wait until it settles.
      await page.waitForFunction(
        () => !document.querySelector('[aria-busy="true"]') && document.getAnimations().every((animation) => animation.playState !== "running"),
        null,
        { timeout: 10_000 },
      );
      const key = `${testInfo.project.name} ${page.url()} ${await page.evaluate(() => document.getElementsByTagName("*").length)}`;
      if (pagesWithoutViolations.has(key)) return;
      // Legacy mode runs axe inside the page; the default mode opens a blank page per check to merge the frames'
      // results, which doubles the cost (measured: 2.0-2.9 s instead of 4.6-5.4 s on the home page). The shop
      // has no cross-origin frames, the only thing legacy mode cannot see into.
      const { violations } = await new AxeBuilder({ page }).withTags(axeTags).setLegacyMode(true).analyze();
      if (violations.length > 0) {
        await testInfo.attach(`axe ${page.url()}`, { body: JSON.stringify(violations, null, 2), contentType: "application/json" });
      }
      const found = violations.map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
      expect(found, `accessibility violations on ${page.url()}`).toEqual([]);
      pagesWithoutViolations.add(key);
    });
  },

  allowedBrowserErrors: [[], { option: true }],

  failOnBrowserErrors: [
    async ({ page, allowedBrowserErrors }, use) => {
      const errors: string[] = [];
      const record = (message: string) => {
        if (!allowedBrowserErrors.some((pattern) => pattern.test(message))) errors.push(message);
      };
      page.on("console", (message) => {
        if (message.type() === "error") record(`console.error on ${page.url()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => record(`uncaught ${error.name} on ${page.url()}: ${error.message}`));
      await use();
      expect(errors, "errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
