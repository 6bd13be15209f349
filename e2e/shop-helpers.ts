/**
 * Helpers every journey shares: the sample catalogue's variant ids, adding to the cart, opening a page until
 * React has hydrated it, and the login and registration forms as a person fills them. Journeys that are not about
 * logging in start signed in instead (`test.use({ signedInAs: "customer" })`, e2e/fixtures.ts).
 */
import { expect, type Page } from "@playwright/test";
import { localizedHref, type Locale } from "../common/locale";
import { italianDayOf } from "../common/shop-calendar";
import { sampleCatalogue } from "../server/db/sample-catalogue";

/** Variant ids follow the seed's insertion order (products, then their variants, in catalogue order). */
export function variantIdOf(productId: number, match: { colour?: string; size?: string } = {}): number {
  let id = 0;
  for (const product of sampleCatalogue) {
    for (const variant of product.variants) {
      id++;
      if (product.id !== productId) continue;
      if (match.colour !== undefined && variant.colour !== match.colour) continue;
      if (match.size !== undefined && variant.size !== match.size) continue;
      return id;
    }
  }
  throw new Error(`no variant of product ${productId} matching ${JSON.stringify(match)}`);
}

/**
 * Posts to the cart's action the way the page's fetcher does (the answer as data, no redirect), with this
 * page's cookies. `shopUrl`: a shop of the journey's own instead of the shared one.
 */
export async function postToCart(page: Page, fields: Record<string, string | number>, shopUrl = process.env.E2E_BASE_URL!) {
  const form = Object.fromEntries(Object.entries({ js: "1", ...fields }).map(([key, value]) => [key, String(value)]));
  // Page actions accept same-origin posts only, as a browser's own post is.
  const response = await page.request.post(`${shopUrl}/cart.data`, { form, headers: { Origin: new URL(shopUrl).origin } });
  return { status: response.status(), text: await response.text() };
}

/** Adds to the cart without opening a page first: every full page load costs seconds on a busy 2-core machine. */
export async function addToCart(
  page: Page,
  variantId: number,
  quantity = 1,
  options: { personalisation?: Record<string, string>; shopUrl?: string } = {},
) {
  const result = await postToCart(page, { intent: "add", variantId, quantity, ...options.personalisation }, options.shopUrl);
  expect(result.status, result.text).toBe(200);
}

/** Opens a page and waits until React has hydrated it (clicks before that are plain HTML clicks). */
export async function openHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });
  return response;
}

export type { Locale };

/** The password of every account the journeys make (strong enough for the shop's password rules). */
export const customerPassword = "Tr3no-Blu-Vesuvio";

const authTexts = {
  it: {
    loginSection: "Hai già un account?",
    login: "Accedi",
    registerSection: "Nuovo cliente?",
    name: "Nome e cognome",
    confirm: "Conferma password",
    privacy: /Ho letto l'informativa/,
    register: "Registrati",
    checkInbox: "Controlla la tua casella di posta",
  },
  en: {
    loginSection: "Already have an account?",
    login: "Log in",
    registerSection: "New customer?",
    name: "Full name",
    confirm: "Confirm password",
    privacy: /I have read the privacy notice/,
    register: "Register",
    checkInbox: "Check your inbox",
  },
} as const;

/** Fills the registration form of the login page open now and waits for its "check your inbox" answer. */
export async function register(page: Page, account: { name: string; email: string; password?: string }, locale: Locale = "it") {
  const t = authTexts[locale];
  const password = account.password ?? customerPassword;
  const form = page.getByRole("region", { name: t.registerSection });
  await form.getByLabel(t.name).fill(account.name);
  await form.getByLabel("E-mail").fill(account.email);
  await form.locator("input[name=password]").fill(password);
  await form.getByLabel(t.confirm).fill(password);
  await form.getByLabel(t.privacy).check();
  await form.getByRole("button", { name: t.register }).click();
  // Registration hashes the password (scrypt): on a busy 2-core machine the answer can take seconds.
  await expect(page.getByRole("status").filter({ hasText: t.checkInbox })).toBeVisible({ timeout: 30_000 });
}

/**
 * Fills and sends the login form of the login page open now. What follows (the page the login leads to,
 * or the form's refusal) is for the journey to check.
 */
export async function logIn(page: Page, account: { email: string; password?: string }, locale: Locale = "it") {
  const form = page.getByRole("region", { name: authTexts[locale].loginSection });
  await form.getByLabel("E-mail").fill(account.email);
  await form.locator("input[name=password]").fill(account.password ?? customerPassword);
  await form.getByRole("button", { name: authTexts[locale].login, exact: true }).click();
}

const outboxTexts = { it: { outbox: "Posta in uscita" }, en: { outbox: "Outgoing mail" } } as const;

/**
 * In the back office's outbox, opens the one mail to `to` with this subject and gives the address of its
 * link named like `link` (the mail page shows the text with its links, as the customer reads it).
 */
export async function linkInOutboxMail(staff: Page, locale: Locale, mail: { to: string; subject: string; link: RegExp }): Promise<string> {
  await openHydrated(staff, localizedHref("/admin/posta", locale));
  const row = staff
    .getByRole("table", { name: outboxTexts[locale].outbox })
    .getByRole("row")
    .filter({ hasText: mail.to })
    .filter({ hasText: mail.subject });
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: mail.subject }).click();
  await expect(staff.getByRole("heading", { level: 1, name: mail.subject })).toBeVisible();
  const href = await staff.getByRole("link", { name: mail.link }).first().getAttribute("href");
  return href!;
}

/**
 * A gift list made on /crea-lista-nascita by the customer signed in on `page`, its event today; returns the
 * list's code from its card.
 */
export async function createGiftListOnPage(page: Page, list: { title: string; names: string }): Promise<string> {
  await openHydrated(page, "/crea-lista-nascita");
  const form = page.getByRole("form", { name: "Crea una nuova lista" });
  await form.getByLabel("Titolo della lista").fill(list.title);
  await form.getByLabel("Data dell'evento").fill(italianDayOf(new Date()));
  await form.getByLabel("Nomi dei festeggiati").fill(list.names);
  await form.getByRole("button", { name: "Crea la lista" }).click();
  await expect(page.getByRole("status").filter({ hasText: "La lista è stata creata." })).toBeVisible({ timeout: 20_000 });
  const code = (await page.getByRole("article", { name: list.title }).locator("strong.font-mono").textContent())!.trim();
  expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);
  return code;
}

/** Adds a product to one of the signed-in customer's lists with the product page's selector and its confirmation dialog. */
export async function addToGiftListFromProductPage(page: Page, productId: number, listTitle: string, personalisation: string[] = []) {
  await openHydrated(page, `/product/${productId}`);
  const selector = page.getByRole("region", { name: "Aggiungi alla lista nascita" });
  for (const [index, text] of personalisation.entries()) await selector.locator(`input[name="personalisation.${index}"]`).fill(text);
  await selector.getByLabel("La tua lista").selectOption({ label: listTitle });
  await selector.getByRole("button", { name: "Aggiungi alla lista" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Sto aggiungendo questo prodotto alla lista selezionata" })).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole("button", { name: "Ok, confermo la selezione!" }).click();
  await expect(dialog.getByRole("heading", { name: "Prodotto aggiunto alla lista selezionata" })).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByText("I dati sono stati salvati correttamente.")).toBeVisible();
  await dialog.getByRole("button", { name: "Chiudi" }).click();
  await expect(dialog).toBeHidden();
}

/**
 * The staff press each "move to" button of an order's back-office page in turn. A step is done when its toast
 * shows and its button is gone: the toast of the step before may still be on screen.
 */
export async function moveOrderThrough(staff: Page, moveButtons: readonly string[], updatedToast: string) {
  for (const name of moveButtons) {
    await staff.getByRole("button", { name }).click();
    await expect(staff.getByRole("status").filter({ hasText: updatedToast })).toBeVisible({ timeout: 15_000 });
    await expect(staff.getByRole("button", { name })).toHaveCount(0, { timeout: 15_000 });
  }
}
