import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { italianDayOf } from "../common/shop-calendar";
import { expect as baseExpect, longJourneyLocales, test } from "./fixtures";
import { openHydrated as open } from "./shop-helpers";

// Each step waits for a server round trip on a machine shared with other suites: allow for it.
const expect = baseExpect.configure({ timeout: 20_000 });

// Issue 19, item 5: filling a birth list while browsing. Sample products (server/db/sample-catalogue.ts):
// the bathing category ("Bagnetto") has products of one variant, whose cards add straight to the list;
// 184 the muslin romper (colours and sizes) is added from the quick view with its size and a quantity.

test.use({ signedInAs: "customer" });

const texts = {
  it: {
    createForm: "Crea una nuova lista",
    title: "Titolo della lista",
    eventDate: "Data dell'evento",
    names: "Nomi dei festeggiati",
    create: "Crea la lista",
    created: "La lista è stata creata.",
    start: "Aggiungi prodotti",
    bar: /^Lista nascita che stai riempiendo/,
    products: (count: number) => (count === 1 ? "1 prodotto" : `${count} prodotti`),
    units: (count: number) => (count === 1 ? "1 pezzo" : `${count} pezzi`),
    cardAdd: /^Aggiungi alla lista: /,
    added: (name: string, title: string) => `«${name}» aggiunto alla lista «${title}».`,
    quickView: "Anteprima rapida di Pagliaccetto estivo in mussola",
    selector: "Aggiungi alla lista nascita",
    yourList: "La tua lista",
    addToList: "Aggiungi alla lista",
    childName: "Nome del bambino",
    personalisationMissing: "Personalizzazione non inserita!",
    romper: "Pagliaccetto estivo in mussola",
    size: /^Taglia/,
    increase: "Aumenta la quantità",
    quickAdd: (title: string) => `Aggiungi alla lista «${title}»`,
    viewList: "Vedi la lista",
    items: "Articoli della lista",
    stop: "Smetti di aggiungere",
  },
  en: {
    createForm: "Create a new list",
    title: "List title",
    eventDate: "Event date",
    names: "Names of the people celebrated",
    create: "Create the list",
    created: "The list has been created.",
    start: "Add products",
    bar: /^The birth list you are filling/,
    products: (count: number) => (count === 1 ? "1 product" : `${count} products`),
    units: (count: number) => (count === 1 ? "1 piece" : `${count} pieces`),
    cardAdd: /^Add to list: /,
    added: (name: string, title: string) => `“${name}” added to the list “${title}”.`,
    quickView: "Quick view of Summer muslin romper",
    selector: "Add to gift list",
    yourList: "Your list",
    addToList: "Add to the list",
    childName: "Baby's name",
    personalisationMissing: "Personalisation not entered!",
    romper: "Summer muslin romper",
    size: /^Size/,
    increase: "Increase the quantity",
    quickAdd: (title: string) => `Add to the list “${title}”`,
    viewList: "View the list",
    items: "Items on the list",
    stop: "Stop adding",
  },
} as const;

const main = (page: Page) => page.locator("main");
const toast = (page: Page, text: string) => page.locator("[data-toast-kind]").filter({ hasText: text });

/** A fresh list of the signed-in customer, made through the owner's page. */
async function createList(page: Page, locale: "it" | "en", title: string) {
  const t = texts[locale];
  await open(page, locale === "en" ? "/en/crea-lista-nascita" : "/crea-lista-nascita");
  const form = page.getByRole("form", { name: t.createForm });
  await form.getByLabel(t.title).fill(title);
  await form.getByLabel(t.eventDate).fill(italianDayOf(new Date(Date.now() + 60 * 24 * 60 * 60 * 1000)));
  await form.getByLabel(t.names).fill("Nicolò");
  await form.getByRole("button", { name: t.create }).click();
  await expect(page.getByRole("status").filter({ hasText: t.created })).toBeVisible();
}

for (const locale of longJourneyLocales) {
  const t = texts[locale];
  const prefix = locale === "en" ? "/en" : "";

  test(`${locale}: the owner chooses a list, adds two products from cards and one from the quick view, and finds the three on the list`, async ({
    page,
    expectNoAxeViolations,
  }, testInfo) => {
    test.setTimeout(120_000);
    const title = `Lista ${locale} ${crypto.randomBytes(3).toString("hex")}`;
    await createList(page, locale, title);
    const listCard = page.getByRole("article", { name: title });
    await listCard.getByRole("button", { name: `${t.start} ${title}` }).click();

    // The shop opens with the list chosen: the bar names it, with nothing on it yet.
    await expect(page).toHaveURL(new RegExp(`${prefix}/shop$`));
    const bar = page.getByRole("complementary", { name: t.bar });
    await expect(bar).toContainText(title);
    const total = bar.getByTestId("gift-list-filling-total");
    await expect(total).toContainText(`${t.products(0)}, ${t.units(0)}.`);
    const emptyTotal = await total.innerText();

    // A category: two products of one variant go to the list from their cards.
    await open(page, `${prefix}/categoria/Bagnetto`);
    await expectNoAxeViolations(page);
    const cardButtons = main(page).getByRole("button", { name: t.cardAdd });
    const names: string[] = [];
    for (const index of [0, 1]) {
      const button = cardButtons.nth(index);
      // The button's name ends with its product's: "Aggiungi alla lista: Termometro da bagno paperella".
      names.push(((await button.getAttribute("aria-label")) ?? "").replace(t.cardAdd, ""));
      await button.click();
      await expect(toast(page, t.added(names[index]!, title))).toBeVisible();
      await expect(total).toContainText(`${t.products(index + 1)}, ${t.units(index + 1)}.`);
    }
    const twoTotal = await total.innerText();
    expect(twoTotal).not.toBe(emptyTotal);
    // Further down the category the bar and its running total are still in sight.
    await main(page).getByRole("button", { name: t.cardAdd }).last().scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath(`filling-scrolled-${locale}.png`) });
    // At the end of the page the bar, at the bottom of the screen, hides none of the footer.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footerLine = page.getByRole("contentinfo").getByRole("link", { name: "Cookie policy" }).last();
    await expect(footerLine).toBeInViewport({ ratio: 1 });
    await expect(async () => {
      const [footerBox, barBox] = [await page.getByRole("contentinfo").boundingBox(), await bar.boundingBox()];
      expect(Math.round(footerBox!.y + footerBox!.height)).toBeLessThanOrEqual(Math.round(barBox!.y));
    }).toPass({ timeout: 10_000 });
    await page.screenshot({ path: `/tmp/h-filling-cards-${locale}-${testInfo.project.name}.png` });

    // The clothing category: the romper's quick view, a size and two of it.
    await open(page, `${prefix}/categoria/abbigliamento`);
    await main(page).getByRole("button", { name: t.quickView }).click();
    const dialog = page.getByRole("dialog", { name: t.romper });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("group", { name: t.size }).getByRole("button", { name: /^XL\b/ }).click();
    await dialog.getByRole("button", { name: t.increase }).click();
    await dialog.getByRole("button", { name: new RegExp(`^${t.quickAdd(title).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) }).click();
    // The page's toasts sit behind a modal dialog: the outcome is also said inside it.
    await expect(dialog.getByRole("status").getByText(t.added(t.romper, title))).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/h-filling-quick-view-${locale}-${testInfo.project.name}.png` });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(total).toContainText(`${t.products(3)}, ${t.units(4)}.`);
    expect(await total.innerText()).not.toBe(twoTotal);
    await expectNoAxeViolations(page);

    // Back to the list: the three are there, the romper wished twice.
    await bar.getByRole("link", { name: t.viewList }).click();
    await expect(page).toHaveURL(new RegExp(`${prefix}/crea-lista-nascita#list-`));
    const items = page.getByRole("article", { name: title }).getByRole("region", { name: t.items });
    for (const name of [...names, t.romper]) await expect(items.getByText(name, { exact: true }).first()).toBeVisible();
    await expect(items.getByRole("listitem")).toHaveCount(3);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `/tmp/h-filling-list-${locale}-${testInfo.project.name}.png`, fullPage: true });

    // Stopping takes the bar away.
    await bar.getByRole("button", { name: t.stop }).click();
    await expect(page.getByRole("complementary", { name: t.bar })).toHaveCount(0);
  });
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];
  // Desktop only: the phone's personalisation message is checked in shop-details.spec.ts.
  test(
    `${locale}: an empty personalisation in the product page's list selector gets the shop's message, the field marked and focused`,
    { tag: "@desktop-only" },
    async ({ page, expectNoAxeViolations }, testInfo) => {
      test.setTimeout(90_000);
      const title = `Lista incisa ${locale} ${crypto.randomBytes(3).toString("hex")}`;
      await createList(page, locale, title);
      // 111 the engraved frame: two texts, both needed.
      await open(page, `${locale === "en" ? "/en" : ""}/product/111`);
      const selector = main(page).getByRole("region", { name: t.selector });
      await selector.getByLabel(t.yourList).selectOption({ label: title });
      await selector.getByRole("button", { name: t.addToList, exact: true }).click();
      await expect(selector.getByText(t.personalisationMissing)).toBeVisible();
      const field = selector.getByLabel(t.childName);
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toBeFocused();
      // Nothing was sent: no confirmation dialog opened.
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`selector-personalisation-${locale}.png`) });
      await expectNoAxeViolations(page);
      // Once typed, the mark goes and the confirmation opens.
      await field.fill("Nicolò");
      await expect(field).not.toHaveAttribute("aria-invalid", "true");
    },
  );
}

// Desktop only: the same card forms as the journey above; without JavaScript they are plain posts.
test(
  "without JavaScript, a card's add button posts and comes back with the toast and the new total",
  { tag: "@desktop-only" },
  async ({ browser, signedIn, baseURL }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: signedIn!.storageState, baseURL });
    const page = await context.newPage();
    const title = `Lista senza JS ${crypto.randomBytes(3).toString("hex")}`;
    const t = texts.it;
    await page.goto("/crea-lista-nascita");
    const form = page.getByRole("form", { name: t.createForm });
    await form.getByLabel(t.title).fill(title);
    await form.getByLabel(t.eventDate).fill(italianDayOf(new Date(Date.now() + 60 * 24 * 60 * 60 * 1000)));
    await form.getByLabel(t.names).fill("Nicolò");
    await form.getByRole("button", { name: t.create }).click();
    await page
      .getByRole("article", { name: title })
      .getByRole("button", { name: `${t.start} ${title}` })
      .click();
    await expect(page).toHaveURL(/\/shop$/);
    await page.goto("/categoria/Bagnetto");
    await main(page).getByRole("button", { name: t.cardAdd }).first().click();
    await expect(page).toHaveURL(/\/categoria\/Bagnetto$/);
    await expect(page.locator("[data-toast-kind]").filter({ hasText: "Prodotto aggiunto alla lista selezionata" })).toBeVisible();
    await expect(page.getByRole("complementary", { name: t.bar }).getByTestId("gift-list-filling-total")).toContainText(
      `${t.products(1)}, ${t.units(1)}.`,
    );
    await context.close();
  },
);
