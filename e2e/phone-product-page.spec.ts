import type { Locator, Page } from "@playwright/test";
import { expect, test, viewports } from "./fixtures";
import { openHydrated } from "./shop-helpers";

// Issue 19 item 2: on a phone (375x740) the first screen of a product page shows what the product is, what it
// costs, whether it is there and its picture; the add button is always within reach (a bar at the bottom).
// Sample products: 223 high chair (-15%, colours, one size); 24 stroller (-15%); 184 romper (white x 2 · xl 28,
// blue xxl 0).

const main = (page: Page) => page.locator("main");
const firstScreen = viewports.phone.height;

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box`);
  return box;
}

/** Wholly inside the first screen of the page, scrolled to the top. */
async function expectOnFirstScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = await boxOf(locator);
  expect(box.y, `${locator.toString()} starts on the first screen`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${locator.toString()} ends on the first screen`).toBeLessThanOrEqual(firstScreen);
}

const cases = [
  {
    locale: "it",
    path: "/product/223",
    name: "Seggiolone Chicco Polly Magic Relax",
    price: "144,42 €",
    was: "169,90 €",
    inStock: "Disponibile",
    add: "Aggiungi Seggiolone Chicco Polly Magic Relax al carrello",
    added: "Aggiunto al carrello",
    inCart: "Nel tuo carrello: 1",
    thumbs: "Miniature",
  },
  {
    locale: "en",
    path: "/en/product/24",
    name: "Chicco Goody Xplus lightweight stroller",
    price: "€280.42",
    was: "€329.90",
    inStock: "In stock",
    add: "Add Chicco Goody Xplus lightweight stroller to your cart",
    added: "Added to cart",
    inCart: "In your cart: 1",
    thumbs: "Thumbnails",
  },
] as const;

for (const shown of cases) {
  test(`${shown.locale}: the phone's first screen shows name, price, availability and picture; the bar at the bottom adds @phone-only`, async ({
    page,
    expectNoAxeViolations,
  }) => {
    await openHydrated(page, shown.path);
    await expectOnFirstScreen(page.getByRole("heading", { level: 1, name: shown.name }));
    await expectOnFirstScreen(main(page).getByText(shown.price).first());
    await expectOnFirstScreen(main(page).locator("s").filter({ hasText: shown.was }).first());
    await expectOnFirstScreen(main(page).getByText(shown.inStock, { exact: true }));
    const picture = main(page)
      .getByRole("group", { name: new RegExp(shown.name) })
      .locator("img")
      .first();
    await expect(picture).toBeVisible();
    expect((await boxOf(picture)).y).toBeLessThan(firstScreen - 100);
    await page.screenshot({ path: `/tmp/e-shot/journey-phone-${shown.locale}.png` });

    // The thumbnails scroll in one row.
    const thumbnails = main(page).getByRole("list", { name: shown.thumbs }).getByRole("listitem");
    const tops = await thumbnails.evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThan(1);
    expect(new Set(tops).size).toBe(1);

    // The page's own add button is further down: the bar repeats it, with the price.
    const bar = page.locator("[data-sticky-add-bar]");
    const barAdd = bar.getByRole("button", { name: shown.add });
    await expectOnFirstScreen(barAdd);
    await expect(bar.getByText(shown.price)).toBeVisible();
    await expectNoAxeViolations(page);
    await barAdd.click();
    await expect(page.locator("[data-toast-kind] p").filter({ hasText: shown.added })).toBeVisible();
    await expect(main(page).getByText(shown.inCart)).toBeVisible();

    // Once the page's add button is on screen the bar steps away; the page ends above it.
    await page
      .locator("#product-add-form")
      .getByRole("button", { name: shown.locale === "it" ? "Aggiungi al carrello" : "Add to cart", exact: true })
      .scrollIntoViewIfNeeded();
    await expect(barAdd).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(barAdd).toBeVisible();
    const lastLink = page.locator("footer").getByRole("link").last();
    expect((await boxOf(lastLink)).y + (await boxOf(lastLink)).height).toBeLessThanOrEqual((await boxOf(bar)).y);
  });
}

test("the bar adds the size chosen on the page; a sold-out size turns it into a link to the choice @phone-only", async ({
  page,
  expectNoAxeViolations,
}) => {
  await openHydrated(page, "/product/184");
  await main(page)
    .getByRole("group", { name: /^Taglia/ })
    .getByRole("link", { name: /^XL\b/ })
    .click();
  await expect(page).toHaveURL(/\?colour=white&size=xl$/);
  await page.evaluate(() => window.scrollTo(0, 0));
  const bar = page.locator("[data-sticky-add-bar]");
  await bar.getByRole("button", { name: "Aggiungi Pagliaccetto estivo in mussola al carrello" }).click();
  await expect(main(page).getByText("Nel tuo carrello: 1")).toBeVisible();

  await main(page)
    .getByRole("group", { name: /^Colore/ })
    .getByRole("link", { name: /Blu/ })
    .click();
  await main(page)
    .getByRole("group", { name: /^Taglia/ })
    .getByRole("link", { name: /^XXL\b/ })
    .click();
  await expect(page).toHaveURL(/\?colour=blue&size=xxl$/);
  await page.evaluate(() => window.scrollTo(0, 0));
  const choose = bar.getByRole("link", { name: "Scegli" });
  await expect(choose).toBeVisible();
  await expectNoAxeViolations(page);
  await choose.click();
  await expect(page).toHaveURL(/#product-choice$/);
  await expect(main(page).getByRole("group", { name: /^Taglia/ })).toBeInViewport();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // axe needs scripts in the page: the same page is checked with JavaScript above.
  test("the bar's button posts the page's own form: the chosen size is added @phone-only", async ({ page }) => {
    await page.goto("/product/184?colour=white&size=xl");
    await page.locator("[data-sticky-add-bar]").getByRole("button", { name: "Aggiungi Pagliaccetto estivo in mussola al carrello" }).click();
    await expect(page).toHaveURL(/\/product\/184\?colour=white&size=xl$/);
    await expect(page.locator("[data-toast-kind] p").filter({ hasText: "Aggiunto al carrello" })).toBeVisible();
    await expect(main(page).getByText("Nel tuo carrello: 1")).toBeVisible();
  });
});

test("the quick view on a phone: name, price, stock and the add button without scrolling the dialog @phone-only", async ({
  page,
  expectNoAxeViolations,
}) => {
  await openHydrated(page, "/en/shop?search=muslin+romper");
  await main(page).getByRole("button", { name: "Quick view of Summer muslin romper" }).click();
  const dialog = page.getByRole("dialog", { name: "Summer muslin romper" });
  await expect(dialog.getByRole("button", { name: "Add to cart" })).toBeVisible();
  expect(await dialog.evaluate((element) => element.scrollTop)).toBe(0);
  for (const part of [
    dialog.getByRole("heading", { name: "Summer muslin romper" }),
    dialog.getByText("€14.90").first(),
    dialog.getByText("In stock: 2"),
    dialog.getByRole("button", { name: "Add to cart" }),
  ]) {
    await expectOnFirstScreen(part);
  }
  await page.screenshot({ path: "/tmp/e-shot/journey-phone-quick-view.png" });
  await expectNoAxeViolations(page);
});

test("the large layout keeps the picture beside the name and no bar @desktop-only", async ({ page }) => {
  await openHydrated(page, "/product/223");
  const heading = await boxOf(page.getByRole("heading", { level: 1 }));
  const gallery = await boxOf(main(page).getByRole("group", { name: /^Immagini di/ }));
  expect(heading.x).toBeGreaterThan(gallery.x + gallery.width);
  expect(heading.y).toBeLessThan(gallery.y + 100);
  await expect(page.locator("[data-sticky-add-bar]")).toBeHidden();
  await expect(main(page).getByText("Disponibile", { exact: true })).toBeHidden();
  await page.screenshot({ path: "/tmp/e-shot/journey-desktop-223.png" });
});
