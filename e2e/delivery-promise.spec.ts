import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expect as baseExpect, longJourneyLocales, test } from "./fixtures";
import { localizedHref } from "../common/locale";
import { hasBackOfficeAccount } from "./back-office-account";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";
import { checkoutLabels } from "./checkout-steps";

// Issue 19, item 3: when it arrives. The shop's clock is moved per request with the x-test-clock header
// (e2e/server.ts starts the shop with TEST_CLOCK_HEADER). Seeded delivery times: cut-off 13:00, parcels
// leave the same working day, courier 1-2 days (Monday to Friday), collection the next opening day
// (Monday to Saturday). Products of the sample catalogue used by no other journey:
// 207 Sterilizzatore elettrico a vapore: in stock (60)
// 174 bike: "12 pollici" in stock, "14 pollici" a pre-order of 10 days

const expect = baseExpect.configure({ timeout: 15_000 });
// Many full pages, an order and a back-office login per test on a busy 2-core machine.
test.describe.configure({ timeout: 120_000 });

const fridayEvening = "2027-11-26T19:30:00+01:00";
const immacolataEve = "2027-12-07T10:00:00+01:00";
const mondayMorning = "2027-12-06T10:00:00+01:00";

const texts = {
  it: {
    ...checkoutLabels.it,
    friday: { courier: "Consegna stimata: mar 30 nov – mer 1 dic", collection: "Ritiro in negozio da lun 29 nov" },
    fridayPreorder: { courier: "Consegna stimata: gio 9 dic – ven 10 dic", collection: "Ritiro in negozio da gio 9 dic" },
    eve: { courier: "Consegna stimata: gio 9 dic – ven 10 dic", collection: "Ritiro in negozio da gio 9 dic" },
    evePreorder: { courier: "Consegna stimata: lun 20 dic – mar 21 dic", collection: "Ritiro in negozio da sab 18 dic" },
    monday: { courier: "Consegna stimata: mar 7 dic – gio 9 dic", collection: "Ritiro in negozio da domani" },
    size: /^14 pollici/,
    steriliser: "Sterilizzatore elettrico a vapore",
    quickView: "Anteprima rapida di Sterilizzatore elettrico a vapore",
    collectionChoice: /^Ritiro in negozio/,
    thanks: /Grazie! Ordine n. (\d+) ricevuto/,
  },
  en: {
    ...checkoutLabels.en,
    friday: { courier: "Estimated delivery: Tue 30 Nov – Wed 1 Dec", collection: "Collect in the shop from Mon 29 Nov" },
    fridayPreorder: { courier: "Estimated delivery: Thu 9 Dec – Fri 10 Dec", collection: "Collect in the shop from Thu 9 Dec" },
    eve: { courier: "Estimated delivery: Thu 9 Dec – Fri 10 Dec", collection: "Collect in the shop from Thu 9 Dec" },
    evePreorder: { courier: "Estimated delivery: Mon 20 Dec – Tue 21 Dec", collection: "Collect in the shop from Sat 18 Dec" },
    monday: { courier: "Estimated delivery: Tue 7 Dec – Thu 9 Dec", collection: "Collect in the shop from tomorrow" },
    size: /^14 pollici/,
    steriliser: "Electric steam steriliser",
    quickView: "Quick view of Electric steam steriliser",
    collectionChoice: /^Collect in the shop/,
    thanks: /Thank you! Order no. (\d+) received/,
  },
} as const;
type Locale = keyof typeof texts;
type Promise2 = { courier: string; collection: string };

const setShopClock = (page: Page, at: string) => page.setExtraHTTPHeaders({ "x-test-clock": new Date(at).toISOString() });
const main = (page: Page) => page.getByRole("main");
const field = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });

async function expectPromise(page: Page, promise: Promise2) {
  const lines = main(page).getByTestId("delivery-promise");
  await expect(lines).toBeVisible();
  await expect(lines.getByRole("listitem")).toHaveText([promise.courier, promise.collection]);
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/delivery-promise-${name}-${test.info().project.name}.png`, fullPage: false });
}

/** Product page (in stock, then the pre-order size), cart and checkout at the moment the clock was set to. */
async function checkPagesAt(
  page: Page,
  locale: Locale,
  at: { inStock: Promise2; preorder: Promise2 },
  shot: string,
  expectNoAxeViolations: (page: Page) => Promise<void>,
): Promise<string> {
  const t = texts[locale];
  await open(page, localizedHref("/product/207", locale));
  await expectPromise(page, at.inStock);
  await main(page).getByTestId("delivery-promise").scrollIntoViewIfNeeded();
  await shoot(page, `${shot}-product-${locale}`);
  await expectNoAxeViolations(page);

  await open(page, localizedHref("/product/174", locale));
  await main(page)
    .getByRole("group", { name: /^(Taglia|Size)/ })
    .getByRole("link", { name: t.size })
    .click();
  await expect(page).toHaveURL(/size=14\+pollici/);
  await expectPromise(page, at.preorder);

  await addToCart(page, variantIdOf(207));
  await open(page, localizedHref("/cart", locale));
  await expectPromise(page, at.inStock);
  await shoot(page, `${shot}-cart-${locale}`);
  await expectNoAxeViolations(page);

  await open(page, localizedHref("/checkout", locale));
  await field(page, t.firstName).fill("Giulia");
  await field(page, t.lastName).fill("Esposito");
  const email = `consegna-${crypto.randomBytes(4).toString("hex")}@example.com`;
  await field(page, "E-mail").fill(email);
  await field(page, t.phone).fill("+39 333 765 4321");
  await field(page, t.street).fill("Via dei Fori Imperiali");
  await field(page, t.houseNumber).fill("1");
  await field(page, t.postcode).fill("00186");
  await field(page, t.city).fill("Roma");
  await field(page, t.province).fill("RM");
  const standard = page.getByRole("radio", { name: t.standard });
  await expect(standard).toBeEnabled();
  // Each delivery's promise is part of its choice's description, read out with it.
  await expect(standard).toHaveAccessibleDescription(new RegExp(at.inStock.courier));
  await expect(page.getByRole("radio", { name: t.collectionChoice })).toHaveAccessibleDescription(new RegExp(at.inStock.collection));
  await standard.check();
  await page.getByRole("radio", { name: t.cod }).check();
  await page.getByTestId("delivery-estimate").first().scrollIntoViewIfNeeded();
  await shoot(page, `${shot}-checkout-${locale}`);
  await expectNoAxeViolations(page);
  return email;
}

for (const locale of longJourneyLocales) {
  const t = texts[locale];

  test(`a Friday evening order arrives next week: product page, cart, checkout, order page and mail (${locale})`, async ({
    page,
    signInAs,
    browser,
    expectNoAxeViolations,
  }) => {
    await setShopClock(page, fridayEvening);
    const email = await checkPagesAt(page, locale, { inStock: t.friday, preorder: t.fridayPreorder }, "friday", expectNoAxeViolations);

    await page.getByRole("checkbox", { name: t.terms }).check();
    await page.getByRole("button", { name: t.place }).click();
    const heading = page.getByRole("heading", { level: 1, name: t.thanks });
    await expect(heading).toBeVisible({ timeout: 30_000 });
    const number = t.thanks.exec((await heading.textContent()) ?? "")![1]!;
    // The order keeps the promise it was placed with, whatever the clock says later.
    await setShopClock(page, immacolataEve);
    await page.reload();
    await expect(page.getByTestId("delivery-estimate")).toHaveText(t.friday.courier);
    await shoot(page, `friday-order-${locale}`);
    await expectNoAxeViolations(page);

    if (hasBackOfficeAccount()) {
      const staff = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
      const staffPage = await staff.newPage();
      await signInAs(staff, "backOffice");
      await open(staffPage, "/admin/posta");
      const outbox = staffPage.getByRole("table", { name: "Posta in uscita" });
      await expect(outbox.getByRole("row").filter({ hasText: email }).filter({ hasText: number })).toHaveCount(1);
      await staff.close();
    }
  });
}

// The file's second long journey in English (longJourneyLocales).
for (const locale of ["en"] as readonly Locale[]) {
  const t = texts[locale];

  test(`on the eve of a holiday the holiday is skipped; the day before, collection is "tomorrow" (${locale})`, async ({
    page,
    expectNoAxeViolations,
  }) => {
    await setShopClock(page, immacolataEve);
    await checkPagesAt(page, locale, { inStock: t.eve, preorder: t.evePreorder }, "eve", expectNoAxeViolations);

    await setShopClock(page, mondayMorning);
    await open(page, localizedHref("/product/207", locale));
    await expectPromise(page, t.monday);

    // The quick view promises the same, from a search's card.
    await open(page, `${localizedHref("/shop", locale)}?fromsearch=true&search=${encodeURIComponent(t.steriliser)}`);
    await main(page).getByRole("button", { name: t.quickView }).first().click();
    const dialog = page.getByRole("dialog", { name: t.steriliser });
    await expect(dialog.getByTestId("delivery-promise").getByRole("listitem")).toHaveText([t.monday.courier, t.monday.collection]);
    await expectNoAxeViolations(page);
  });
}

// The help centre speaks of the same days the promise counts (seeded: courier 1-2 days, cut-off 13:00).
for (const [locale, words] of [
  ["it", { page: "/centroassistenza", courier: "in 1-2 giorni lavorativi dalla spedizione", cutoff: "entro le 13:00" }],
  ["en", { page: "/en/centroassistenza", courier: "takes 1-2 working days from dispatch", cutoff: "by 13:00" }],
] as const) {
  test(`the help centre gives the courier days and the cut-off of the delivery settings (${locale})`, async ({ page }) => {
    await page.goto(words.page);
    const shipping = page.locator("#condizionespedizione");
    await expect(shipping).toContainText(words.courier);
    await expect(shipping).toContainText(words.cutoff);
    await expect(shipping).not.toContainText("2-5");
  });
}
