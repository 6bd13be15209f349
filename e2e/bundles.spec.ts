import crypto from "node:crypto";
import { expect as baseExpect, test } from "./fixtures";
import { localizedHref } from "../common/locale";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";
import { checkoutLabels, placeGuestOrder } from "./checkout-steps";

// Issue 41, bundles (docs/decisions/0100-bundles.md). The sample trio 300 (server/db/sample-catalogue/bundles.ts):
// 899,00 € for the stroller 24 (280,42 € at 15% off), the carrycot 37 (449,00 €) and the car seat 121 (349,90 €),
// black or blue; the blue car seat has no stock, so the blue trio is not available. Each run buys one black trio
// (stock: stroller 46, carrycot 44, car seat 11; four runs).

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

const texts = {
  it: {
    name: "Trio Goody: passeggino, navicella e ovetto",
    inside: "Cosa contiene",
    parts: ["Passeggino leggero Chicco Goody Xplus", "Carrozzina Inglesina Aptica con navicella", "Ovetto Cybex Cloud T i-Size"],
    saved: /Risparmi\s+180,32\s€/,
    available: "Disponibile",
    unavailable: "Non disponibile",
    thanks: /Grazie! Ordine n. \d+ ricevuto/,
    partOf: "Parte di: Trio Goody: passeggino, navicella e ovetto",
  },
  en: {
    name: "Goody travel system: stroller, carrycot and car seat",
    inside: "What's inside",
    parts: ["Chicco Goody Xplus lightweight stroller", "Inglesina Aptica pram with carrycot", "Cybex Cloud T i-Size infant car seat"],
    saved: /You save\s+€180\.32/,
    available: "Available",
    unavailable: "Not available",
    thanks: /Thank you! Order no. \d+ received/,
    partOf: "Part of: Goody travel system: stroller, carrycot and car seat",
  },
} as const;

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test(`${locale}: a trio shows its parts, their links and the saving; a combination whose part is out is not available`, async ({
    page,
    expectNoAxeViolations,
  }) => {
    await open(page, localizedHref("/product/300", locale));
    await expect(page.getByRole("heading", { level: 1, name: t.name })).toBeVisible();
    const inside = page.getByRole("region", { name: t.inside });
    await expect(inside.getByRole("link")).toHaveText([...t.parts]);
    await expect(inside).toContainText(t.saved);
    await expect(inside.getByText(t.available, { exact: true })).toHaveCount(3);
    await expect(inside.getByRole("link", { name: t.parts[0] })).toHaveAttribute("href", localizedHref("/product/24", locale));
    await expectNoAxeViolations(page);

    await open(page, localizedHref("/product/300?colour=blue", locale));
    await expect(inside.getByRole("listitem").nth(2)).toContainText(t.unavailable);
    await expect(inside.getByText(t.available, { exact: true })).toHaveCount(2);
  });

  // Desktop only: the guest checkout's screens have phone journeys of their own (checkout.spec.ts).
  test(`${locale}: a trio bought as a guest: the order lists its three parts`, { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
    await addToCart(page, variantIdOf(300, { colour: "black" }));
    await open(page, localizedHref("/checkout", locale));
    await placeGuestOrder(page, locale, { email: `trio-${crypto.randomUUID().slice(0, 8)}@example.it`, payment: checkoutLabels[locale].cod });
    await expect(page.getByRole("heading", { level: 1, name: t.thanks })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(t.partOf)).toHaveCount(3);
    for (const part of t.parts) await expect(page.getByRole("link", { name: part })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}
