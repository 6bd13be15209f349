import { expect, test } from "./fixtures";

test("the home page is in Italian, has a heading and passes axe", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/");

  await expect(page.locator("html")).toHaveAttribute("lang", "it");
  await expect(page.locator("h1").first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the English home page is in English and passes axe", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/en");

  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("h1").first()).toBeVisible();
  await expectNoAxeViolations(page);
});
