import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect, test } from "./fixtures";

/**
 * Error pages reached by a form post without JavaScript (the 401, 404 and 405 of a page's action): the shop's
 * frame, the page's language and a title of their own, never message keys.
 */
// The error pages answer 401, 404 and 405, which Chromium logs as failed loads (robots.txt: this shop has none in e2e).
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 40[145]/] });

/** Posts a form to `url` as a page without JavaScript does: a real form, submitted by its button. */
async function postForm(page: Page, url: string, fields: Record<string, string>) {
  // A page of the shop's own origin, so the post is same-site as the shop's forms are.
  await page.goto("/robots.txt");
  const action = new URL(url, page.url()).href;
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`);
  await page.setContent(`<form method="post" action="${action}">${inputs.join("")}<button>send</button></form>`);
  await Promise.all([page.waitForURL(action), page.getByRole("button", { name: "send" }).click()]);
}

// Three posts and their pages per test, on 2 shared cores.
test.describe.configure({ timeout: 60_000 });

const rawKey = /\b[a-z]+[A-Z]\w*\.[a-z]\w*\b/;

const texts = {
  it: {
    loginTitle: "Accedi per continuare",
    loginAction: "Accedi o registrati",
    notFoundTitle: "Pagina non trovata",
    notFoundHeading: "OPPS! Pagina o Prodotto non trovato",
    badTitle: "Richiesta non valida",
    home: "Torna alla home",
  },
  en: {
    loginTitle: "Please log in to continue",
    loginAction: "Log in or register",
    notFoundTitle: "Page not found",
    notFoundHeading: "OOPS! Page or product not found",
    badTitle: "Invalid request",
    home: "Back to the home page",
  },
};

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];
  test(`failed posts without JavaScript show the shop's error pages in its language (${locale})`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: testInfo.project.use.viewport ?? null });
    const page = await context.newPage();
    const cases: { url: string; fields: Record<string, string>; title: string; heading: string; link: string }[] = [
      {
        url: localizedHref("/crea-lista-nascita", locale),
        fields: { intent: "create", title: "Lista" },
        title: t.loginTitle,
        heading: t.loginTitle,
        link: t.loginAction,
      },
      {
        url: localizedHref("/ordine/00000000-0000-4000-8000-000000000000", locale),
        fields: { intent: "pay" },
        title: t.notFoundTitle,
        heading: t.notFoundHeading,
        link: t.home,
      },
      { url: localizedHref("/pagina-che-non-esiste", locale), fields: { intent: "x" }, title: t.badTitle, heading: t.badTitle, link: t.home },
    ];
    for (const [index, { url, fields, title, heading, link }] of cases.entries()) {
      await postForm(page, url, fields);
      await expect(page).toHaveTitle(`${title} | Bimbi Felici`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(heading);
      await expect(page.getByRole("main").getByRole("link", { name: link })).toBeVisible();
      // The shop's frame around it: header with the search, footer.
      await expect(page.getByRole("contentinfo")).toBeVisible();
      expect(await page.locator("body").innerText()).not.toMatch(rawKey);
      await page.screenshot({ path: testInfo.outputPath(`error-${locale}-${index}.png`), fullPage: false });
    }
    await context.close();
  });

  test(`the same error pages pass axe where a page load reaches them (${locale})`, async ({ page, expectNoAxeViolations }) => {
    // axe runs inside the page, so it needs JavaScript: the 401 and 404 pages are also what a page load shows.
    await page.goto(localizedHref("/crea-lista-nascita", locale));
    await expect(page).toHaveTitle(`${t.loginTitle} | Bimbi Felici`);
    await expectNoAxeViolations(page);
    await page.goto(localizedHref("/ordine/00000000-0000-4000-8000-000000000000", locale));
    await expect(page).toHaveTitle(`${t.notFoundTitle} | Bimbi Felici`);
    await expectNoAxeViolations(page);
  });
}
