import type { Browser, BrowserContext, Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, onePerScreen, test } from "./fixtures";
import { addToCart, openHydrated as open, variantIdOf } from "./shop-helpers";
import { placeCollectionOrder } from "./checkout-steps";

// Issue 41, gift cards. Product 164 of the sample catalogue (Altalena da giardino con seggiolino avvolgente):
// 49,90 €, stock 57, no offer of its own; one order per run and language, collected and paid in the shop.

const expect = baseExpect.configure({ timeout: 20_000 });
// The typo on the balance page answers 400.
test.use({ allowedBrowserErrors: [/status of 400/] });
test.describe.configure({ timeout: 180_000 });

const texts = {
  it: {
    amount: "Importo (€)",
    issue: "Emetti la carta",
    balanceLabel: "Codice della carta regalo",
    check: "Controlla il saldo",
    balance: /Credito disponibile: 30,00\s€ su 30,00\s€/,
    cardLabel: "Carta regalo",
    use: "Usa la carta",
    applied: /La carta che finisce con \w{4} paga 30,00\s€/,
    checkout: "Procedi all'acquisto",
    empty: "Questa carta regalo non ha più credito.",
    typo: "Il codice non è valido: controlla di averlo scritto bene (16 caratteri).",
  },
  en: {
    amount: "Amount (€)",
    issue: "Issue the card",
    balanceLabel: "Gift card code",
    check: "Check the balance",
    balance: /Credit available: €30\.00 of €30\.00/,
    cardLabel: "Gift card",
    use: "Use the card",
    applied: /The card ending in \w{4} pays €30\.00/,
    checkout: "Proceed to checkout",
    empty: "This gift card has no credit left.",
    typo: "The code is not valid: check you typed it right (16 characters).",
  },
} as const;
type Locale = keyof typeof texts;

/** A second browser signed in to the back office. */
async function staffPage(browser: Browser, signInAs: (context: BrowserContext, role: "backOffice") => Promise<unknown>) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signInAs(context, "backOffice");
  return { context, page: await context.newPage() };
}

/** The staff enter a 30 € card sold at the counter; its code shows once, ready to print. */
async function sellAtCounter(page: Page, locale: Locale, checkPage: (page: Page) => Promise<void>): Promise<string> {
  const t = texts[locale];
  await open(page, localizedHref("/admin/carte-regalo", locale));
  await page.getByLabel(t.amount).fill("30");
  await page.getByRole("button", { name: t.issue }).click();
  const code = (await page.getByTestId("gift-card-code").textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  await checkPage(page);
  return code;
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test(
    `a card sold at the counter: its balance checked, then it pays part of an order shown after the total (${locale})`,
    onePerScreen(locale),
    async ({ page, browser, signInAs, expectNoAxeViolations }) => {
      const staff = await staffPage(browser, signInAs);
      const code = await sellAtCounter(staff.page, locale, expectNoAxeViolations);
      await staff.context.close();

      // The balance page: a typo is caught by the check character, the right code shows the credit.
      await open(page, localizedHref("/carta-regalo", locale));
      const field = page.getByRole("textbox", { name: t.balanceLabel });
      const typo = code.slice(0, 2) + (code[2] === "A" ? "B" : "A") + code.slice(3);
      await field.fill(typo);
      await page.getByRole("button", { name: t.check }).click();
      await expect(page.getByRole("textbox", { name: t.balanceLabel })).toHaveAccessibleDescription(t.typo);
      await page.getByRole("textbox", { name: t.balanceLabel }).fill(code.toLowerCase());
      await page.getByRole("button", { name: t.check }).click();
      await expect(page.getByTestId("gift-card-balance")).toContainText(t.balance);
      await expectNoAxeViolations(page);

      // At checkout: 49,90 € collected in the shop; the card pays 30,00 € after the total, 19,90 € still to pay.
      await addToCart(page, variantIdOf(164));
      await open(page, localizedHref("/checkout", locale));
      await placeCollectionOrder(page, locale, {
        email: `carta-${Date.now()}@example.com`,
        beforePlacing: async () => {
          await page.getByRole("textbox", { name: t.cardLabel, exact: true }).fill(code);
          await page.getByRole("button", { name: t.use }).click();
          await expect(page.getByTestId("gift-card-applied")).toHaveText(t.applied);
          await expect(page.getByTestId("summary-total")).toHaveText(/49[,.]90/);
          await expect(page.getByTestId("summary-gift-card")).toHaveText(/−.*30[,.]00/);
          await expect(page.getByTestId("summary-still-to-pay")).toHaveText(/19[,.]90/);
          await expectNoAxeViolations(page);
        },
      });
      await expect(page.getByTestId("order-total")).toHaveText(/49[,.]90/);
      await expect(page.getByTestId("order-gift-card")).toHaveText(/30[,.]00/);
      await expect(page.getByTestId("order-still-to-pay")).toHaveText(/19[,.]90/);
      await expectNoAxeViolations(page);

      // Spent: the balance page says so.
      await open(page, localizedHref("/carta-regalo", locale));
      await page.getByRole("textbox", { name: t.balanceLabel }).fill(code);
      await page.getByRole("button", { name: t.check }).click();
      await expect(page.getByTestId("gift-card-balance")).toContainText(/0[,.]00/);
    },
  );
}
