import type { Browser, BrowserContextOptions, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addToCart as add, openHydrated as open, postToCart, variantIdOf } from "./shop-helpers";

// Issue 4, the cart. Products of the sample catalogue (deterministic; server/db/sample-catalogue.ts):
//  47 Parapioggia universale per passeggino: simple, one size, stock 13, 14,90 €
//  50 Organizer portaoggetti per passeggino: simple, stock 3, 29,90 €
//  98 Sacco nanna in cotone biologico: colours x sizes ("0-6 mesi", "6-18 mesi", ...)
//  83 Culla a dondolo Foppapedretti: pre-order sizes (21 days)
// 111 Cornice in legno con nome inciso: two personalisation fields, 8,00 € each item
//  33 Trio Chicco Best Friend Pro edizione speciale: on request ("Chicco edition")

const rainCover = { id: 47, name: "Parapioggia universale per passeggino", nameEn: "Universal stroller rain cover" };
const organizer = { id: 50, name: "Organizer portaoggetti per passeggino" };
const sleepingBag = { id: 98, name: "Sacco nanna in cotone biologico" };
const frame = { id: 111, name: "Cornice in legno con nome inciso" };

// A refused add answers 400/409, which Chromium logs as a failed resource.
test.use({ allowedBrowserErrors: [/status of 40[09]/] });
// Journeys of many steps on a 2-core machine shared with other suites.
test.describe.configure({ timeout: 90_000 });

/** Another visitor: a context of its own (browser.newContext does not take the config's baseURL). */
const newVisitor = (browser: Browser, options: BrowserContextOptions = {}) => browser.newContext({ baseURL: process.env.E2E_BASE_URL, ...options });

const toast = (page: Page, text: string) => page.locator("[data-toast-kind]").filter({ hasText: text });
const cartLine = (page: Page, name: string) => page.locator("main li").filter({ has: page.getByRole("link", { name }) });

test("the cart page's buttons show each toast, without a full reload, and axe passes", async ({ page, expectNoAxeViolations }) => {
  await open(page, "/cart");
  await expect(page.getByText("Il tuo carrello è vuoto.")).toBeVisible();
  await add(page, variantIdOf(rainCover.id), 2);
  await add(page, variantIdOf(organizer.id));
  await open(page, "/cart");
  await expect(cartLine(page, rainCover.name)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  await page.getByRole("button", { name: `Aggiungi un ${rainCover.name}` }).click();
  await expect(toast(page, "Aggiunto al carrello")).toBeVisible();
  await expect(cartLine(page, rainCover.name).getByTestId("line-quantity")).toContainText("3");
  await expect(page.getByRole("group", { name: `Quantità di ${rainCover.name}` })).toBeVisible();

  await page.getByRole("button", { name: `Togli un ${rainCover.name}` }).click();
  await expect(toast(page, "Articolo Decrementato dal carrello")).toBeVisible();
  await expect(cartLine(page, rainCover.name).getByTestId("line-quantity")).toContainText("2");
  await expect(page.getByTestId("cart-total")).toHaveText(/59,70/); // 2 x 14,90 + 29,90

  await page.getByRole("button", { name: `Rimuovi ${organizer.name} dal carrello` }).click();
  await expect(toast(page, "Rimosso dal carrello")).toBeVisible();
  await expect(cartLine(page, organizer.name)).toHaveCount(0);

  await page.getByRole("button", { name: "Svuota il carrello" }).click();
  await expect(toast(page, "Rimossi tutti dal carrello")).toBeVisible();
  await expect(page.getByText("Il tuo carrello è vuoto.")).toBeVisible();
  // The toasts that are not conflicts go by themselves.
  await expect(toast(page, "Aggiunto al carrello")).toBeHidden({ timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

// Desktop only: English copy: the phone runs the Italian pages.
test("in English the same buttons speak English", { tag: "@desktop-only" }, async ({ page }) => {
  await add(page, variantIdOf(rainCover.id), 2);
  await open(page, "/en/cart");
  await expect(cartLine(page, rainCover.nameEn)).toBeVisible();
  await page.getByRole("button", { name: `Add one ${rainCover.nameEn}` }).click();
  await expect(toast(page, "Added to cart")).toBeVisible();
  await page.getByRole("button", { name: `Remove one ${rainCover.nameEn}` }).click();
  await expect(toast(page, "Item decreased in cart")).toBeVisible();
  await page.getByRole("button", { name: `Remove ${rainCover.nameEn} from the cart` }).click();
  await expect(toast(page, "Removed from cart")).toBeVisible();
  await add(page, variantIdOf(rainCover.id));
  await open(page, "/en/cart");
  await page.getByRole("button", { name: "Empty the cart" }).click();
  await expect(toast(page, "Removed all from cart")).toBeVisible();
});

test("the mini-cart lists the lines, never a one-size label, and passes axe when open", async ({ page, expectNoAxeViolations }) => {
  await add(page, variantIdOf(rainCover.id));
  await add(page, variantIdOf(sleepingBag.id, { colour: "white", size: "0-6 mesi" }), 2);
  // An information page: only the shell's own parts around the open mini-cart.
  await open(page, "/about");
  const summary = page.getByTestId("mini-cart").locator("summary");
  await expect(summary).toHaveAccessibleName("Carrello, 3 articoli");
  await summary.click();
  const panel = page.getByTestId("mini-cart");
  await expect(panel.getByRole("link", { name: sleepingBag.name })).toBeVisible();
  await expect(panel).toContainText("Colore: Bianco");
  await expect(panel).toContainText("Taglia: 0-6 mesi");
  await expect(panel).toContainText("Quantità: 2");
  await expect(panel).not.toContainText(/TAGLIA_UNICA|tagliau|Taglia: TAGLIA/i);
  await expect(panel.getByRole("link", { name: "Vai al carrello" })).toBeVisible();
  await expectNoAxeViolations(page);

  await panel.getByRole("button", { name: `Rimuovi ${rainCover.name} dal carrello` }).click();
  await expect(toast(page, "Rimosso dal carrello")).toBeVisible();
  await expect(summary).toHaveAccessibleName("Carrello, 2 articoli");
});

// Desktop only: a reload and the other language change no layout the cart journeys above do not show.
test("the cart survives a reload and shows in the other language", { tag: "@desktop-only" }, async ({ page }) => {
  await open(page, "/cart");
  await add(page, variantIdOf(rainCover.id), 2);
  await page.reload();
  await expect(cartLine(page, rainCover.name).getByTestId("line-quantity")).toContainText("2");
  const again = await page.context().newPage();
  await open(again, "/en/cart");
  await expect(cartLine(again, rainCover.nameEn)).toBeVisible();
});

// Desktop only: which lines merge is the server's rule, the same on any screen.
test("adding merges by product, colour, size and personalisation; anything else is a new line", { tag: "@desktop-only" }, async ({ page }) => {
  await add(page, variantIdOf(rainCover.id));
  await add(page, variantIdOf(rainCover.id), 2);
  await add(page, variantIdOf(sleepingBag.id, { colour: "white", size: "0-6 mesi" }));
  await add(page, variantIdOf(sleepingBag.id, { colour: "white", size: "6-18 mesi" }));
  await add(page, variantIdOf(sleepingBag.id, { colour: "white", size: "0-6 mesi" }));
  const personalised = { "personalisation.0": "Luca", "personalisation.1": "12 maggio 2025" };
  await add(page, variantIdOf(frame.id), 1, { personalisation: personalised });
  await add(page, variantIdOf(frame.id), 1, { personalisation: personalised });
  await add(page, variantIdOf(frame.id), 1, { personalisation: { ...personalised, "personalisation.0": "Anna" } });
  await open(page, "/cart");
  const lines = page.getByTestId("cart-lines").locator(":scope > li");
  await expect(lines).toHaveCount(5);
  await expect(cartLine(page, rainCover.name).getByTestId("line-quantity")).toContainText("3");
  const bags = cartLine(page, sleepingBag.name);
  await expect(bags).toHaveCount(2);
  await expect(bags.filter({ hasText: "0-6 mesi" }).getByTestId("line-quantity")).toContainText("2");
  await expect(bags.filter({ hasText: "6-18 mesi" }).getByTestId("line-quantity")).toContainText("1");
  const frames = cartLine(page, frame.name);
  await expect(frames.filter({ hasText: "Luca" }).getByTestId("line-quantity")).toContainText("2");
  await expect(frames.filter({ hasText: "Anna" }).getByTestId("line-quantity")).toContainText("1");
  await expect(frames.first()).toContainText("Personalizzazione: 8,00 € al pezzo");
  await expect(page.getByRole("complementary")).toContainText("Personalizzazione");
});

test("quantity limits: the server refuses what the browser would have disabled, and nothing changes", { tag: "@server-rule" }, async ({ page }) => {
  const organizerId = variantIdOf(organizer.id);
  for (const quantity of ["0", "-1", "1.5", "abc"]) {
    const refused = await postToCart(page, { intent: "add", variantId: organizerId, quantity });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("La quantità deve essere un numero intero da 1 in su.");
  }
  const tooMany = await postToCart(page, { intent: "add", variantId: organizerId, quantity: 10 ** 9 });
  expect(tooMany.status).toBe(409);
  expect(tooMany.text).toContain("Quantità non disponibile: puoi aggiungerne ancora 3.");
  const unknown = await postToCart(page, { intent: "add", variantId: 999_999 });
  expect(unknown.status).toBe(400);
  expect(unknown.text).toContain("Prodotto non trovato");

  await add(page, organizerId, 3);
  const full = await postToCart(page, { intent: "add", variantId: organizerId });
  expect(full.status).toBe(409);
  expect(full.text).toContain("Hai già nel carrello tutta la disponibilità di questo prodotto.");
  const onRequest = await postToCart(page, { intent: "add", variantId: variantIdOf(33) });
  expect(onRequest.status).toBe(409);
  expect(onRequest.text).toContain("solo su richiesta");
  const strangeField = await postToCart(page, { intent: "add", variantId: organizerId, "personalisation.0": "x".repeat(10_000) });
  expect(strangeField.status).toBe(400);

  await open(page, "/cart");
  await expect(page.getByTestId("cart-lines").locator(":scope > li")).toHaveCount(1);
  await expect(cartLine(page, organizer.name).getByTestId("line-quantity")).toContainText("3");
  await expect(page.getByRole("button", { name: `Aggiungi un ${organizer.name}` })).toBeDisabled();
});

// Desktop only: the phone's personalisation message is checked in shop-details.spec.ts.
test("a personalisable product refuses empty texts; a pre-order size warns when added", { tag: "@desktop-only" }, async ({ page }) => {
  await open(page, `/product/${frame.id}`);
  const texts = page.locator('input[name^="personalisation."]');
  await texts.nth(0).fill("   ");
  await texts.nth(1).fill("  ");
  await page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
  await expect(toast(page, "Personalizzazione non inserita!")).toBeVisible();
  await expect(page.getByTestId("mini-cart").locator("summary")).toHaveAccessibleName("Carrello, 0 articoli");

  await texts.nth(0).fill("Luca");
  await texts.nth(1).fill("12 maggio 2025");
  await page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
  await expect(toast(page, "Aggiunto al carrello")).toBeVisible();
  await expect(page.getByTestId("mini-cart").locator("summary")).toHaveAccessibleName("Carrello, 1 articolo");

  await open(page, "/product/83");
  await page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
  await expect(toast(page, "Aggiunto al carrello")).toBeVisible();
  await expect(toast(page, "Attenzione stai per acquistare un prodotto che non è disponibile immediatamente")).toBeVisible();
});

test("without JavaScript a product is added, the page comes back with the toast, and the steppers work", async ({ browser }) => {
  const context = await newVisitor(browser, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/product/${rainCover.id}`);
  await page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/product/${rainCover.id}$`));
  await expect(toast(page, "Aggiunto al carrello")).toBeVisible();
  // The flash is shown once.
  await page.reload();
  await expect(toast(page, "Aggiunto al carrello")).toHaveCount(0);

  await page.goto("/cart");
  await page.getByRole("button", { name: `Aggiungi un ${rainCover.name}` }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(toast(page, "Aggiunto al carrello")).toBeVisible();
  await expect(cartLine(page, rainCover.name).getByTestId("line-quantity")).toContainText("2");
  await page.getByRole("button", { name: "Svuota il carrello" }).click();
  await expect(toast(page, "Rimossi tutti dal carrello")).toBeVisible();
  await expect(page.getByText("Il tuo carrello è vuoto.")).toBeVisible();
  await context.close();
});

test(
  "a forged cart cookie or another visitor's bare cart id is refused and a fresh cart starts",
  { tag: "@server-rule" },
  async ({ page, browser }) => {
    await add(page, variantIdOf(rainCover.id));
    const [cookie] = (await page.context().cookies()).filter((candidate) => candidate.name === "cart");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    const [cartId, signature] = cookie!.value.split(".");

    for (const forged of [cartId!, `${cartId}.${"A".repeat(signature!.length)}`, `00000000-0000-4000-8000-000000000000.${signature}`]) {
      const stranger = await newVisitor(browser);
      await stranger.addCookies([{ name: "cart", value: forged, url: process.env.E2E_BASE_URL! }]);
      const strangerPage = await stranger.newPage();
      await strangerPage.goto("/cart");
      await expect(strangerPage.getByText("Il tuo carrello è vuoto.")).toBeVisible();
      await stranger.close();
    }
    await open(page, "/cart");
    await expect(cartLine(page, rainCover.name)).toBeVisible();
  },
);

test(
  "a cart shared as a link is copied into another visitor's cart with the stock rules",
  { tag: "@server-rule" },
  async ({ page, browser, expectNoAxeViolations }) => {
    await add(page, variantIdOf(rainCover.id), 2);
    await add(page, variantIdOf(organizer.id), 3);
    await open(page, "/cart");
    await page.getByRole("button", { name: "Condividi il carrello" }).click();
    await expect(page).toHaveURL(/\/basket\/[a-z2-7]{16}\?saved=1$/);
    const link = page.getByLabel("Link del carrello");
    const shareUrl = await link.inputValue();
    expect(shareUrl).toMatch(/\/basket\/[a-z2-7]{16}$/);
    await expectNoAxeViolations(page);

    const friend = await newVisitor(browser);
    const friendPage = await friend.newPage();
    // The friend already holds one organizer: only two more fit in its stock of 3.
    await add(friendPage, variantIdOf(organizer.id), 1);
    await open(friendPage, new URL(shareUrl).pathname);
    await expect(friendPage.getByRole("heading", { name: "Carrello condiviso" })).toBeVisible();
    await expect(friendPage.getByRole("link", { name: rainCover.name })).toBeVisible();
    await friendPage.getByRole("button", { name: "Aggiungi tutto al mio carrello" }).click();
    await expect(friendPage.locator("main").getByRole("status")).toContainText("4 articoli aggiunti al carrello");
    await expect(friendPage.getByText(`${organizer.name}: aggiunti 2 su 3`)).toBeVisible();
    await open(friendPage, "/cart");
    await expect(cartLine(friendPage, rainCover.name).getByTestId("line-quantity")).toContainText("2");
    await expect(cartLine(friendPage, organizer.name).getByTestId("line-quantity")).toContainText("3");
    await friend.close();
  },
);
