import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openHydrated as open } from "./shop-helpers";

// Issue 41 (docs/decisions/0101-product-specifications.md): car seats' and strollers' specifications as data,
// shown in a table on the product page, filtered in the listing (the child's height, age, ISOFIX, rotation),
// entered in the back office; and the clothing size guide. The sample seats: 120 (40-150 cm, ISOFIX, swivel),
// 121 (45-87, ISOFIX, swivel), 122 (40-105, ISOFIX, swivel), 123 (40-87), 124 (40-125, ISOFIX), 125 (100-150, ISOFIX).

const products = (page: Page) => page.getByRole("region", { name: /^(Prodotti|Products)$/ }).locator("article");
const resultCount = (page: Page) => page.locator('p[role="status"]').filter({ hasText: /^\d+ (prodott|product)/ });
const filters = (page: Page) => page.getByRole("form", { name: /^(Filtri|Filters)$/ });

async function openFilters(page: Page) {
  const toggle = page.locator("summary", { hasText: /^(Filtri|Filters)/ });
  if ((await toggle.isVisible()) && !(await toggle.evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open))) await toggle.click();
  await expect(filters(page)).toBeVisible();
}

test("it: the car seats are filtered by the child's height, ISOFIX and rotation, and the filters stay in the URL", async ({
  page,
  expectNoAxeViolations,
}) => {
  await open(page, "/sottocategoria/seggioliniauto");
  await expect(resultCount(page)).toHaveText("6 prodotti");
  await openFilters(page);
  const group = filters(page).getByRole("group", { name: "Seggiolini e passeggini" });
  await group.getByLabel("Altezza del bambino (cm)").fill("95");
  await group.getByRole("button", { name: "Applica" }).click();
  await expect(page).toHaveURL(/\/sottocategoria\/seggioliniauto\?height=95$/);
  // 40-150, 40-105 and 40-125 cm cover 95 cm; 45-87, 40-87 and 100-150 do not.
  await expect(resultCount(page)).toHaveText("3 prodotti");
  await expect(page.getByRole("list", { name: "Filtri attivi" }).getByRole("link", { name: /Altezza 95 cm/ })).toBeVisible();
  await expectNoAxeViolations(page);

  await openFilters(page);
  await group.getByRole("checkbox", { name: /^Girevole a 360°/ }).check();
  await expect(page).toHaveURL(/height=95&rotation=true$/);
  await expect(resultCount(page)).toHaveText("2 prodotti");
  await expect(products(page)).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath("listing-filters-it.png"), fullPage: false });

  // Each chosen filter is removed with its own link.
  await page
    .getByRole("list", { name: "Filtri attivi" })
    .getByRole("link", { name: /Altezza 95 cm/ })
    .click();
  await expect(page).toHaveURL(/\/sottocategoria\/seggioliniauto\?rotation=true$/);
  await expect(resultCount(page)).toHaveText("3 prodotti");
});

test("en: a car seat's page shows its specifications as a table, and in its structured data", async ({ page, expectNoAxeViolations }) => {
  await open(page, "/en/product/122");
  const table = page.getByRole("table", { name: "Specifications" });
  await expect(table.getByRole("row", { name: /Child's height \(i-Size, ECE R129\)/ })).toContainText("40–105 cm");
  await expect(table.getByRole("row", { name: /ISOFIX/ })).toContainText("Yes");
  await expect(table.getByRole("row", { name: /360° rotation/ })).toContainText("Yes");
  await expect(table.getByRole("row", { name: /Child's age/ })).toContainText("0–48 months");
  await expect(table.getByRole("row", { name: /Maximum child weight/ })).toContainText("18 kg");
  const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).join("\n");
  expect(jsonLd).toContain('{"@type":"PropertyValue","name":"Child\'s height (i-Size, ECE R129)","minValue":40,"maxValue":105,"unitCode":"CMT"}');
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("specs-en.png"), fullPage: false });
  await expectNoAxeViolations(page);
});

// Desktop only: a table the phone already shows in the car-seat journey above.
test("it: a stroller's page shows its weight and folded size", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
  await open(page, "/product/27");
  const table = page.getByRole("table", { name: "Caratteristiche" });
  await expect(table.getByRole("row", { name: /Peso del passeggino/ })).toContainText("7,2 kg");
  await expect(table.getByRole("row", { name: /Ingombro da chiuso/ })).toContainText("56 × 30 × 57 cm");
  await expect(table.getByRole("row", { name: /Compatibile con navicella/ })).toContainText("Sì");
  await table.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath("specs-it.png"), fullPage: false });
  await expectNoAxeViolations(page);
});

test("it: a clothing page leads to the size guide, which says the size for a child's height", async ({ page, expectNoAxeViolations }) => {
  await open(page, "/product/180");
  await page.getByRole("link", { name: "Guida alle taglie" }).click();
  await expect(page).toHaveURL(/\/guida-alle-taglie$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Guida alle taglie" })).toBeVisible();
  const table = page.getByRole("table", { name: "Taglie per età e altezza del bambino" });
  await expect(table.getByRole("columnheader")).toHaveText(["Taglia", "Età", "Altezza del bambino"]);
  await expect(table.getByRole("row", { name: /^56/ })).toContainText("0–1 mesi");
  await expect(table.getByRole("row", { name: /^56/ })).toContainText("50–56 cm");
  await expectNoAxeViolations(page);

  await page.getByLabel("Altezza del bambino (cm)").fill("70");
  await page.getByRole("button", { name: "Trova la taglia" }).click();
  await expect(page).toHaveURL(/\/guida-alle-taglie\?height=70$/);
  await expect(page.getByRole("region", { name: "Quale taglia per il tuo bambino?" }).getByRole("status")).toHaveText(
    "Per un bambino alto 70 cm: taglia 74 (6–9 mesi).",
  );
  await page.screenshot({ path: test.info().outputPath("size-guide-it.png"), fullPage: true });
  await expectNoAxeViolations(page);
});

test("en: the size guide refuses a height it cannot read, in English", async ({ page, expectNoAxeViolations }) => {
  await open(page, "/en/guida-alle-taglie?height=abc");
  await expect(page.getByRole("heading", { level: 1, name: "Size guide" })).toBeVisible();
  const finder = page.getByRole("region", { name: "Which size for your child?" });
  await expect(finder.getByRole("status")).toHaveText("Give a height in centimetres between 40 and 130.");
  await page.getByLabel("Child's height (cm)").fill("120");
  await page.getByRole("button", { name: "Find the size" }).click();
  await expect(finder.getByRole("status")).toHaveText("The guide runs from 50 to 116 cm: for a child 120 cm tall, ask us in the shop.");
  await page.screenshot({ path: test.info().outputPath("size-guide-en.png"), fullPage: true });
  await expectNoAxeViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // axe needs scripts in the page: the same pages are checked with JavaScript above.
  // Desktop only: the phone's listing filters without JavaScript are checked in catalogue-listing.spec.ts.
  test("it: the height and ISOFIX filters work as a plain form", { tag: "@desktop-only" }, async ({ page }) => {
    await page.goto("/categoria/sicurezza");
    await openFilters(page);
    const group = filters(page).getByRole("group", { name: "Seggiolini e passeggini" });
    await group.getByLabel("Altezza del bambino (cm)").fill("140");
    await group.getByRole("checkbox", { name: /^Con ISOFIX/ }).check();
    await filters(page).getByRole("button", { name: "Applica i filtri" }).click();
    // Without JavaScript the empty age field goes along too; the listing sends her on to the address without it.
    await expect(page).toHaveURL(/\/categoria\/sicurezza\?height=140&isofix=true$/);
    // 120 (40-150) and 125 (100-150), both with ISOFIX.
    await expect(resultCount(page)).toHaveText("2 prodotti");
  });
});

test.describe("the back office", () => {
  test.use({ signedInAs: "backOffice", allowedBrowserErrors: [/status of 400/] });
  // Two forms and the shop's page: longer than a customer's journey.
  test.describe.configure({ timeout: 90_000 });

  test(
    "it: staff enter a stroller's specifications; an impossible range is refused with its reason",
    { tag: "@desktop-only" },
    async ({ page, expectNoAxeViolations }) => {
      // Staff screens are desktop screens; the shop's pages they change have their own phone journeys above.
      await open(page, "/admin/prodotti/26");
      await page.getByRole("link", { name: "Caratteristiche (seggiolini e passeggini)" }).click();
      await expect(page).toHaveURL(/\/admin\/prodotti\/26\/caratteristiche$/, { timeout: 15_000 });
      await expect(page.getByRole("heading", { level: 1, name: /^Caratteristiche di / })).toBeVisible();
      await expect(page.getByLabel("Tipo di prodotto")).toHaveValue("stroller");
      await page.getByLabel("Età minima (mesi)").fill("30");
      await page.getByLabel("Età massima (mesi)").fill("12");
      await page.getByRole("button", { name: "Salva le caratteristiche" }).click();
      await expect(page.getByText("Il massimo non può essere inferiore al minimo.")).toBeVisible();
      await expect(page.getByLabel("Età massima (mesi)")).toHaveAttribute("aria-invalid", "true");
      await expectNoAxeViolations(page);

      await page.getByLabel("Età minima (mesi)").fill("6");
      await page.getByLabel("Età massima (mesi)").fill("36");
      await expect(page.getByLabel("Peso del passeggino (kg)")).toHaveValue("5,9");
      await page.getByLabel("Peso del passeggino (kg)").fill("6,1");
      await page.getByRole("button", { name: "Salva le caratteristiche" }).click();
      await expect(page.getByText("Caratteristiche salvate.")).toBeVisible();
      await page.screenshot({ path: test.info().outputPath("admin-specs-it.png"), fullPage: true });

      await open(page, "/product/26");
      const table = page.getByRole("table", { name: "Caratteristiche" });
      await expect(table.getByRole("row", { name: /Peso del passeggino/ })).toContainText("6,1 kg");
      await expect(table.getByRole("row", { name: /Età del bambino/ })).toContainText("6–36 mesi");
    },
  );
});
