import type { Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";

// Issue 3, listing and search: sort, filters with counts, groups, pagination, search (all words,
// stemming, typos, suggestions), bad input, without JavaScript, in English. Axe on every page.

// Listing pages carry 24 cards each: axe and the checks take a while on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });
const expect = baseExpect.configure({ timeout: 15_000 });

const products = (page: Page) => page.getByRole("region", { name: /^(Prodotti|Products)$/ }).locator("article");
const resultCount = (page: Page) => page.locator('p[role="status"]').filter({ hasText: /^\d+ (prodott|product)/ });
const filters = (page: Page) => page.getByRole("form", { name: /^(Filtri|Filters)$/ });

/** The prices the cards show first (what the customer pays), in cents, in page order; "on request" cards left out. */
async function pricesOnPage(page: Page): Promise<number[]> {
  const texts = await products(page).evaluateAll((cards) => cards.map((card) => (card as HTMLElement).innerText.replace(/\s+/g, " ")));
  return texts.flatMap((text) => {
    const match = /(\d+(?:\.\d{3})*,\d{2}) €/.exec(text);
    return match ? [Number(match[1]!.replace(/\./g, "").replace(",", ""))] : [];
  });
}

async function countShown(page: Page): Promise<number> {
  return Number(/^(\d+)/.exec((await resultCount(page).innerText()).trim())![1]);
}

/** Opens a listing and waits until it runs with JavaScript (its no-JavaScript sort button is gone). */
async function openListing(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("button", { name: /^(Ordina|Sort)$/ })).toHaveCount(0);
}

/** On phones the filters fold away in a disclosure. */
async function openFilters(page: Page) {
  const toggle = page.locator("summary", { hasText: /^(Filtri|Filters)/ });
  if ((await toggle.isVisible()) && !(await toggle.evaluate((summary) => (summary.parentElement as HTMLDetailsElement).open))) await toggle.click();
  await expect(filters(page)).toBeVisible();
}

/** Ticks a filter option and waits for the listing it leads to; returns the count the option announced. */
async function tick(page: Page, legend: string, option: string, param: string): Promise<number> {
  await openFilters(page);
  const box = filters(page)
    .getByRole("group", { name: legend })
    .getByRole("checkbox", { name: new RegExp(`^${option} \\d`) });
  const announced = Number(/^(\d+) prodott/.exec((await box.locator("xpath=ancestor::label").locator(".sr-only").textContent()) ?? "")![1]);
  await box.check();
  await expect(page).toHaveURL(new RegExp(`[?&]${param}=`));
  await expect(box).toBeChecked();
  return announced;
}

// Desktop only: sorting and paging use the same form as the filters, which run on the phone.
test(
  "the shop sorts by the price paid today and pages through 24 at a time, keeping the sort",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await openListing(page, "/shop?sort=priceLowToHigh");
    await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
    await expect(products(page)).toHaveCount(24);
    const first = await pricesOnPage(page);
    expect(first).toEqual([...first].sort((a, b) => a - b));
    await expectNoAxeViolations(page);

    await page.getByRole("navigation", { name: "Pagine" }).getByRole("link", { name: "Successiva" }).click();
    await expect(page).toHaveURL(/\/shop\?sort=priceLowToHigh&page=2$/);
    await expect(page.getByText("Pagina 2 di 8")).toBeVisible();
    const second = await pricesOnPage(page);
    expect(second[0]).toBeGreaterThanOrEqual(first.at(-1)!);
    await expect(page.getByRole("link", { name: "Pagina 2", exact: true })).toHaveAttribute("aria-current", "page");
    await expectNoAxeViolations(page);

    // the sort control: highest price first
    await page.getByLabel("Ordina per").selectOption("priceHighToLow");
    await expect(page).toHaveURL(/sort=priceHighToLow/);
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByLabel("Ordina per")).toHaveValue("priceHighToLow");
    await expect.poll(async () => (await pricesOnPage(page))[0]).toBeGreaterThan(100_000);
    const high = await pricesOnPage(page);
    expect(high).toEqual([...high].sort((a, b) => b - a));
  },
);

// A large screen's layout: a phone shows fewer cards per row, by design.
test("4 products per row on a large screen @desktop-only", async ({ page }) => {
  await page.goto("/shop");
  const tops = await Promise.all((await products(page).all()).slice(0, 5).map(async (card) => (await card.boundingBox())!.y));
  expect(new Set(tops.slice(0, 4)).size).toBe(1);
  expect(tops[4]).toBeGreaterThan(tops[0]!);
});

test("the category and brand filters narrow the listing to the count they announced, and combine", async ({ page, expectNoAxeViolations }) => {
  await openListing(page, "/shop");
  const all = await countShown(page);

  const pappa = await tick(page, "Categoria", "Pappa", "category");
  await expect(resultCount(page)).toHaveText(`${pappa} prodotti`);
  expect(pappa).toBeLessThan(all);
  await expectNoAxeViolations(page);

  // a brand on top of the category: both in the address, fewer products
  const chicco = await tick(page, "Marca", "Chicco", "tag");
  await expect(page).toHaveURL(/category=pappa&tag=chicco/);
  await expect(resultCount(page)).toHaveText(new RegExp(`^${chicco} prodott`));
  for (const card of await products(page).all()) await expect(card).toContainText("CHICCO", { ignoreCase: true });

  // removing one filter keeps the other
  await page.getByRole("list", { name: "Filtri attivi" }).getByRole("link", { name: /Pappa/ }).click();
  await expect(page).toHaveURL(/\/shop\?tag=chicco$/);
  await expectNoAxeViolations(page);
});

// Desktop only: the same filter form as the category and brand filters, which run on the phone.
test(
  "the colour and size filters narrow the listing; one link clears every filter",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await openListing(page, "/shop");
    const all = await countShown(page);
    const black = await tick(page, "Colore", "Nero", "color");
    await expect(resultCount(page)).toHaveText(`${black} prodotti`);
    // a size on top of the colour: the size's count already took the colour into account
    const size = await tick(page, "Taglia", "M", "size");
    await expect(page).toHaveURL(/color=black&size=m$/);
    await expect(resultCount(page)).toHaveText(new RegExp(`^${size} prodott`));
    expect(size).toBeLessThanOrEqual(black);
    await expectNoAxeViolations(page);
    await page.getByRole("link", { name: "Cancella tutti i filtri" }).first().click();
    await expect(resultCount(page)).toHaveText(`${all} prodotti`);
  },
);

// Desktop only: one more filter group of the same form the phone's filter journeys check.
test(
  "the 'on sale' group shows only discounted products, and keeps the other choices",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await page.goto("/categoria/A-spasso?sort=priceLowToHigh");
    await page.getByRole("navigation", { name: "Gruppi di prodotti" }).getByRole("link", { name: "In offerta" }).click();
    await expect(page).toHaveURL(/\/categoria\/A-spasso\?group=saleItems&sort=priceLowToHigh$/);
    await expect(page.getByRole("link", { name: "In offerta" })).toHaveAttribute("aria-current", "page");
    const cards = await products(page).all();
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) await expect(card.getByText(/^-\d+%$/)).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

test(
  "page numbers out of range and unknown choices are handled without an error",
  { tag: "@server-rule" },
  async ({ page, expectNoAxeViolations }) => {
    await page.goto("/shop?page=99999");
    await expect(page.getByText("Pagina 8 di 8")).toBeVisible();
    await expect(page.getByRole("link", { name: "Pagina 8", exact: true })).toHaveAttribute("aria-current", "page");

    await page.goto("/shop?page=-1&sort=cheapest&color=plaid&group=everything");
    await expect(page.getByText("Pagina 1 di 8")).toBeVisible();
    await expect(page.getByLabel("Ordina per")).toHaveValue("default");
    await expect(page.getByRole("list", { name: "Filtri attivi" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  },
);

test.describe("unknown listings", () => {
  test.use({ allowedBrowserErrors: [/status of 404/] });

  test("an unknown category, subcategory or brand is the 404 page", { tag: "@server-rule" }, async ({ page, expectNoAxeViolations }) => {
    for (const path of ["/categoria/nope", "/sottocategoria/nope", "/marchi/nope", "/en/categoria/nope"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
    }
    await expect(page.getByRole("heading", { level: 1 })).toContainText("404");
    await expectNoAxeViolations(page);
  });
});

test(
  "search: every word must match, plurals find singulars, typos still find the product",
  { tag: "@server-rule" },
  async ({ page, expectNoAxeViolations }) => {
    // the list layout shows name, brand and short description: where the words may match
    await page.goto("/shop-grid-standard?fromsearch=true&search=passeggino%20chicco");
    await expect(page.getByRole("heading", { level: 1, name: "Risultati della ricerca" })).toBeVisible();
    await expect(page.getByText("Prodotti trovati per «passeggino chicco»")).toBeVisible();
    const cards = await products(page).all();
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      await expect(card).toContainText(/passeggin/i);
      await expect(card).toContainText(/chicco/i);
    }
    await expectNoAxeViolations(page);

    await page.goto("/shop?fromsearch=true&search=passeggini");
    await expect(products(page).first()).toContainText("Passeggino");
    await expect(page.getByRole("link", { name: "Passeggino leggero Chicco Goody Xplus", exact: true })).toBeVisible();

    await page.goto("/shop?fromsearch=true&search=pasegino");
    await expect(page.getByText("Nessun prodotto corrisponde a «pasegino»: ecco i risultati per «passeggino»")).toBeVisible();
    await expect(products(page).first()).toContainText("Passeggino");
    await expectNoAxeViolations(page);
  },
);

test("the header's search box leads to the shop's results", async ({ page }, testInfo) => {
  const onPhone = testInfo.project.name === "phone";
  await page.goto("/about");
  // On a phone the header's search sits in the off-canvas menu. Once hydrated the summary carries aria-expanded
  // (a tap before that may be undone by hydration, see foundation.spec.ts).
  const opener = page.getByRole("banner").locator("summary", { hasText: onPhone ? "Apri il menu" : "Cerca" });
  await expect(opener).toHaveAttribute("aria-expanded", "false");
  await opener.click();
  const box = page.getByRole("banner").getByRole("combobox", { name: "Cerca prodotti" }).filter({ visible: true });
  await box.fill("lettino");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/shop\?fromsearch=true&search=lettino$/);
  await expect(page.getByText("Prodotti trovati per «lettino»")).toBeVisible();
  // the listing has its own search box, the header's is hidden there
  await expect(page.getByRole("banner").locator("summary", { hasText: "Cerca" })).toHaveCount(0);
});

// Desktop only: arrow keys are a keyboard's; the phone's search box is checked above.
test("suggestions while typing: a listbox the arrow keys move through", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
  await openListing(page, "/shop");
  const box = page.getByRole("combobox", { name: "Cerca tra questi prodotti" });
  await box.pressSequentially("passegg", { delay: 30 });
  const listbox = page.getByRole("listbox", { name: "Prodotti suggeriti" });
  await expect(listbox).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await expect(listbox.getByRole("option").first()).toContainText("Passeggino");
  await expectNoAxeViolations(page);

  await box.press("ArrowDown");
  const first = listbox.getByRole("option").first();
  await expect(first).toHaveAttribute("aria-selected", "true");
  await expect(box).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
  const name = (await first.locator(".line-clamp-2").innerText()).trim();
  await box.press("Enter");
  await expect(page).toHaveURL(/\/product\/\d+$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
});

test(
  "SQL and HTML in a search are shown as typed and matched as plain words; a very long search is cut",
  { tag: "@server-rule" },
  async ({ page, expectNoAxeViolations }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      // Counting is the check; the dismissal only keeps the page going.
      void dialog.dismiss();
    });
    await page.goto(`/shop?fromsearch=true&search=${encodeURIComponent("<script>alert(1)</script>")}`);
    await expect(page.getByText("«<script>alert(1)</script>»")).toBeVisible();
    await expect(page.getByText("Nessun prodotto trovato")).toBeVisible();
    await page.goto(`/shop?fromsearch=true&search=${encodeURIComponent("'; DROP TABLE products; --")}`);
    await expect(page.getByText("«'; DROP TABLE products; --»")).toBeVisible();
    await expectNoAxeViolations(page);
    expect(dialogs).toBe(0);

    const response = await page.goto(`/shop?fromsearch=true&search=${"passeggino".repeat(200)}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByText("La ricerca era troppo lunga: abbiamo usato i primi 100 caratteri.")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Cerca tra questi prodotti" })).toHaveValue("passeggino".repeat(10));
  },
);

// Desktop only: a plain list of links, laid out as the listings the phone checks.
test("brands: the index links to each brand's listing", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
  await page.goto("/marchi");
  await expect(page.getByRole("heading", { level: 1, name: "Marchi" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: /^Peg Perego/ }).click();
  await expect(page).toHaveURL(/\/marchi\/peg-perego$/);
  await expect(page.getByRole("heading", { level: 1, name: "Peg Perego" })).toBeVisible();
  for (const card of await products(page).all()) await expect(card).toContainText("PEG PEREGO", { ignoreCase: true });
  await expectNoAxeViolations(page);
});

// Desktop only: English copy: the phone runs the Italian pages.
test("the English listing speaks English and keeps its filters under /en", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
  await page.goto("/en/categoria/pappa");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: "Feeding" })).toBeVisible();
  await expect(resultCount(page)).toHaveText(/^\d+ products$/);
  await expect(page.getByRole("navigation", { name: "Subcategories" })).toBeVisible();
  await expectNoAxeViolations(page);

  await openListing(page, "/en/shop?fromsearch=true&search=strollers");
  await expect(page.getByText("Products matching “strollers”")).toBeVisible();
  await expect(products(page).first()).toContainText(/stroller/i);
  await openFilters(page);
  const box = filters(page).getByRole("group", { name: "Brand" }).getByRole("checkbox").first();
  await box.check();
  await expect(page).toHaveURL(/\/en\/shop\?fromsearch=true&search=strollers&tag=/);
  await expectNoAxeViolations(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // axe needs scripts in the page: the same pages are checked with JavaScript above.
  test("the filter and sort forms work as plain forms", async ({ page }) => {
    await page.goto("/shop");
    await openFilters(page);
    const form = filters(page);
    await form
      .getByRole("group", { name: "Categoria" })
      .getByRole("checkbox", { name: /^Bagnetto/ })
      .check();
    await form
      .getByRole("group", { name: "Marca" })
      .getByRole("checkbox", { name: /^Chicco \d/ })
      .check();
    await form.getByRole("button", { name: "Applica i filtri" }).click();
    await expect(page).toHaveURL(/\/shop\?category=Bagnetto&tag=chicco$/);
    const filtered = await countShown(page);
    expect(filtered).toBeGreaterThan(0);
    await expect(products(page)).toHaveCount(filtered);

    await page.getByLabel("Ordina per").selectOption("priceHighToLow");
    await page.getByRole("button", { name: "Ordina", exact: true }).click();
    await expect(page).toHaveURL(/category=Bagnetto&tag=chicco&sort=priceHighToLow/);
    const prices = await pricesOnPage(page);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });
});
