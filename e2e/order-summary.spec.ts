import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { localizedHref } from "../common/locale";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";

// Issue 38, what a customer sees. Products of the sample catalogue (server/db/sample-catalogue.ts):
//  68 Termometro digitale a infrarossi senza contatto: 39,90 € at 40% off (23,94 €) until February 2027,
//     stock 13, the shop's own rating 5 (no order here takes its stock).

const thermometer = 68;

const texts = {
  it: {
    subtotal: "39,90 €",
    offers: "−15,96 €",
    total: "23,94 €",
    reviews: "Recensioni dei clienti",
    shopRating: "Valutazione del negozio",
    shopRatingValue: "Valutazione del negozio: 5 su 5",
  },
  en: {
    subtotal: "€39.90",
    offers: "−€15.96",
    total: "€23.94",
    reviews: "Customer reviews",
    shopRating: "Shop's rating",
    shopRatingValue: "Shop's rating: 5 out of 5",
  },
} as const;

/** An amount as a row shows it, in cents: "−15,96 €" and "−€15.96" -> -1596; words ("Gratis", "Da scegliere") -> 0. */
function centsOf(text: string): number {
  const digits = text.replace(/[^0-9]/g, "");
  if (digits === "") return 0;
  return (text.trim().startsWith("−") ? -1 : 1) * Number(digits);
}

/** The summary's rows above its total (`<prefix>-<kind>`), and the total, as cents. */
async function summaryAmounts(page: Page, prefix: "cart" | "summary") {
  const rows = page.locator(`dd[data-testid^="${prefix}-"]:not([data-testid="${prefix}-total"])`);
  const amounts = (await rows.allTextContents()).map(centsOf);
  const total = centsOf((await page.getByTestId(`${prefix}-total`).textContent()) ?? "");
  return { amounts, total };
}

/** Nothing fixed on screen (the chat and back-to-top buttons) lies over any corner or the middle of `target`. */
async function expectUncovered(target: Locator) {
  await expect(target).toBeInViewport({ ratio: 1 });
  const covered = await target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const points = [
      [box.left + 1, box.top + 1],
      [box.right - 1, box.top + 1],
      [box.left + 1, box.bottom - 1],
      [box.right - 1, box.bottom - 1],
      [(box.left + box.right) / 2, (box.top + box.bottom) / 2],
    ] as const;
    return points.flatMap(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit && (hit === element || element.contains(hit)) ? [] : [hit?.outerHTML.slice(0, 80) ?? "nothing"];
    });
  });
  expect(covered).toEqual([]);
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];
  const href = (path: string) => localizedHref(path, locale);

  // Desktop only: the phone's cart and checkout journeys show the same summary.
  test(
    `a product on offer: the cart and the checkout list the list price, the offer and a total that adds up (${locale})`,
    { tag: "@desktop-only" },
    async ({ page, expectNoAxeViolations }) => {
      await addToCart(page, variantIdOf(thermometer));

      await open(page, href("/cart"));
      await expect(page.getByTestId("cart-subtotal")).toHaveText(t.subtotal);
      await expect(page.getByTestId("cart-offers")).toHaveText(t.offers);
      await expect(page.getByTestId("cart-total")).toHaveText(t.total);
      const cart = await summaryAmounts(page, "cart");
      expect(cart.amounts.reduce((sum, cents) => sum + cents, 0)).toBe(cart.total);
      // The first screen shows the total, and the floating chat button, in its corner, does not cover it.
      await expectUncovered(page.getByTestId("cart-total"));
      await page.screenshot({ path: `test-results/e2e/order-summary/cart-${locale}-${test.info().project.name}.png` });
      await expectNoAxeViolations(page);

      await open(page, href("/checkout"));
      const summary = page.getByRole("region", { name: locale === "it" ? "Riepilogo dell'ordine" : "Order summary" });
      await expect(summary.getByTestId("summary-subtotal")).toHaveText(t.subtotal);
      await expect(summary.getByTestId("summary-offers")).toHaveText(t.offers);
      await expect(summary.getByTestId("summary-total")).toHaveText(t.total);
      const checkout = await summaryAmounts(page, "summary");
      expect(checkout.amounts.reduce((sum, cents) => sum + cents, 0)).toBe(checkout.total);
      expect(checkout.total).toBe(2394);
      await summary.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/e2e/order-summary/checkout-${locale}-${test.info().project.name}.png` });
      await expectNoAxeViolations(page);
    },
  );

  // Desktop only: the product page's parts on the phone are checked in phone-product-page.spec.ts.
  test(`the product page keeps the shop's own rating apart from the customers' reviews (${locale})`, { tag: "@desktop-only" }, async ({ page }) => {
    await open(page, href(`/product/${thermometer}`));
    const reviews = page.getByRole("region", { name: t.reviews });
    await expect(reviews).toBeVisible();
    // The section may explain the shop's rating in words; it shows no stars of the shop's.
    await expect(reviews.getByTestId("shop-rating")).toHaveCount(0);
    await expect(reviews).not.toContainText(t.shopRatingValue);
    // Under the name and the price only the customers' average may show stars; the shop's sits with the code and the brand.
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading.locator("xpath=../..")).not.toContainText(t.shopRating);
    const rating = page.getByTestId("shop-rating");
    await expect(rating).toBeVisible();
    await expect(page.locator("dt", { hasText: t.shopRating })).toBeVisible();
  });
}

test.describe("the back office", () => {
  test.use({ signedInAs: "backOffice" });

  for (const locale of ["it", "en"] as const) {
    // Desktop only: the staff's back office; its small-screen check is in admin-catalogue.spec.ts.
    test(
      `has a plain footer of its own: no newsletter sign-up, no storefront links (${locale})`,
      { tag: "@desktop-only" },
      async ({ page, expectNoAxeViolations }) => {
        await open(page, localizedHref("/admin", locale));
        const footer = page.getByRole("contentinfo");
        await expect(footer).toHaveCount(1);
        await expect(page.getByTestId("back-office-footer")).toContainText(locale === "it" ? "P. IVA" : "VAT no.");
        await expect(page.getByRole("textbox", { name: locale === "it" ? "Il tuo indirizzo e-mail" : "Your e-mail address" })).toHaveCount(0);
        await expect(footer.getByRole("link")).toHaveCount(0);
        await footer.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-results/e2e/order-summary/back-office-${locale}-${test.info().project.name}.png` });
        await expectNoAxeViolations(page);
      },
    );
  }
});
