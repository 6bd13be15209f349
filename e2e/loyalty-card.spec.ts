import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, onePerScreen, test } from "./fixtures";
import { addToCart, logIn, openHydrated as open, register, variantIdOf } from "./shop-helpers";
import { placeCollectionOrder } from "./checkout-steps";

// Issue 41, the loyalty card. A new customer joins in her account; the staff add a till receipt's points at
// the counter; she spends 500 of them (5,00 € off) at checkout on product 164 of the sample catalogue
// (Altalena da giardino, 49,90 €, no offer of its own) and sees the rest on her card.

const expect = baseExpect.configure({ timeout: 20_000 });
// A receipt counted twice answers 409 on the counter page.
test.use({ allowedBrowserErrors: [/status of 409/] });
test.describe.configure({ timeout: 240_000 });

const texts = {
  it: {
    join: "Entra nella carta fedeltà",
    consent: /Voglio la carta fedeltà/,
    activate: "Attiva la carta",
    joined: /Benvenuta nella carta fedeltà/,
    balance: (points: number) => `${points} punti`,
    search: "Numero carta, e-mail o telefono",
    filter: "Filtra",
    receipt: "Numero scontrino",
    amount: "Importo scontrino (€)",
    addPoints: "Aggiungi punti",
    added: "Aggiunti 600 punti.",
    twice: "Questo scontrino ha già dato i suoi punti.",
    usePoints: "Usa i punti della carta fedeltà",
    line: "Punti carta fedeltà (500 punti)",
    spent: /Sconto sull'ordine n. \d+/,
  },
  en: {
    join: "Join the loyalty card",
    consent: /I want the loyalty card/,
    activate: "Activate the card",
    joined: /Welcome to the loyalty card/,
    balance: (points: number) => `${points} points`,
    search: "Card number, e-mail or phone",
    filter: "Filter",
    receipt: "Receipt number",
    amount: "Receipt amount (€)",
    addPoints: "Add points",
    added: "600 points added.",
    twice: "This receipt has already earned its points.",
    usePoints: "Use your loyalty card points",
    line: "Loyalty card points (500 points)",
    spent: /Discount on order no. \d+/,
  },
} as const;
type Locale = keyof typeof texts;

/** The staff, in a second browser, add a till receipt of 600,00 € to the card found by her e-mail; the same receipt again is refused. */
async function addReceiptAtCounter(staff: Page, locale: Locale, email: string, checkPage: (page: Page) => Promise<void>) {
  const t = texts[locale];
  await open(staff, `${localizedHref("/admin/carta-fedelta", locale)}?q=${encodeURIComponent(email)}`);
  await staff
    .getByRole("region", { name: locale === "it" ? "Carte trovate" : "Cards found" })
    .getByRole("link")
    .first()
    .click();
  await expect(staff.getByTestId("counter-balance")).toHaveText(t.balance(0));
  await checkPage(staff);
  const receipt = `SC-${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
  for (const attempt of [1, 2]) {
    await staff.getByRole("textbox", { name: t.receipt }).fill(receipt);
    await staff.getByRole("textbox", { name: t.amount }).fill("600,00");
    await staff.getByRole("button", { name: t.addPoints }).click();
    if (attempt === 1) await expect(staff.getByRole("status").filter({ hasText: t.added })).toBeVisible();
    else await expect(staff.getByRole("alert").filter({ hasText: t.twice })).toBeVisible();
  }
  await expect(staff.getByTestId("counter-balance")).toHaveText(t.balance(600));
  await checkPage(staff);
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test(
    `she joins the card, the counter adds a receipt's points, she spends them at checkout and sees the rest (${locale})`,
    onePerScreen(locale),
    async ({ page, browser, signInAs, expectNoAxeViolations }) => {
      const email = `carta-${crypto.randomBytes(4).toString("hex")}@example.com`;
      await open(page, `${localizedHref("/login-register", locale)}?redirectTo=${encodeURIComponent(localizedHref("/carta-fedelta", locale))}`);
      await register(page, { name: "Giulia Esposito", email }, locale);
      await logIn(page, { email }, locale);
      await expect(page.getByRole("heading", { level: 2, name: t.join })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.getByRole("checkbox", { name: t.consent }).check();
      await page.getByRole("button", { name: t.activate }).click();
      await expect(page.getByRole("status").filter({ hasText: t.joined })).toBeVisible();
      await expect(page.getByTestId("loyalty-card-number")).toHaveText(/^27\d{2} \d{4} \d{4}$/);
      await expect(page.getByRole("img", { name: /27\d{2} \d{4} \d{4}/ })).toBeVisible();
      await expect(page.getByTestId("loyalty-balance")).toHaveText(t.balance(0));
      await expectNoAxeViolations(page);

      const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
      await signInAs(context, "backOffice");
      await addReceiptAtCounter(await context.newPage(), locale, email, expectNoAxeViolations);
      await context.close();

      await addToCart(page, variantIdOf(164));
      await open(page, localizedHref("/checkout", locale));
      await placeCollectionOrder(page, locale, {
        beforePlacing: async () => {
          await page.getByLabel(t.usePoints).selectOption("500");
          await expect(page.getByTestId("summary-loyalty-points").locator("xpath=..")).toContainText(t.line);
          await expect(page.getByTestId("summary-loyalty-points")).toContainText(/5[,.]00/);
          await expect(page.getByTestId("summary-total")).toHaveText(/44[,.]90/);
          await expectNoAxeViolations(page);
        },
      });
      await expect(page.getByTestId("order-total")).toHaveText(/44[,.]90/);
      await expect(page.getByTestId("order-loyalty-points")).toContainText(/5[,.]00/);
      await expectNoAxeViolations(page);

      await open(page, localizedHref("/carta-fedelta", locale));
      await expect(page.getByTestId("loyalty-balance")).toHaveText(t.balance(100));
      await expect(page.getByTestId("loyalty-history")).toContainText(t.spent);
      await expectNoAxeViolations(page);
    },
  );
}
