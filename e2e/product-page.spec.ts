import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Issue 3, product page and quick view. Sample products (deterministic stock, see server/db/sample-catalogue.ts):
// 184 romper: white x 2 · m 27 · xl 28 · xxl 11, blue x 53 · m 11 · xl 31 · xxl 0;
// 174 bike: sizes "12 pollici", "14 pollici" (pre-order, 10 days); 33 "Chicco edition" (on request);
// 111 engraved frame (two personalisation fields); 24 stroller (colours, one size).

const main = (page: Page) => page.locator("main");
const colourGroup = (page: Page, name = /^Colore/) => main(page).getByRole("group", { name });
const sizeGroup = (page: Page, name = /^Taglia/) => main(page).getByRole("group", { name });
const quantity = (page: Page, label = "Quantità") => main(page).getByLabel(label, { exact: true });

test("the page opens on the first colour and size; picking a size keeps the colour and restarts the quantity", async ({
  page,
  expectNoAxeViolations,
}) => {
  await page.goto("/product/184");
  await expect(page.getByRole("heading", { level: 1, name: "Pagliaccetto estivo in mussola" })).toBeVisible();
  await expect(colourGroup(page).getByRole("link", { name: /Bianco/ })).toHaveAttribute("aria-current", "true");
  await expect(sizeGroup(page).getByRole("link", { name: /^X\b/ })).toHaveAttribute("aria-current", "true");
  await expect(main(page).getByText("Disponibili: 2")).toBeVisible();
  await expect(main(page).getByText("Nel tuo carrello: 0")).toBeVisible();
  await expect(quantity(page)).toHaveValue("1");
  await expectNoAxeViolations(page);

  await sizeGroup(page).getByRole("link", { name: /^XL\b/ }).click();
  await expect(page).toHaveURL(/\?colour=white&size=xl$/);
  await expect(main(page).getByText("Disponibili: 28")).toBeVisible();
  await main(page).getByRole("button", { name: "Aumenta la quantità" }).click();
  await main(page).getByRole("button", { name: "Aumenta la quantità" }).click();
  await expect(quantity(page)).toHaveValue("3");

  await sizeGroup(page).getByRole("link", { name: /^M\b/ }).click();
  await expect(page).toHaveURL(/\?colour=white&size=m$/);
  await expect(quantity(page)).toHaveValue("1");
  await expect(main(page).getByText("Disponibili: 27")).toBeVisible();
});

test("picking a colour takes that colour's first size and its stock and restarts the quantity", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/184?colour=white&size=m");
  await main(page).getByRole("button", { name: "Aumenta la quantità" }).click();
  await expect(quantity(page)).toHaveValue("2");
  await colourGroup(page).getByRole("link", { name: /Blu/ }).click();
  await expect(page).toHaveURL(/\?colour=blue&size=x$/);
  await expect(colourGroup(page).getByRole("link", { name: /Blu/ })).toHaveAttribute("aria-current", "true");
  await expect(sizeGroup(page).getByRole("link", { name: /^X\b/ })).toHaveAttribute("aria-current", "true");
  await expect(quantity(page)).toHaveValue("1");
  await expect(main(page).getByText("Disponibili: 53")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("quantity stays between 1 and the stock; stock 0 reads NON DISPONIBILE, disabled", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/184?colour=white&size=x");
  const increase = main(page).getByRole("button", { name: "Aumenta la quantità" });
  const decrease = main(page).getByRole("button", { name: "Diminuisci la quantità" });
  await expect(decrease).toBeDisabled();
  await increase.click();
  await expect(quantity(page)).toHaveValue("2");
  await expect(increase).toBeDisabled();
  await expect(quantity(page)).toHaveAttribute("max", "2");
  // A typed number that does not fit is changed, and the page says why.
  await quantity(page).fill("9");
  await expect(quantity(page)).toHaveValue("2");
  await expect(quantity(page)).toHaveAccessibleDescription(/Puoi aggiungerne al massimo 2\./);
  await quantity(page).fill("0");
  await expect(quantity(page)).toHaveValue("1");
  await expect(main(page).getByRole("status").filter({ hasText: "La quantità minima è 1." })).toBeVisible();
  await quantity(page).fill("1.5");
  await expect(quantity(page)).toHaveValue("1");
  await expect(main(page).getByText("Si aggiungono solo pezzi interi.")).toBeVisible();
  await increase.click();
  await expect(quantity(page)).toHaveValue("2");
  await expect(main(page).getByText("Si aggiungono solo pezzi interi.")).toHaveCount(0);
  // Another size has its own limit: the note about the last one goes.
  await quantity(page).fill("9");
  await expect(main(page).getByText("Puoi aggiungerne al massimo 2.")).toBeVisible();
  await sizeGroup(page).getByRole("link", { name: /^M\b/ }).click();
  await expect(quantity(page)).toHaveValue("1");
  await expect(main(page).getByText(/Puoi aggiungerne al massimo/)).toHaveCount(0);

  await page.goto("/product/184?colour=blue&size=xxl");
  const soldOut = main(page).getByRole("button", { name: "NON DISPONIBILE" });
  await expect(soldOut).toBeVisible();
  await expect(soldOut).toBeDisabled();
  await expect(quantity(page)).toBeDisabled();
  await expect(sizeGroup(page).getByRole("link", { name: /XXL.*non disponibile/ })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("what the cart holds counts: adding up to the stock disables the button", async ({ page }) => {
  await page.goto("/product/184?colour=white&size=x");
  await main(page).getByRole("button", { name: "Aumenta la quantità" }).click();
  await main(page).getByRole("button", { name: "Aggiungi al carrello" }).click();
  await expect(page.getByText("Aggiunto al carrello").first()).toBeVisible();
  await expect(main(page).getByText("Nel tuo carrello: 2")).toBeVisible();
  await expect(main(page).getByText("Hai già nel carrello tutti i pezzi disponibili.")).toBeVisible();
  await expect(main(page).getByRole("button", { name: "Aggiungi al carrello" })).toBeDisabled();

  // Another size of the same colour: its own stock, nothing of it in the cart yet.
  await sizeGroup(page).getByRole("link", { name: /^M\b/ }).click();
  await expect(main(page).getByText("Nel tuo carrello: 0")).toBeVisible();
  await expect(main(page).getByRole("button", { name: "Aggiungi al carrello" })).toBeEnabled();
});

test("a pre-order size shows ATTENZIONE CONSEGNA IN 10 GIORNI, an ordinary one does not", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/174");
  const banner = main(page).getByText("ATTENZIONE CONSEGNA IN 10 GIORNI");
  await expect(sizeGroup(page).getByRole("link", { name: /^12 pollici/ })).toHaveAttribute("aria-current", "true");
  await expect(banner).toHaveCount(0);

  await sizeGroup(page)
    .getByRole("link", { name: /^14 pollici/ })
    .click();
  await expect(page).toHaveURL(/size=14\+pollici/);
  await expect(banner).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an on-request product has no price, quantity or cart, and offers WhatsApp and e-mail", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/33");
  const name = await page.getByRole("heading", { level: 1 }).innerText();
  await expect(main(page).getByText("Prezzo su richiesta")).toBeVisible();
  await expect(main(page).getByRole("heading", { name: "Prodotto su richiesta" })).toBeVisible();
  await expect(quantity(page)).toHaveCount(0);
  await expect(main(page).getByRole("button", { name: "Aggiungi al carrello" })).toHaveCount(0);
  await expect(main(page).getByText("IVA inclusa")).toHaveCount(0);

  const whatsapp = main(page).getByRole("link", { name: "Chiedi su WhatsApp" });
  await expect(whatsapp).toHaveAttribute("href", /^https:\/\/wa\.me\/\d+\?text=/);
  expect(decodeURIComponent((await whatsapp.getAttribute("href"))!.split("text=")[1]!)).toContain(name);
  const mail = main(page).getByRole("link", { name: "Chiedi via e-mail" });
  await expect(mail).toHaveAttribute("href", /^mailto:[^?]+\?subject=/);
  expect(decodeURIComponent((await mail.getAttribute("href"))!)).toContain(`Richiesta informazioni: ${name}`);
  await expectNoAxeViolations(page);
});

test("a customisable product shows each labelled field with its maximum length and the cost per item", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/111");
  const fields = main(page).getByRole("group", { name: /Personalizzazione/ });
  await expect(fields).toBeVisible();
  await expect(fields.getByText("Incisione laser in stampatello, pronta in 3 giorni lavorativi.")).toBeVisible();
  await expect(fields.getByText("Costo della personalizzazione: 8,00 € a pezzo")).toBeVisible();
  await expect(fields.getByLabel("Nome del bambino")).toHaveAttribute("maxlength", "20");
  await expect(fields.getByLabel("Nome del bambino")).toHaveAttribute("name", "personalisation.0");
  await expect(fields.getByLabel("Data di nascita")).toHaveAttribute("maxlength", "30");
  await expect(fields.getByLabel("Data di nascita")).toHaveAttribute("name", "personalisation.1");
  await expectNoAxeViolations(page);
});

test("one-size products offer colours but no size choice", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/24");
  await expect(colourGroup(page)).toBeVisible();
  await expect(sizeGroup(page)).toHaveCount(0);
  await expect(main(page).getByText("TAGLIA_UNICA")).toHaveCount(0);
  await colourGroup(page).getByRole("link", { name: /Blu/ }).click();
  await expect(page).toHaveURL(/\?colour=blue$/);
  await expect(sizeGroup(page)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("the gallery: thumbnails pick the picture, the zoom opens and closes by keyboard", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/product/184");
  const thumbnails = main(page).getByRole("button", { name: /^Mostra l'immagine \d di 3$/ });
  await expect(thumbnails).toHaveCount(3);
  await thumbnails.nth(1).click();
  await expect(thumbnails.nth(1)).toHaveAttribute("aria-current", "true");

  const zoom = main(page).getByRole("button", { name: /Ingrandisci/ });
  await zoom.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: /immagine ingrandita/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Immagine 2 di 3")).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByText("Immagine 3 di 3")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(zoom).toBeFocused();
});

test("the English page names everything in English and reads NOT AVAILABLE when sold out", async ({ page, expectNoAxeViolations }) => {
  await page.goto("/en/product/184?colour=blue&size=xxl");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Summer muslin romper" })).toBeVisible();
  await expect(colourGroup(page, /^Colour/).getByRole("link", { name: /Blue/ })).toHaveAttribute("aria-current", "true");
  await expect(main(page).getByRole("button", { name: "NOT AVAILABLE" })).toBeDisabled();
  await expect(main(page).getByRole("heading", { name: "Technical sheet" })).toBeVisible();
  await expect(main(page).getByRole("link", { name: "Clothing" }).first()).toHaveAttribute("href", "/en/categoria/abbigliamento");
  await expectNoAxeViolations(page);

  await sizeGroup(page, /^Size/).getByRole("link", { name: /^XL\b/ }).click();
  await expect(main(page).getByRole("button", { name: "Add to cart" })).toBeEnabled();
  await expect(main(page).getByText("In stock: 31")).toBeVisible();
  await quantity(page, "Quantity").fill("99");
  await expect(quantity(page, "Quantity")).toHaveValue("31");
  await expect(quantity(page, "Quantity")).toHaveAccessibleDescription(/You can add at most 31\./);
});

test("a related product opens as a fresh page: first colour, first picture, quantity 1", async ({ page }) => {
  await page.goto("/product/184?colour=white&size=xl");
  await main(page).getByRole("button", { name: "Aumenta la quantità" }).click();
  await main(page).getByRole("button", { name: "Mostra l'immagine 2 di 3" }).click();
  await expect(quantity(page)).toHaveValue("2");

  const related = page.getByRole("region", { name: "Prodotti correlati" });
  await related.getByRole("link", { name: "Tutina in cotone biologico con piedini", exact: true }).click();
  await expect(page).toHaveURL(/\/product\/180$/);
  await expect(page.getByRole("heading", { level: 1, name: "Tutina in cotone biologico con piedini" })).toBeVisible();
  await expect(colourGroup(page).getByRole("link", { name: /Bianco/ })).toHaveAttribute("aria-current", "true");
  await expect(main(page).getByRole("button", { name: "Mostra l'immagine 1 di 3" })).toHaveAttribute("aria-current", "true");
  await expect(quantity(page)).toHaveValue("1");
});

test(
  "structured data: Product with its EUR offer, no rating without customers' reviews, and Home > category > product breadcrumbs",
  { tag: "@server-rule" },
  async ({ page }) => {
    const response = await page.goto("/product/184");
    const scripts = page.locator('script[type="application/ld+json"]');
    const blocks = (await scripts.allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);
    const product = blocks.find((block) => block["@type"] === "Product");
    expect(product).toMatchObject({
      name: "Pagliaccetto estivo in mussola",
      offers: { "@type": "Offer", price: "14.90", priceCurrency: "EUR", availability: "https://schema.org/InStock" },
    });
    // The shop's own stars are no customer's rating (decision 0059): without published reviews, no rating at all.
    expect(product).not.toHaveProperty("aggregateRating");
    expect(product).not.toHaveProperty("review");
    const breadcrumbs = blocks.find((block) => block["@type"] === "BreadcrumbList") as { itemListElement: { name: string }[] };
    expect(breadcrumbs.itemListElement.map((item) => item.name)).toEqual(["Home", "Abbigliamento", "Pagliaccetto estivo in mussola"]);
    // Our own scripts carry this response's CSP nonce (the browser hides it from getAttribute, not from .nonce),
    // unless the page is one kept for every visitor, whose policy lists hashes instead (decision 0074).
    const nonced = /'nonce-/.test((await response!.allHeaders())["content-security-policy"] ?? "");
    const nonces = await page
      .locator('main script[type="application/ld+json"]')
      .evaluateAll((elements) => elements.map((element) => (element as HTMLScriptElement).nonce));
    expect(nonces.length).toBeGreaterThan(0);
    for (const nonce of nonces) expect(nonce !== "").toBe(nonced);
  },
);

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // axe needs scripts in the page: the same pages are checked with JavaScript above.
  test("colour and size are links: the server renders the chosen variant", async ({ page }) => {
    await page.goto("/product/184");
    await colourGroup(page).getByRole("link", { name: /Blu/ }).click();
    await expect(page).toHaveURL(/\?colour=blue&size=x$/);
    await expect(colourGroup(page).getByRole("link", { name: /Blu/ })).toHaveAttribute("aria-current", "true");
    await expect(quantity(page)).toHaveAttribute("max", "53");
    await sizeGroup(page)
      .getByRole("link", { name: /^XXL\b/ })
      .click();
    await expect(main(page).getByRole("button", { name: "NON DISPONIBILE" })).toBeDisabled();
    // Every picture is still there: each thumbnail links to the full-size picture.
    await expect(main(page).getByRole("link", { name: /^Mostra l'immagine \d di 2$/ })).toHaveCount(2);
  });
});

test.describe("missing products", () => {
  // Chromium reports the document's own 404 status as a console error.
  test.use({ allowedBrowserErrors: [/status of 404/] });

  for (const id of ["999999", "abc", "-5", "12abc", "99999999999999999999"]) {
    test(`/product/${id} answers the 404 page`, { tag: "@server-rule" }, async ({ page, expectNoAxeViolations }) => {
      const response = await page.goto(`/product/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByText("OPPS! Pagina o Prodotto non trovato")).toBeVisible();
      await expect(page).toHaveTitle(/^Pagina non trovata/);
      if (id === "abc") await expectNoAxeViolations(page);
    });
  }
});

test("quick view: opens by keyboard, changes colour and size, shows Out of Stock, closes with Escape", async ({ page, expectNoAxeViolations }) => {
  // Product 184's card, found by the shop's search.
  await page.goto("/en/shop?search=muslin+romper");
  const opener = main(page).getByRole("button", { name: "Quick view of Summer muslin romper" });
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Summer muslin romper" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close the quick view" })).toBeFocused();
  await expect(dialog.getByRole("group", { name: /^Colour/ })).toBeVisible();
  await expectNoAxeViolations(page);

  // Tab never leaves the dialog.
  for (let step = 0; step < 16; step++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }

  const colours = dialog.getByRole("group", { name: /^Colour/ });
  const sizes = dialog.getByRole("group", { name: /^Size/ });
  // A typed number over the limit is changed and the dialog says why; another size takes the note away.
  await dialog.getByLabel("Quantity", { exact: true }).fill("999");
  await expect(dialog.getByText(/^You can add at most \d+\.$/)).toBeVisible();
  await sizes.getByRole("button", { name: /^XL\b/ }).click();
  await expect(dialog.getByText(/You can add at most/)).toHaveCount(0);
  await dialog.getByRole("button", { name: "Increase the quantity" }).click();
  await expect(dialog.getByLabel("Quantity", { exact: true })).toHaveValue("2");
  await colours.getByRole("button", { name: /Blue/ }).focus();
  await page.keyboard.press("Enter");
  await expect(colours.getByRole("button", { name: /Blue/ })).toHaveAttribute("aria-pressed", "true");
  await expect(sizes.getByRole("button", { name: /^X\b/ })).toHaveAttribute("aria-pressed", "true");
  await expect(dialog.getByLabel("Quantity", { exact: true })).toHaveValue("1");
  await expect(dialog.getByText("In stock: 53")).toBeVisible();
  // The page's toasts sit behind a modal dialog: the outcome is also said inside it.
  await dialog.getByRole("button", { name: "Add to cart" }).click();
  await expect(dialog.getByRole("status").getByText("Added to cart")).toBeVisible();
  await expect(dialog.getByText("In your cart: 1")).toBeVisible();

  await sizes.getByRole("button", { name: /^XXL\b/ }).press(" ");
  await expect(dialog.getByRole("button", { name: "Out of Stock" })).toBeDisabled();
  await expect(dialog.getByRole("link", { name: /Buy now/ })).toHaveCount(0);

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("quick view: the affiliate Buy now link opens in a new tab as a sponsored link", { tag: "@server-rule" }, async ({ page }) => {
  await page.goto("/shop?search=Goody");
  await main(page)
    .getByRole("button", { name: /^Anteprima rapida di Passeggino leggero Chicco Goody/ })
    .click();
  const dialog = page.getByRole("dialog");
  const buyNow = dialog.getByRole("link", { name: /Acquista ora/ });
  await expect(buyNow).toHaveAttribute("href", "https://www.amazon.it/dp/B0C1GOODY1");
  await expect(buyNow).toHaveAttribute("rel", "sponsored noopener");
  await expect(buyNow).toHaveAttribute("target", "_blank");
  await dialog.getByRole("button", { name: "Chiudi l'anteprima" }).click();
  await expect(dialog).toBeHidden();
});
