import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, onePerScreen, test } from "./fixtures";
import { createGiftListOnPage, openHydrated as open } from "./shop-helpers";
import { checkoutLabels } from "./checkout-steps";

// Issue 41: a gift card bought online (a voucher line, paid on the test-payment page, mailed the same day) and a
// gift list's cash fund (decisions 0106 and 0098). The gift card journeys go through the outbox: desktop only, but
// for the phone's short look at the purchase form. The fund's journey runs on both screens.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const texts = {
  it: {
    ...checkoutLabels.it,
    sender: "Il tuo nome (firma della carta)",
    recipient: "Nome di chi la riceve",
    email: "E-mail di chi la riceve",
    add: "Aggiungi al carrello",
    inCart: /Carta regalo 50,00\s€/,
    sentOn: /Inviata a .* il/,
    noDelivery: /Niente da spedire/,
    orderSent: /Carta regalo di 50,00\s€ per Giulia: inviata a/,
    balanceLabel: "Codice della carta regalo",
    check: "Controlla il saldo",
    balance: /Credito disponibile: 50,00\s€ su 50,00\s€/,
    paid: "Stato: Pagato",
    subject: "Zia Carla ti ha regalato una carta regalo",
  },
  en: {
    ...checkoutLabels.en,
    sender: "Your name (the card's signature)",
    recipient: "Recipient's name",
    email: "Recipient's e-mail",
    add: "Add to cart",
    inCart: /Gift card €50\.00/,
    sentOn: /Sent to .* on/,
    noDelivery: /Nothing to ship/,
    orderSent: /Gift card of €50\.00 for Giulia: sent to/,
    balanceLabel: "Gift card code",
    check: "Check the balance",
    balance: /Credit available: €50\.00 of €50\.00/,
    paid: "Status: Paid",
    subject: "Zia Carla gave you a",
  },
} as const;
type Locale = keyof typeof texts;

/** The purchase form: 50 € (the preset chosen first), to Giulia by e-mail today. */
async function fillGiftCardForm(page: Page, locale: Locale, recipientEmail: string) {
  const t = texts[locale];
  await open(page, localizedHref("/carta-regalo/acquista", locale));
  await page.getByRole("textbox", { name: t.sender }).fill("Zia Carla");
  await page.getByRole("textbox", { name: t.recipient }).fill("Giulia");
  await page.getByRole("textbox", { name: t.email }).fill(recipientEmail);
}

test.describe("gift cards bought online", () => {
  test.use({ signedInAs: "backOffice" });

  {
    const locale = "it" as Locale;
    const t = texts[locale];
    test(
      `a gift card bought online, paid by card, mailed today with a code the balance page accepts (${locale})`,
      { tag: "@desktop-only" },
      async ({ page, expectNoAxeViolations }) => {
        const recipientEmail = `giulia-${locale}-${Date.now()}@example.com`;
        await fillGiftCardForm(page, locale, recipientEmail);
        await expectNoAxeViolations(page);
        await page.getByRole("button", { name: t.add }).click();
        await expect(page.getByTestId("voucher-lines")).toContainText(t.inCart);
        await expect(page.getByTestId("voucher-lines")).toContainText(t.sentOn);
        await expectNoAxeViolations(page);

        // Nothing to deliver: the checkout asks no delivery or address, only who pays and how.
        await open(page, localizedHref("/checkout", locale));
        await expect(page.getByText(t.noDelivery)).toBeVisible();
        const field = (name: string) => page.getByRole("textbox", { name, exact: true });
        await field(t.firstName).fill("Carla");
        await field(t.lastName).fill("Esposito");
        await field("E-mail").fill(`carla-${Date.now()}@example.com`);
        await field(t.phone).fill("+39 333 765 4321");
        await page.getByRole("radio", { name: t.card }).check();
        await page.getByRole("checkbox", { name: t.terms }).check();
        await expectNoAxeViolations(page);
        await page.getByRole("button", { name: t.place }).click();
        await expect(page).toHaveURL(/\/pagamento-di-prova\//);
        await page.getByRole("button", { name: locale === "it" ? /^Paga / : /^Pay / }).click();
        await expect(page.getByTestId("order-status")).toHaveText(t.paid);
        await expect(page.getByTestId("order-voucher-lines")).toContainText(t.orderSent);
        await expectNoAxeViolations(page);

        // The mail to Giulia, due today, carries the code; the balance page accepts it.
        await open(page, localizedHref("/admin/posta", locale));
        const row = page.getByRole("row").filter({ hasText: recipientEmail });
        await row.getByRole("link").first().click();
        await expect(page.getByRole("heading", { level: 1 })).toContainText(t.subject);
        const code = /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/.exec((await page.locator("main").textContent()) ?? "")![0];
        await open(page, localizedHref("/carta-regalo", locale));
        await page.getByRole("textbox", { name: t.balanceLabel }).fill(code);
        await page.getByRole("button", { name: t.check }).click();
        await expect(page.getByTestId("gift-card-balance")).toContainText(t.balance);
        await expectNoAxeViolations(page);
      },
    );
  }

  test("a gift card goes into the cart with its day (en)", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
    const t = texts.en;
    await fillGiftCardForm(page, "en", `giulia-en-${Date.now()}@example.com`);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: t.add }).click();
    await expect(page.getByTestId("voucher-lines")).toContainText(t.inCart);
    await expect(page.getByTestId("voucher-lines")).toContainText(t.sentOn);
    await expectNoAxeViolations(page);
  });
});

test("the purchase form on a phone: a card to print goes into the cart", { tag: "@phone-only" }, async ({ page, expectNoAxeViolations }) => {
  await open(page, "/carta-regalo/acquista");
  await page.getByRole("textbox", { name: texts.it.sender }).fill("Zia Carla");
  await page.getByRole("textbox", { name: texts.it.recipient }).fill("Giulia");
  await page.getByRole("radio", { name: "La stampo io" }).check();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: texts.it.add }).click();
  await expect(page.getByTestId("voucher-lines")).toContainText("Da stampare dopo il pagamento");
});

/** The fund's words on the owner's and the guests' pages (app/routes/gift-lists), per language. */
const fundTexts = {
  it: {
    newFund: "Nuovo fondo",
    title: "Titolo",
    target: "Obiettivo in € (facoltativo)",
    addFund: "Aggiungi il fondo",
    collectedNone: "Raccolti 0,00",
    cashNote: "Il fondo arriva come carta regalo da spendere in negozio o online",
    contributeTo: "Contribuisci a «Per la cameretta»",
    amount: "Importo (€)",
    giverName: "Il tuo nome",
    message: "Messaggio per la famiglia (facoltativo)",
    contribute: "Contribuisci",
    pay: /^Paga /,
    collected: "Raccolti 25,00",
    cardCode: /Codice: [0-9A-Z]{4}-/,
  },
  en: {
    newFund: "New fund",
    title: "Title",
    target: "Target in € (optional)",
    addFund: "Add the fund",
    collectedNone: "€0.00 collected",
    cashNote: "The fund arrives as a gift card to spend in the shop or online",
    contributeTo: "Contribute to “Per la cameretta”",
    amount: "Amount (€)",
    giverName: "Your name",
    message: "Message to the family (optional)",
    contribute: "Contribute",
    pay: /^Pay /,
    collected: "€25.00 collected",
    cardCode: /Code: [0-9A-Z]{4}-/,
  },
} as const;

test.describe("a gift list's cash fund", () => {
  test.use({ signedInAs: "customer" });

  // Italian on the phone, English on the desktop (onePerScreen).
  for (const locale of ["it", "en"] as const) {
    const t = { ...texts[locale], ...fundTexts[locale] };
    test(
      `the owner adds a fund, a giver contributes and pays, the owner sees it on her card (${locale})`,
      onePerScreen(locale),
      async ({ page, expectNoAxeViolations }) => {
        const title = `Lista fondo ${locale} ${Date.now()}`;
        // The list itself is set up on the Italian page (the helper's); the journey is the fund's.
        const code = await createGiftListOnPage(page, { title, names: "Sofia" });
        if (locale !== "it") await open(page, localizedHref("/crea-lista-nascita", locale));
        const fundForm = page.getByRole("article", { name: title }).getByRole("form", { name: t.newFund });
        await fundForm.getByRole("textbox", { name: t.title, exact: true }).fill("Per la cameretta");
        await fundForm.getByRole("textbox", { name: t.target }).fill("300");
        await fundForm.getByRole("button", { name: t.addFund }).click();
        await expect(page.getByRole("article", { name: title }).getByTestId("owner-funds")).toContainText(t.collectedNone);
        await expectNoAxeViolations(page);

        // A guest's page: the fund with its progress, never cash.
        await open(page, localizedHref(`/lista-nascita/${code}`, locale));
        const funds = page.getByTestId("gift-list-funds");
        await expect(funds).toContainText(t.cashNote);
        const contribute = funds.getByRole("form", { name: t.contributeTo });
        await contribute.getByLabel(t.amount).fill("25");
        await contribute.getByLabel(t.giverName).fill("Nonna Pina");
        await contribute.getByLabel(t.message).fill("Per Sofia, con amore");
        await expectNoAxeViolations(page);
        await contribute.getByRole("button", { name: t.contribute }).click();
        await expect(page.getByTestId("voucher-lines")).toContainText("Per la cameretta");

        await open(page, localizedHref("/checkout", locale));
        const field = (name: string) => page.getByRole("textbox", { name, exact: true });
        await field(t.firstName).fill("Pina");
        await field(t.lastName).fill("Russo");
        await field(t.phone).fill("+39 333 765 4321");
        await page.getByRole("radio", { name: t.card }).check();
        await page.getByRole("checkbox", { name: t.terms }).check();
        await page.getByRole("button", { name: t.place }).click();
        await page.getByRole("button", { name: t.pay }).click();
        await expect(page.getByTestId("order-status")).toHaveText(t.paid);

        await open(page, localizedHref("/crea-lista-nascita", locale));
        const owner = page.getByRole("article", { name: title }).getByTestId("owner-funds");
        await expect(owner).toContainText(t.collected);
        await expect(owner).toContainText("Nonna Pina");
        await expect(owner).toContainText(t.cardCode);
        await expectNoAxeViolations(page);
      },
    );
  }
});
