import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { italianDayOf } from "../common/shop-calendar";
import { expect as baseExpect, test } from "./fixtures";
import { addToCart, customerPassword, openHydrated, variantIdOf } from "./shop-helpers";

// Issue 37, signed-in customers (decision 0095): with JavaScript her pages are the visitors' kept ones and her
// header, mini cart, the product page's "in your cart", its gift-list selector and the hearts come from her
// personal part fetched after load; without JavaScript the page is filled in for her by the server.
// Sample product 47: the umbrella stroller, simple and in stock.

// Each step may wait for a server round trip on a machine shared with other suites.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

const texts = {
  it: {
    prefix: "",
    menuOf: (name: string) => `Il mio account (${name})`,
    cart: "Carrello, 1 articolo",
    inCart: "Nel tuo carrello: 1",
    selector: "Aggiungi alla lista nascita",
    yourList: "La tua lista",
    createForm: "Crea una nuova lista",
    title: "Titolo della lista",
    eventDate: "Data dell'evento",
    names: "Nomi dei festeggiati",
    create: "Crea la lista",
    created: "La lista è stata creata.",
    addToWishlist: /^Aggiungi .+ alla lista dei desideri$/,
    wishlistCount: "Lista desideri, 1 articolo",
  },
  en: {
    prefix: "/en",
    menuOf: (name: string) => `My account (${name})`,
    cart: "Cart, 1 item",
    inCart: "In your cart: 1",
    selector: "Add to gift list",
    yourList: "Your list",
    createForm: "Create a new list",
    title: "List title",
    eventDate: "Event date",
    names: "Names of the people celebrated",
    create: "Create the list",
    created: "The list has been created.",
    addToWishlist: /^Add .+ to wishlist$/,
    wishlistCount: "Wishlist, 1 item",
  },
} as const;

/** A new customer of this test alone (her cart and lists start empty), signed in in the page's browser. */
async function signInNewCustomer(page: Page, name: string) {
  const email = `personale-${crypto.randomBytes(4).toString("hex")}@example.com`;
  const headers = { Origin: new URL(process.env.E2E_BASE_URL!).origin };
  const form = { intent: "register", name, email, password: customerPassword, passwordConfirm: customerPassword, privacy: "on" };
  expect((await page.request.post("/login-register", { form, headers, maxRedirects: 0 })).status()).toBeGreaterThanOrEqual(300);
  const login = { intent: "login", email, password: customerPassword };
  expect((await page.request.post("/login-register", { form: login, headers, maxRedirects: 0 })).status()).toBeGreaterThanOrEqual(300);
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test(`a signed-in customer's pages show her, her cart and her gift list, with and without JavaScript (${locale})`, async ({
    page,
    browser,
    expectNoAxeViolations,
  }, testInfo) => {
    test.setTimeout(180_000);
    const name = "Marta Rinaldi";
    const listTitle = `Lista di Marta ${crypto.randomBytes(2).toString("hex")}`;
    await signInNewCustomer(page, name);

    // Her gift list, made on its page (the first page she sees with JavaScript: the browser says it runs scripts).
    await openHydrated(page, `${t.prefix}/crea-lista-nascita`);
    const form = page.getByRole("form", { name: t.createForm });
    await form.getByLabel(t.title).fill(listTitle);
    await form.getByLabel(t.eventDate).fill(italianDayOf(new Date(Date.now() + 60 * 24 * 60 * 60 * 1000)));
    await form.getByLabel(t.names).fill("Nicolò");
    await form.getByRole("button", { name: t.create }).click();
    await expect(page.getByRole("status").filter({ hasText: t.created })).toBeVisible();
    await addToCart(page, variantIdOf(47));

    // The product page: the document is the visitors' kept one, nothing of hers in it ...
    const response = await openHydrated(page, `${t.prefix}/product/47`);
    const html = (await response?.text()) ?? "";
    expect(html).toContain("<main");
    expect(html).not.toContain(name);
    expect(html).not.toContain(listTitle);
    expect(response?.headers()["cache-control"]).toBe("private, no-store");
    // ... and after load the page shows her: the account menu, the cart's count, "in your cart", her list.
    await expect(page.locator("summary").getByText(t.menuOf(name))).toBeAttached();
    await expect(page.getByText(t.cart, { exact: true })).toBeAttached();
    const main = page.locator("main");
    await expect(main.getByText(t.inCart)).toBeVisible();
    await expect(main.getByRole("heading", { name: t.selector })).toBeVisible();
    await expect(main.getByLabel(t.yourList).locator("option", { hasText: listTitle })).toBeAttached();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath(`signed-in-product-${locale}.png`) });

    // A heart: saved on the product page, counted in the header of the next page (a client navigation).
    await main.getByRole("button", { name: t.addToWishlist }).first().click();
    await page.goto(`${t.prefix}/shop`);
    await page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });
    await expect(page.locator("summary").getByText(t.menuOf(name))).toBeAttached();
    await expect(page.getByText(t.cart, { exact: true })).toBeAttached();
    await expect(page.getByText(t.wishlistCount, { exact: true }).first()).toBeAttached();
    await expectNoAxeViolations(page);

    // Without JavaScript (no `js` cookie): the server fills her page in, the same things shown.
    const noScripts = await browser.newContext({
      javaScriptEnabled: false,
      viewport: testInfo.project.use.viewport,
      storageState: await page.context().storageState(),
    });
    try {
      await noScripts.clearCookies({ name: "js" });
      const plain = await noScripts.newPage();
      const answer = await plain.goto(`${process.env.E2E_BASE_URL}${t.prefix}/product/47`);
      expect(await answer?.text()).toContain(name);
      await expect(plain.locator("summary").getByText(t.menuOf(name))).toBeAttached();
      await expect(plain.getByText(t.cart, { exact: true })).toBeAttached();
      await expect(plain.locator("main").getByText(t.inCart)).toBeVisible();
      await expect(plain.locator("main").getByLabel(t.yourList).locator("option", { hasText: listTitle })).toBeAttached();
      // No axe here: it does not run in a page without JavaScript; the page's markup is the one checked above.
      await plain.screenshot({ path: testInfo.outputPath(`signed-in-product-no-js-${locale}.png`) });
    } finally {
      await noScripts.close();
    }
  });
}
