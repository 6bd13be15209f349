import { expect, test } from "./fixtures";

// Decision 0031: a page's JavaScript is requested once the page has been painted, then hydrates it.
test("a product page shows before its JavaScript is requested, then becomes interactive", async ({ page }) => {
  await page.goto("/product/25");
  await page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });

  const timings = await page.evaluate(() => ({
    firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    scripts: performance
      .getEntriesByType("resource")
      .filter((entry) => /^\/assets\/.+\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => entry.startTime),
  }));
  expect(timings.firstPaint).not.toBeNull();
  expect(timings.scripts.length).toBeGreaterThan(0);
  expect(Math.min(...timings.scripts)).toBeGreaterThanOrEqual(timings.firstPaint!);
});
