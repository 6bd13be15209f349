import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { openHydrated } from "./shop-helpers";

// Issue 2: the shell in both languages, the information pages, status codes, headers, start-up errors.

for (const { locale, prefix, helpTitle } of [
  { locale: "it", prefix: "", helpTitle: "Centro assistenza" },
  { locale: "en", prefix: "/en", helpTitle: "Help centre" },
]) {
  test(`home, a category page and the help centre pass axe (${locale})`, async ({ page, expectNoAxeViolations }) => {
    test.slow(); // three pages, each with axe
    await page.goto(prefix || "/");
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator('link[rel="alternate"][hreflang="it"]')).toHaveAttribute("href", /\/$/);
    await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", /\/en$/);
    await expectNoAxeViolations(page);

    await page.goto(`${prefix}/categoria/A-spasso`);
    expect(page.url()).toContain("/categoria/A-spasso");
    await expect(page.locator("h1")).toBeVisible();
    await expectNoAxeViolations(page);

    const response = await page.goto(`${prefix}/centroassistenza/`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: helpTitle })).toBeVisible();
    for (const anchor of ["condizionespedizione", "terminidipagamento", "politicacancellazione", "condizionidivedita"]) {
      await expect(page.locator(`#${anchor}`)).toBeAttached();
    }
    await expectNoAxeViolations(page);
  });
}

// The mega menu is a disclosure a pointer or the keyboard opens (decision 0006); a phone has the off-canvas menu
// instead (@phone-only below).
test("the mega menu lists the categories and subcategories, opens with a click or Enter and stays open while tabbed through @desktop-only", async ({
  page,
  expectNoAxeViolations,
}) => {
  await openHydrated(page, "/");
  const menu = page.getByRole("navigation", { name: "Menu principale" });
  const categories = menu.locator("summary", { hasText: "Categorie" });
  const strollers = menu.getByRole("link", { name: "A spasso", exact: true });
  await expect(strollers).toBeHidden();
  await categories.click();
  await expect(strollers).toBeVisible();
  await expect(menu.getByRole("link", { name: "Passeggini leggeri" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Culle per neonati" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Vedi tutti i prodotti" })).toBeVisible();
  // The phone menu's words for the same link are not shown here.
  await expect(menu.getByRole("link", { name: "Tutto in A spasso" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.keyboard.press("Tab");
  await expect(strollers).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(strollers).toBeHidden();
  await expect(categories).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(strollers).toBeVisible();
  await strollers.click();
  await expect(page).toHaveURL(/\/categoria\/A-spasso$/);
  await expect(strollers).toBeHidden();
});

test.describe("not found", () => {
  // Chromium reports the document's own 404 status as a console error.
  test.use({ allowedBrowserErrors: [/status of 404/] });

  // Desktop only: the 404 page is laid out as every page the phone journeys open.
  test(
    "an unknown address answers the 404 page with a search box and a link home",
    { tag: "@desktop-only" },
    async ({ page, expectNoAxeViolations }) => {
      const response = await page.goto("/questa-pagina-non-esiste");
      expect(response?.status()).toBe(404);
      await expect(page.getByText("404", { exact: true }).first()).toBeVisible();
      await expect(page.getByText("OPPS! Pagina o Prodotto non trovato")).toBeVisible();
      const search = page.locator('main form[action="/shop"] input[name="search"]');
      await expect(search).toBeVisible();
      await expect(page.locator('main a[href="/"]').first()).toBeVisible();
      await expectNoAxeViolations(page);

      await search.fill("passeggino");
      await search.press("Enter");
      await expect(page).toHaveURL(/\/shop\?.*search=passeggino/);
    },
  );
});

// The headers and the policy do not depend on the screen: checked once, on the desktop.
// A visitor's home page is kept for every visitor (decision 0074): its policy lists its inline scripts' hashes.
test("pages carry the security headers, a CSP naming each inline script by hash, and no other @desktop-only", async ({ page, request }) => {
  const response = await request.get("/");
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-powered-by"]).toBeUndefined();

  const html = await response.text();
  // Executable inline scripts only: JSON-LD and the personal part (type="application/ld+json", "application/json")
  // are data the browser never runs.
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    (match) => !/type="application\/(ld\+)?json"/.test(match[1] ?? ""),
  );
  expect(inlineScripts.length).toBeGreaterThan(0);
  for (const [, , content] of inlineScripts)
    expect(csp).toContain(
      `'sha256-${crypto
        .createHash("sha256")
        .update(content ?? "")
        .digest("base64")}'`,
    );

  // The browser runs the page under that policy without a single violation (they would be console errors).
  await page.goto("/");
  await expect(page.locator("h1").first()).toBeVisible();
});

// No page, no screen: checked once.
test("healthz reports a reachable database, robots.txt is served @desktop-only", async ({ request }) => {
  const health = await request.get("/healthz");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok" });

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain("Sitemap:");
});

test("the phone menu holds the navigation, search and the categories, each opening its subcategories @phone-only", async ({
  page,
  expectNoAxeViolations,
}) => {
  await page.goto("/");
  // Once hydrated the summary carries aria-expanded; a tap before hydration can be undone by it.
  const summary = page.locator("summary", { hasText: "Apri il menu" });
  await expect(summary).toHaveAttribute("aria-expanded", "false");
  const menu = page.getByRole("navigation", { name: "Menu principale" });
  await expect(menu).toBeHidden();
  await summary.click();
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "Lista nascita" })).toBeVisible();
  await expect(menu.locator('a[href="/categoria/pappa"]').first()).toBeAttached();
  await expect(page.getByRole("banner").getByRole("combobox", { name: "Cerca prodotti" }).filter({ visible: true })).toBeVisible();

  const allStrollers = menu.getByRole("link", { name: "Tutto in A spasso" });
  await expect(allStrollers).toBeHidden();
  await menu.locator("summary", { hasText: "A spasso" }).click();
  await expect(allStrollers).toBeVisible();
  await expect(menu.getByRole("link", { name: "Passeggini leggeri" })).toBeVisible();
  await expectNoAxeViolations(page);

  await summary.click();
  await expect(menu).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the category menu opens and closes: the desktop panel, or the phone menu and a category in it", async ({ page }, testInfo) => {
    await page.goto("/");
    const menu = page.getByRole("navigation", { name: "Menu principale" });
    const subcategory = menu.getByRole("link", { name: "Passeggini leggeri" });
    if (testInfo.project.name === "phone") {
      const toggle = page.locator("summary", { hasText: "Apri il menu" });
      await toggle.click();
      await menu.locator("summary", { hasText: "A spasso" }).click();
      await expect(menu.getByRole("link", { name: "Tutto in A spasso" })).toBeVisible();
      await expect(subcategory).toBeVisible();
      await toggle.click();
      await expect(menu).toBeHidden();
    } else {
      const categories = menu.locator("summary", { hasText: "Categorie" });
      await categories.click();
      await expect(subcategory).toBeVisible();
      await categories.click();
      await expect(subcategory).toBeHidden();
    }
  });
});

test("on a phone the floating chat and back-to-top buttons step aside while a field is typed in @phone-only", async ({ page }) => {
  await page.goto("/contact");
  await page.mouse.wheel(0, 600);
  const chat = page.getByRole("link", { name: "Chatta con noi su WhatsApp" });
  const toTop = page.getByRole("button", { name: "Torna all'inizio della pagina" });
  await expect(chat).toBeVisible();
  await expect(toTop).toBeVisible();
  await page.getByRole("textbox").last().focus();
  await expect(chat).toBeHidden();
  await expect(toTop).toBeHidden();
  await page.getByRole("textbox").last().blur();
  await expect(chat).toBeVisible();
});

test("at the page's end the floating chat and back-to-top buttons cover none of the footer's links", async ({ page }) => {
  await openHydrated(page, "/");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Chatta con noi su WhatsApp" })).toBeVisible();
  await expect(footer.getByRole("button", { name: "Torna all'inizio della pagina" })).toBeVisible();
  // Every line box of the footer's links, buttons and lines of text (a range's rectangles, not a block's
  // whole width) against the two floating buttons.
  const covered = await footer.evaluate((element) => {
    const floating = [...element.querySelectorAll("[data-floating-action]")].map((action) => action.getBoundingClientRect());
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return [...element.querySelectorAll("a, button, p")]
      .filter((target) => !target.closest("[data-floating-action]"))
      .filter((target) => {
        const range = document.createRange();
        range.selectNodeContents(target);
        return [...range.getClientRects()].some((line) => line.width > 0 && floating.some((action) => overlaps(line, action)));
      })
      .map((target) => target.textContent?.trim());
  });
  expect(covered).toEqual([]);
  // The footer's last link takes a plain click (Playwright checks that nothing else would receive it).
  const lastLink = footer.getByRole("link", { name: "Cookie policy" }).last();
  await expect(lastLink).toBeInViewport({ ratio: 1 });
  await lastLink.click();
  await expect(page).toHaveURL(/\/cookie-policy$/);
});

// Desktop only: the phone's back-to-top button is checked in its own phone journey below.
test("the scroll-to-top button appears after 100px of scrolling", { tag: "@desktop-only" }, async ({ page }) => {
  await page.goto("/");
  const button = page.getByRole("button", { name: "Torna all'inizio della pagina" });
  await expect(button).toBeHidden();
  await page.mouse.wheel(0, 600);
  await expect(button).toBeVisible();
  await button.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(100);
});

// No browser at all (the server's start-up): checked once.
test("bad configuration stops start-up with one clear line @desktop-only", async () => {
  const root = path.resolve(import.meta.dirname, "..");
  const start = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["server.js"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", DATA_DIR: path.join(os.tmpdir(), `bad-config-${process.pid}`), ...env },
      encoding: "utf8",
      timeout: 30_000,
    });

  const badPort = start({ PORT: "abc" });
  expect(badPort.status).toBe(1);
  expect(badPort.stderr.trim()).toBe("Bad configuration: PORT: PORT must be a whole number between 1 and 65535");

  const badUrl = start({ DATABASE_URL: "mysql://root@localhost/shop" });
  expect(badUrl.status).toBe(1);
  expect(badUrl.stderr.trim().split("\n")).toHaveLength(1);
  expect(badUrl.stderr).toContain("DATABASE_URL must look like postgres://");

  const unreachable = start({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/shop", ALLOW_LOCALHOST_PUBLIC_URL: "true" });
  expect(unreachable.status).toBe(1);
  expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
  expect(unreachable.stderr).toContain("Cannot reach the database");

  // Links in mails and shared gift lists must reach customers: localhost needs an explicit try-out flag.
  const onLocalhost = start({ PUBLIC_URL: "http://localhost:3000" });
  expect(onLocalhost.status).toBe(1);
  expect(onLocalhost.stderr.trim()).toBe(
    "Bad configuration: PUBLIC_URL: http://localhost:3000 is this machine only; set PUBLIC_URL to the address customers use, or ALLOW_LOCALHOST_PUBLIC_URL=true for a local try-out or a test",
  );
});
