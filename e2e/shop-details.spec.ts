import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect, test } from "./fixtures";
import { openHydrated } from "./shop-helpers";

/**
 * Details a customer noticed: account forms that multiplied, the listing's search box and size filter,
 * and the shop's own message for a personalisation left empty (with and without JavaScript).
 */

const texts = {
  it: {
    addressAdded: "Indirizzo aggiunto.",
    firstName: "Nome",
    lastName: "Cognome",
    street: "Via o piazza",
    houseNumber: "Numero civico",
    postcode: "CAP",
    city: "Città",
    province: "Provincia",
    addAddress: "Aggiungi l'indirizzo",
    addTitle: "Aggiungi un indirizzo",
    saveProfile: "Salva i dati",
    changeEmail: "Cambia l'indirizzo",
    changePassword: "Cambia la password",
    search: "Cerca tra questi prodotti",
    sizes: "Taglia",
    personalisationMissing: "Personalizzazione non inserita!",
    childName: "Nome del bambino",
    addToCart: "Aggiungi al carrello",
  },
  en: {
    addressAdded: "Address added.",
    firstName: "First name",
    lastName: "Last name",
    street: "Street or square",
    houseNumber: "House number",
    postcode: "Postcode (CAP)",
    city: "Town or city",
    province: "Province",
    addAddress: "Add the address",
    addTitle: "Add an address",
    saveProfile: "Save details",
    changeEmail: "Change the address",
    changePassword: "Change the password",
    search: "Search these products",
    sizes: "Size",
    personalisationMissing: "Personalisation not entered!",
    childName: "Baby's name",
    addToCart: "Add to cart",
  },
};

const main = (page: Page) => page.getByRole("main");
/** A form post's answer: a save and a reload, on 2 shared cores. */
const afterPost = { timeout: 20_000 };

// Each journey posts and reloads several pages and runs axe on them.
test.describe.configure({ timeout: 60_000 });

// The cart's refusal of an empty personalisation is a 400 answer, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 400/] });

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test.describe(() => {
    test.use({ signedInAs: "customer" });
    test(`my account keeps one of each form after an address is added and the details saved (${locale})`, async ({
      page,
      expectNoAxeViolations,
    }, testInfo) => {
      await page.goto(localizedHref("/my-account", locale));
      await expect(page.getByRole("button", { name: t.changeEmail, exact: true })).toHaveCount(1);
      const form = main(page).getByRole("form", { name: t.addTitle });
      await form.getByRole("textbox", { name: t.firstName, exact: true }).fill("Giulia");
      await form.getByRole("textbox", { name: t.lastName, exact: true }).fill("Esposito");
      await form.getByRole("textbox", { name: t.street, exact: true }).fill("Via Roma");
      await form.getByRole("textbox", { name: t.houseNumber, exact: true }).fill("12");
      await form.getByRole("textbox", { name: t.postcode, exact: true }).fill("80013");
      await form.getByRole("textbox", { name: t.city, exact: true }).fill("Casalnuovo di Napoli");
      await form.getByRole("textbox", { name: t.province, exact: true }).fill("NA");
      await form.getByRole("button", { name: t.addAddress }).click();
      await expect(page.getByText(t.addressAdded)).toBeVisible(afterPost);
      await expect(page.getByRole("button", { name: t.changeEmail, exact: true })).toHaveCount(1);
      await expect(page.getByRole("button", { name: t.changePassword, exact: true })).toHaveCount(1);
      await page.getByRole("button", { name: t.saveProfile }).click();
      await expect(page).toHaveURL(/done=profile/, afterPost);
      await expect(page.getByRole("button", { name: t.changeEmail, exact: true })).toHaveCount(1);
      await expect(page.getByRole("button", { name: t.changePassword, exact: true })).toHaveCount(1);
      await page.screenshot({ path: testInfo.outputPath(`account-${locale}.png`), fullPage: true });
      await expectNoAxeViolations(page);
    });
  });

  test(`the listing's search box shows its whole placeholder and sizes read as on the product page (${locale})`, async ({
    page,
    expectNoAxeViolations,
  }, testInfo) => {
    await page.goto(`${localizedHref("/shop", locale)}?all=size`);
    // A search box before hydration, a combobox after it (app/ui/search-box.tsx): found by its label either way.
    const search = main(page).getByLabel(t.search, { exact: true });
    // The placeholder's width in the field's own font fits the space between its paddings.
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room };
    });
    expect(fits.text).toBeLessThanOrEqual(fits.room);
    // On a phone the filters sit in a closed drawer: the labels are read all the same.
    const sizes = main(page).getByRole("group", { name: t.sizes, includeHidden: true });
    await expect(sizes.getByRole("checkbox", { name: /^M\b/, includeHidden: true })).toHaveCount(1);
    await expect(sizes.getByRole("checkbox", { name: /^XL\b/, includeHidden: true })).toHaveCount(1);
    await expect(sizes.getByRole("checkbox", { name: /^(m|xl)\b/, includeHidden: true })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`listing-${locale}.png`) });
    await expectNoAxeViolations(page);
  });

  test(`an empty personalisation gets the shop's message, the field marked and focused (${locale})`, async ({
    page,
    expectNoAxeViolations,
  }, testInfo) => {
    await openHydrated(page, localizedHref("/product/111", locale));
    const field = main(page).getByLabel(t.childName);
    await main(page).getByRole("button", { name: t.addToCart }).click();
    await expect(main(page).getByText(t.personalisationMissing).first()).toBeVisible(afterPost);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();
    await page.screenshot({ path: testInfo.outputPath(`personalisation-${locale}.png`) });
    await expectNoAxeViolations(page);
  });

  test.describe(() => {
    test.use({ javaScriptEnabled: false });
    // Desktop only: the message is the server's; the phone's field is checked in the journey above.
    test(
      `without JavaScript an empty personalisation comes back with the shop's message (${locale})`,
      { tag: "@desktop-only" },
      async ({ page }, testInfo) => {
        await page.goto(localizedHref("/product/111", locale));
        await main(page).getByRole("button", { name: t.addToCart }).click();
        await expect(page).toHaveURL(/\/product\/111/);
        const field = main(page).getByLabel(t.childName);
        await expect(main(page).getByText(t.personalisationMissing).first()).toBeVisible(afterPost);
        await expect(field).toHaveAttribute("aria-invalid", "true");
        await expect(field).toBeFocused();
        // axe runs inside the page, which this context does not allow: the same page with JavaScript is checked above.
        await page.screenshot({ path: testInfo.outputPath(`personalisation-nojs-${locale}.png`) });
      },
    );
  });
}
