import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** The seeded fallback rates (server/currency/rates.ts): no rates endpoint is configured in e2e. */
const ratesPerEur = { USD: 1.08, GBP: 0.85 } as const;

/** The first product of the home page's rows. */
const firstProduct = (page: Page) => page.locator("main article").first();

/** "1.234,50 €" (it) or "€1,234.50" (en) -> { amount: 1234.5, symbol: "€" } */
async function priceIn(product: Locator, locale: "it" | "en") {
  const text = (await product.textContent()) ?? "";
  const match = locale === "it" ? /(\d{1,3}(?:\.\d{3})*,\d{2})\s([€$£])/.exec(text) : /([€$£])(\d{1,3}(?:,\d{3})*\.\d{2})/.exec(text);
  if (!match) return null;
  const [number, symbol] = locale === "it" ? [match[1]!, match[2]!] : [match[2]!, match[1]!];
  const amount = Number(locale === "it" ? number.replace(/\./g, "").replace(",", ".") : number.replace(/,/g, ""));
  return { amount, symbol };
}

/** Once hydrated, the switch applies on change and its submit button goes away. */
async function hydratedSwitch(page: Page, name: "Valuta" | "Currency") {
  await expect(page.getByRole("button", { name: name === "Valuta" ? "Cambia valuta" : "Change currency" })).toHaveCount(0);
  return page.getByRole("combobox", { name });
}

/** Saving the choice and reloading the page's data takes a few seconds on a busy 2-core machine. */
const afterSwitch = { timeout: 15_000 };

const converted = (eur: number, rate: number) => Math.round(Math.round(eur * 100) * rate) / 100;

test("switching to USD and GBP shows prices in that currency, remembered from page to page", async ({ page, expectNoAxeViolations }) => {
  test.slow();
  await page.goto("/");
  const product = firstProduct(page);
  const euro = await priceIn(product, "it");
  expect(euro?.symbol).toBe("€");

  const currency = await hydratedSwitch(page, "Valuta");
  await expect(currency).toHaveValue("EUR");
  await expect(currency).toHaveAccessibleDescription("Il pagamento avviene sempre in euro (EUR).");
  await currency.focus();
  await currency.selectOption("USD");

  await expect.poll(() => priceIn(product, "it"), afterSwitch).toEqual({ amount: converted(euro!.amount, ratesPerEur.USD), symbol: "$" });
  await expect(currency).toHaveValue("USD");
  await expect(currency).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Prezzi mostrati in Dollaro USA." })).toBeAttached();
  await expect(page.getByText("Prezzi indicativi in USD al cambio di riferimento BCE: il pagamento avviene sempre in euro (EUR).")).toBeVisible();
  await expectNoAxeViolations(page);

  // Another page, then back: the cookie keeps the choice.
  await page.goto("/about");
  await expect(page.getByRole("combobox", { name: "Valuta" })).toHaveValue("USD");
  await page.goto("/");
  await expect.poll(() => priceIn(firstProduct(page), "it"), afterSwitch).toEqual({ amount: converted(euro!.amount, ratesPerEur.USD), symbol: "$" });

  await (await hydratedSwitch(page, "Valuta")).selectOption("GBP");
  await expect.poll(() => priceIn(firstProduct(page), "it"), afterSwitch).toEqual({ amount: converted(euro!.amount, ratesPerEur.GBP), symbol: "£" });

  await (await hydratedSwitch(page, "Valuta")).selectOption("EUR");
  await expect.poll(() => priceIn(firstProduct(page), "it"), afterSwitch).toEqual(euro);
  await expect(page.getByText(/Prezzi indicativi/)).toHaveCount(0);
});

// Desktop only: English copy: the phone runs the Italian pages.
test("English pages switch currency too, in English", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
  test.slow();
  await page.goto("/en");
  const euro = await priceIn(firstProduct(page), "en");
  expect(euro?.symbol).toBe("€");

  const currency = await hydratedSwitch(page, "Currency");
  await expect(currency).toHaveAccessibleDescription("Payment is always taken in euros (EUR).");
  await currency.selectOption("GBP");

  await expect.poll(() => priceIn(firstProduct(page), "en"), afterSwitch).toEqual({ amount: converted(euro!.amount, ratesPerEur.GBP), symbol: "£" });
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByText("Prices in GBP are a guide at the ECB reference rate: payment is always taken in euros (EUR).")).toBeVisible();
  await expectNoAxeViolations(page);
});

// Decision 0115: the switch's no-script button once wrapped the top bar's line on a phone, and the page moved up
// 24 px when the scripts removed it (a layout shift of 0.19 on every first page).
test("the top bar is as tall before the scripts run as after: nothing below it moves", async ({ browser, page }, testInfo) => {
  for (const path of ["/", "/en"]) {
    const noScripts = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      javaScriptEnabled: false,
      viewport: testInfo.project.use.viewport ?? null,
    });
    const plain = await noScripts.newPage();
    await plain.goto(path);
    await expect(plain.getByRole("button", { name: path === "/" ? "Cambia valuta" : "Change currency" })).toBeVisible();
    const before = (await plain.getByRole("main").boundingBox())!.y;
    await noScripts.close();

    await page.goto(path);
    await hydratedSwitch(page, path === "/" ? "Valuta" : "Currency");
    expect((await page.getByRole("main").boundingBox())!.y).toBe(before);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  // Desktop only: the same switch as the journey above, which runs on the phone; without JavaScript it is a plain post.
  test("the switch is a form with a button that comes back to the same page", { tag: "@desktop-only" }, async ({ page }) => {
    await page.goto("/en/about");
    await page.getByRole("combobox", { name: "Currency" }).selectOption("USD");
    await page.getByRole("button", { name: "Change currency" }).click();

    await expect(page).toHaveURL(/\/en\/about$/);
    await expect(page.getByRole("combobox", { name: "Currency" })).toHaveValue("USD");
    await page.goto("/en");
    expect((await priceIn(firstProduct(page), "en"))?.symbol).toBe("$");
  });
});

// The posts and their answers do not depend on the screen (the switch itself is checked on both above): checked once.
test("an unknown currency changes nothing; API-like callers get a clear 400", { tag: "@desktop-only" }, async ({ page }) => {
  await page.goto("/");
  const euro = await priceIn(firstProduct(page), "it");
  const set = await page.request.post("/currency", { form: { currency: "USD", redirectTo: "/" }, maxRedirects: 0 });
  expect(set.status()).toBe(303);

  const bogus = await page.request.post("/currency", { form: { currency: "XYZ", redirectTo: "/en/about" }, maxRedirects: 0 });
  expect(bogus.status()).toBe(303);
  expect(bogus.headers()["location"]).toBe("/en/about");
  expect(bogus.headers()["set-cookie"]).toBeUndefined();

  const api = await page.request.post("/currency", { data: { currency: "JPY" } });
  expect(api.status()).toBe(400);
  expect(await api.json()).toEqual({ error: { code: "unknown-currency", message: "Valuta non disponibile: scegli tra EUR, USD e GBP." } });

  const away = await page.request.post("/currency", { form: { currency: "GBP", redirectTo: "https://evil.example/" }, maxRedirects: 0 });
  expect(away.headers()["location"]).toBe("/");

  await page.request.post("/currency", { form: { currency: "USD" }, maxRedirects: 0 });
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Valuta" })).toHaveValue("USD");
  expect(await priceIn(firstProduct(page), "it")).toEqual({ amount: converted(euro!.amount, ratesPerEur.USD), symbol: "$" });
});

// Files for search engines, not a screen: checked once.
test("sitemap.xml is well-formed and lists every kind of page in both languages", { tag: "@desktop-only" }, async ({ page }) => {
  const robots = await page.request.get("/robots.txt");
  expect(await robots.text()).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);

  const response = await page.request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/xml");
  const xml = await response.text();

  await page.goto("/");
  const summary = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, "application/xml");
    if (doc.getElementsByTagName("parsererror").length > 0) return null;
    const urls = [...doc.getElementsByTagNameNS("http://www.sitemaps.org/schemas/sitemap/0.9", "url")];
    return {
      root: doc.documentElement.localName,
      locs: urls.map((url) => url.getElementsByTagNameNS("http://www.sitemaps.org/schemas/sitemap/0.9", "loc")[0]?.textContent ?? ""),
      alternatesPerUrl: [...new Set(urls.map((url) => url.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link").length))],
    };
  }, xml);

  expect(summary).not.toBeNull();
  expect(summary!.root).toBe("urlset");
  expect(summary!.alternatesPerUrl).toEqual([3]);
  const paths = summary!.locs.map((loc) => new URL(loc).pathname);
  for (const expected of [
    "/",
    "/en",
    "/about",
    "/en/about",
    "/centroassistenza/",
    "/en/centroassistenza/",
    "/categoria/A-spasso",
    "/en/categoria/A-spasso",
    "/sottocategoria/passeggini-leggeri",
    "/en/sottocategoria/passeggini-leggeri",
  ]) {
    expect(paths).toContain(expected);
  }
  const italianProducts = paths.filter((path) => /^\/product\/\d+$/.test(path));
  const englishProducts = paths.filter((path) => /^\/en\/product\/\d+$/.test(path));
  expect(italianProducts.length).toBeGreaterThan(100);
  expect(englishProducts.length).toBe(italianProducts.length);
});

// The page's head is the same on every screen (the home pages' axe on a phone is in smoke.spec.ts): checked once.
test(
  "the home page describes the shop in JSON-LD and for shared links, in each language",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    test.slow();
    for (const [path, ogLocale] of [
      ["/", "it_IT"],
      ["/en", "en_GB"],
    ] as const) {
      await page.goto(path);
      const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
      const data = blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
      const shop = data.find((block) => ([] as unknown[]).concat(block["@type"]).includes("Organization"));
      expect(shop).toMatchObject({
        "@context": "https://schema.org",
        name: "Bimbi Felici",
        address: { "@type": "PostalAddress", addressCountry: "IT" },
        openingHoursSpecification: expect.arrayContaining([expect.objectContaining({ opens: "09:30", closes: "13:00" })]),
      });

      const og = async (property: string) => page.locator(`meta[property="${property}"]`).getAttribute("content");
      expect(await og("og:locale")).toBe(ogLocale);
      expect(await og("og:type")).toBe("website");
      expect(await og("og:title")).toBeTruthy();
      expect(await og("og:description")).toBeTruthy();
      const image = await og("og:image");
      expect(image).toMatch(/^https?:\/\/.+\/og-image\.png$/);
      const picture = await page.request.get(new URL(image!).pathname);
      expect(picture.headers()["content-type"]).toBe("image/png");
      await expectNoAxeViolations(page);
    }
  },
);
