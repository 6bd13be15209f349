import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";

// Issue 4, wishlist and compare. Sample products (server/db/sample-catalogue.ts):
// 47 stroller umbrella and 66: simple, in stock (added to the cart from the list); 97: simple, out of stock;
// 33: "Chicco edition" (on request); 49: sizes to choose.

type Texts = {
  prefix: string;
  wishlistAdded: string;
  wishlistRemoved: string;
  wishlistCleared: string;
  compareAdded: string;
  compareRemoved: string;
  compareFull: RegExp;
  addToWishlist: RegExp;
  addToCompare: RegExp;
  removeFromWishlist: RegExp;
  removeFromCompare: RegExp;
  wishlistCount: (count: number) => string;
  compareCount: (count: number) => string;
  wishlistEmpty: string;
  wishlistItems: string;
  materialRow: string;
};

const texts: Record<"it" | "en", Texts> = {
  it: {
    prefix: "",
    wishlistAdded: "Aggiunto alla lista dei desideri",
    wishlistRemoved: "Rimosso dalla lista dei desideri",
    wishlistCleared: "Rimossi tutti dalla lista dei desideri",
    compareAdded: "Aggiunto al confronto",
    compareRemoved: "Rimosso dal confronto",
    compareFull: /Puoi confrontare al massimo 4 prodotti/,
    addToWishlist: /^Aggiungi .+ alla lista dei desideri$/,
    addToCompare: /^Aggiungi .+ al confronto$/,
    removeFromWishlist: /^Rimuovi .+ dalla lista dei desideri$/,
    removeFromCompare: /^Rimuovi .+ dal confronto$/,
    wishlistCount: (count) => `Lista desideri, ${count} ${count === 1 ? "articolo" : "articoli"}`,
    compareCount: (count) => `Confronta prodotti, ${count} ${count === 1 ? "articolo" : "articoli"}`,
    wishlistEmpty: "La tua lista dei desideri è vuota.",
    wishlistItems: "Prodotti nella lista dei desideri",
    materialRow: "Materiale",
  },
  en: {
    prefix: "/en",
    wishlistAdded: "Added To Wishlist",
    wishlistRemoved: "Removed From Wishlist",
    wishlistCleared: "Removed All From Wishlist",
    compareAdded: "Added To Compare",
    compareRemoved: "Removed From Compare",
    compareFull: /You can compare up to 4 products/,
    addToWishlist: /^Add .+ to wishlist$/,
    addToCompare: /^Add .+ to compare$/,
    removeFromWishlist: /^Remove .+ from wishlist$/,
    removeFromCompare: /^Remove .+ from compare$/,
    wishlistCount: (count) => `Wishlist, ${count} ${count === 1 ? "item" : "items"}`,
    compareCount: (count) => `Compare products, ${count} ${count === 1 ? "item" : "items"}`,
    wishlistEmpty: "Your wishlist is empty.",
    wishlistItems: "Products in your wishlist",
    materialRow: "Material",
  },
};

// Long journeys with axe on full pages: on a busy 2-core machine they need more than 30 s.
test.slow();

const main = (page: Page) => page.locator("main");

/** A toast whose text is exactly `message` (after the visually hidden kind, e.g. "Successo: "). */
function toast(page: Page, message: string | RegExp) {
  const pattern = typeof message === "string" ? new RegExp(`(^|: )${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : message;
  return page.locator("[data-toast-kind] p").filter({ hasText: pattern });
}

/** Puts products in a list the way a visitor without JavaScript does: a form post, kept in the cookie. */
async function saveWithoutJavaScript(page: Page, list: "wishlist" | "compare", productIds: number[]) {
  for (const productId of productIds) {
    const response = await page.request.post(`/${list}`, {
      form: { intent: "add", productId: String(productId) },
      // Page actions accept same-origin posts only, as a browser's form post is.
      headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    });
    expect(response.ok()).toBe(true);
  }
}

/** The list forms answer clicks through JavaScript once the page is hydrated. */
async function waitForEnhancedForms(page: Page) {
  await expect(main(page).locator("form[data-enhanced]").first()).toBeAttached();
}

/** The header's wishlist and compare icons show on screens 640px and wider. */
function headerShowsCounts(testInfo: TestInfo) {
  return testInfo.project.name === "desktop";
}

for (const locale of ["it", "en"] as const) {
  const text = texts[locale];

  test(`${locale}: wishlist toasts, buttons disabled once added, header count, reload, remove and clear all`, async ({
    page,
    expectNoAxeViolations,
  }, testInfo) => {
    await saveWithoutJavaScript(page, "compare", [47, 49]);
    await page.goto(`${text.prefix}/compare`);
    await waitForEnhancedForms(page);

    const addButtons = main(page).getByRole("button", { name: text.addToWishlist });
    await expect(addButtons).toHaveCount(2);
    await addButtons.first().click();
    await expect(toast(page, text.wishlistAdded)).toBeVisible();
    await expect(addButtons.first()).toBeDisabled();
    await expect(addButtons.first()).toBeFocused();
    await expect(addButtons.nth(1)).toBeEnabled();
    await addButtons.nth(1).click();
    await expect(addButtons.nth(1)).toBeDisabled();
    // Adding again does nothing: the id is already there.
    await addButtons.first().click({ force: true });
    if (headerShowsCounts(testInfo)) await expect(page.getByRole("link", { name: text.wishlistCount(2) })).toBeVisible();

    await page.reload();
    await waitForEnhancedForms(page);
    await expect(addButtons.first()).toBeDisabled();
    await expect(addButtons.nth(1)).toBeDisabled();
    await expectNoAxeViolations(page);

    await page.goto(`${text.prefix}/wishlist`);
    const items = main(page).getByRole("list", { name: text.wishlistItems }).getByRole("listitem");
    await expect(items).toHaveCount(2);
    await waitForEnhancedForms(page);
    await expectNoAxeViolations(page);

    await main(page).getByRole("button", { name: text.removeFromWishlist }).first().click();
    await expect(toast(page, text.wishlistRemoved)).toBeVisible();
    await expect(items).toHaveCount(1);
    if (headerShowsCounts(testInfo)) await expect(page.getByRole("link", { name: text.wishlistCount(1) })).toBeVisible();

    await main(page)
      .getByRole("button", { name: locale === "it" ? "Svuota la lista dei desideri" : "Clear wishlist" })
      .click();
    await expect(toast(page, text.wishlistCleared)).toBeVisible();
    await expect(main(page).getByText(text.wishlistEmpty)).toBeVisible();
    if (headerShowsCounts(testInfo)) await expect(page.getByRole("link", { name: text.wishlistCount(0) })).toBeVisible();

    await page.reload();
    await expect(main(page).getByText(text.wishlistEmpty)).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test(`${locale}: compare toasts, at most 4 products, the side-by-side table and remove`, async ({ page, expectNoAxeViolations }, testInfo) => {
    await saveWithoutJavaScript(page, "wishlist", [47, 97, 33, 49, 66]);
    await page.goto(`${text.prefix}/wishlist`);
    await waitForEnhancedForms(page);

    const compareButtons = main(page).getByRole("button", { name: text.addToCompare });
    await expect(compareButtons).toHaveCount(5);
    for (const index of [0, 1, 2, 3]) {
      await compareButtons.nth(index).click();
      await expect(compareButtons.nth(index)).toBeDisabled();
    }
    await expect(toast(page, text.compareAdded)).toBeVisible();
    await compareButtons.nth(4).click();
    await expect(toast(page, text.compareFull)).toBeVisible();
    await expect(compareButtons.nth(4)).toBeEnabled();
    if (headerShowsCounts(testInfo)) await expect(page.getByRole("link", { name: text.compareCount(4) })).toBeVisible();

    // The simple product in stock goes to the cart from the list; the others say why not.
    const rows = main(page).getByRole("listitem");
    await expect(rows.nth(0).getByRole("button", { name: locale === "it" ? "Aggiungi al carrello" : "Add to cart" })).toBeEnabled();
    await expect(rows.nth(1).getByRole("button", { name: locale === "it" ? "NON DISPONIBILE" : "NOT AVAILABLE" })).toBeDisabled();
    await expect(rows.nth(3).getByRole("link", { name: locale === "it" ? /^Scegli le opzioni/ : /^Select options/ })).toHaveAttribute(
      "href",
      `${text.prefix}/product/49`,
    );

    await page.goto(`${text.prefix}/compare`);
    const table = main(page).getByRole("table");
    await expect(table.getByRole("columnheader")).toHaveCount(4);
    await expect(table.getByRole("rowheader", { name: text.materialRow })).toBeVisible();
    await expect(table.locator("th[scope=row]")).toHaveCount(13);
    await expect(table.locator("th[scope=col]")).toHaveCount(4);
    await waitForEnhancedForms(page);
    await expectNoAxeViolations(page);

    // On a phone the products scroll sideways while the row headers stay put.
    const region = main(page).getByRole("region");
    const header = table.getByRole("rowheader", { name: text.materialRow });
    const before = await header.boundingBox();
    await region.evaluate((element) => element.scrollBy({ left: 400 }));
    await expect.poll(async () => (await header.boundingBox())?.x).toBe(before?.x);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

    await main(page).getByRole("button", { name: text.removeFromCompare }).first().click();
    await expect(toast(page, text.compareRemoved)).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveCount(3);
    if (headerShowsCounts(testInfo)) await expect(page.getByRole("link", { name: text.compareCount(3) })).toBeVisible();
    await page.reload();
    await expect(main(page).getByRole("table").getByRole("columnheader")).toHaveCount(3);
  });
}

// Desktop only: the same buttons as the listing's, whose phone journeys run above.
test("the product page's wishlist and compare buttons add once, with their toasts", { tag: "@desktop-only" }, async ({ page }, testInfo) => {
  await page.goto("/product/47");
  await expect(page.locator("form[data-enhanced]").first()).toBeAttached();
  const wishlist = main(page).getByRole("button", { name: texts.it.addToWishlist }).first();
  const compare = main(page).getByRole("button", { name: texts.it.addToCompare }).first();

  await wishlist.click();
  await expect(toast(page, texts.it.wishlistAdded)).toBeVisible();
  await expect(wishlist).toBeDisabled();
  await compare.click();
  await expect(toast(page, texts.it.compareAdded)).toBeVisible();
  await expect(compare).toBeDisabled();
  if (headerShowsCounts(testInfo)) {
    await expect(page.getByRole("link", { name: texts.it.wishlistCount(1) })).toBeVisible();
    await expect(page.getByRole("link", { name: texts.it.compareCount(1) })).toBeVisible();
  }
});

test("corrupted browser storage is ignored: the lists start empty and work", { tag: "@server-rule" }, async ({ page }) => {
  await page.addInitScript(() => window.localStorage.setItem("bimbi:saved-items", "{not json"));
  await page.goto("/wishlist");
  await expect(main(page).getByText(texts.it.wishlistEmpty)).toBeVisible();

  await saveWithoutJavaScript(page, "compare", [66]);
  await page.goto("/compare");
  await waitForEnhancedForms(page);
  await main(page).getByRole("button", { name: texts.it.addToWishlist }).click();
  await expect(toast(page, texts.it.wishlistAdded)).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem("bimbi:saved-items") ?? "null"));
  expect(stored).toMatchObject({ wishlist: [66], compare: [66] });
});

test(
  "the cookie policy lists every cookie the shop sets, with its technical name",
  { tag: "@server-rule" },
  async ({ page, expectNoAxeViolations }) => {
    await saveWithoutJavaScript(page, "wishlist", [24]);
    // A post with a way back also leaves the toast for the next page in the flash cookie.
    await page.request.post("/compare", {
      form: { intent: "add", productId: "24", redirectTo: "/" },
      headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
      maxRedirects: 0,
    });
    await page.goto("/cookie-policy");
    const table = main(page).getByRole("table", { name: "Cookie tecnici usati dal sito" });
    const names = new Set([
      ...(await page.context().cookies()).map((cookie) => cookie.name),
      "cart",
      "cart_flash",
      "saved_items",
      "currency",
      "better-auth.session_token",
    ]);
    for (const name of names) await expect(table.getByRole("cell", { name, exact: true }), name).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

// axe is run on these pages by the journeys above: with JavaScript off in the page, axe itself can
// stall (its scheduling never resumes), so these journeys check behaviour only.
test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const locale of ["it", "en"] as const) {
    const text = texts[locale];

    test(`${locale}: the header counts come from the server, in the off-canvas menu on a phone`, async ({ page }, testInfo) => {
      await saveWithoutJavaScript(page, "wishlist", [24, 25]);
      await saveWithoutJavaScript(page, "compare", [66]);
      await page.goto(locale === "en" ? "/en" : "/");
      if (!headerShowsCounts(testInfo))
        await page
          .locator("summary")
          .filter({ hasText: locale === "en" ? "Open the menu" : "Apri il menu" })
          .click();
      await expect(page.getByRole("link", { name: text.wishlistCount(2), exact: true }).filter({ visible: true })).toBeVisible();
      await expect(page.getByRole("link", { name: text.compareCount(1), exact: true }).filter({ visible: true })).toBeVisible();
    });

    // Desktop only: the phone's no-JavaScript header counts run above; the forms are the same.
    test(`${locale}: the buttons are forms: add, remove and clear through the server, with toasts`, { tag: "@desktop-only" }, async ({ page }) => {
      await saveWithoutJavaScript(page, "compare", [47, 66]);
      await page.goto(`${text.prefix}/compare`);
      await expect(main(page).getByRole("table").getByRole("columnheader")).toHaveCount(2);

      await main(page).getByRole("button", { name: text.addToWishlist }).first().click();
      await expect(page).toHaveURL(new RegExp(`${text.prefix}/compare$`));
      await expect(toast(page, text.wishlistAdded)).toBeVisible();

      await main(page).getByRole("button", { name: text.removeFromCompare }).first().click();
      await expect(toast(page, text.compareRemoved)).toBeVisible();
      await expect(main(page).getByRole("table").getByRole("columnheader")).toHaveCount(1);

      await page.goto(`${text.prefix}/wishlist`);
      const items = main(page).getByRole("list", { name: text.wishlistItems }).getByRole("listitem");
      await expect(items).toHaveCount(1);
      await main(page).getByRole("button", { name: text.addToCompare }).click();
      await expect(toast(page, text.compareAdded)).toBeVisible();

      await main(page).getByRole("button", { name: text.removeFromWishlist }).click();
      await expect(toast(page, text.wishlistRemoved)).toBeVisible();
      await expect(main(page).getByText(text.wishlistEmpty)).toBeVisible();

      await saveWithoutJavaScript(page, "wishlist", [47, 66]);
      await page.reload();
      await expect(items).toHaveCount(2);
      await main(page)
        .getByRole("button", { name: locale === "it" ? "Svuota la lista dei desideri" : "Clear wishlist" })
        .click();
      await expect(toast(page, text.wishlistCleared)).toBeVisible();
      await expect(main(page).getByText(text.wishlistEmpty)).toBeVisible();
    });
  }
});
