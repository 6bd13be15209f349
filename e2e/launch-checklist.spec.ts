import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openHydrated } from "./shop-helpers";

// Issue 19 item 8: the back office lists every setting still at the sample value the shop starts with. The
// journeys' shop runs on 127.0.0.1 with the sample mail sender, no SMTP and no Stripe (e2e/server.ts).
test.use({ signedInAs: "backOffice" });

const main = (page: Page) => page.locator("main");

test("it: the dashboard says how many settings are samples and leads to the list, each with where to fix it", async ({
  page,
  expectNoAxeViolations,
}) => {
  await openHydrated(page, "/admin");
  const notice = main(page).getByText(/^\d+ impostazioni sono ancora d'esempio\.$/);
  await expect(notice).toBeVisible();
  await expectNoAxeViolations(page);
  await main(page).getByRole("link", { name: "Vedi cosa sistemare prima di andare online" }).click();

  await expect(page).toHaveURL(/\/admin\/messa-online$/);
  await expect(page.getByRole("heading", { level: 1, name: "Prima di andare online" })).toBeVisible();
  const items = main(page).getByRole("listitem");
  await expect(items.filter({ hasText: /^L'indirizzo pubblico è http:\/\/127\.0\.0\.1:\d+: i link nelle e-mail/ })).toHaveCount(1);
  await expect(items.filter({ hasText: "Il mittente delle e-mail è ancora quello d'esempio: Bimbi Shop <negozio@example.it>." })).toContainText(
    "Dove: la variabile d'ambiente MAIL_FROM del server",
  );
  await expect(items.filter({ hasText: "Nessun server di posta" })).toHaveCount(1);
  await expect(items.filter({ hasText: "Nessuna chiave Stripe: i pagamenti con carta vanno alla pagina di pagamento di prova." })).toHaveCount(1);
  // The journeys' server has its own AUTH_SECRET.
  await expect(items.filter({ hasText: "AUTH_SECRET" })).toHaveCount(0);
  const legalName = items.filter({ hasText: "Ragione sociale: ancora il valore d'esempio «Bimbi Felici di Esposito Anna & C. s.a.s.»." });
  await expect(legalName.getByRole("link", { name: "Dove: Impostazioni › Dati del negozio e orari › Ragione sociale" })).toHaveAttribute(
    "href",
    "/admin/impostazioni#shop",
  );
  await expect(items.filter({ hasText: "Pagina Facebook: ancora il valore d'esempio «https://www.facebook.com/bimbifelici.example»." })).toHaveCount(
    1,
  );
  await expect(items.filter({ hasText: /^IBAN: ancora il valore d'esempio/ })).toHaveCount(1);
  await expect(
    items
      .filter({ hasText: "Partita IVA: ancora il valore d'esempio «07412580636»." })
      .getByRole("link", { name: "Dove: Impostazioni › Dati fiscali per le fatture › Partita IVA" }),
  ).toHaveAttribute("href", "/admin/impostazioni#fiscal");
  await page.screenshot({ path: `/tmp/e-shot/launch-it-${test.info().project.name}.png` });
  await expectNoAxeViolations(page);
});

test("en: the list reads in English", async ({ page, expectNoAxeViolations }) => {
  await openHydrated(page, "/en/admin/messa-online");
  await expect(page.getByRole("heading", { level: 1, name: "Before you go live" })).toBeVisible();
  const items = main(page).getByRole("listitem");
  await expect(items.filter({ hasText: "No mail server: e-mails stay in the back office's outbox and never reach customers." })).toContainText(
    "Where: the server's environment variable SMTP_URL",
  );
  await expect(items.filter({ hasText: "The e-mail sender is still the sample one: Bimbi Shop <negozio@example.it>." })).toHaveCount(1);
  await expect(
    items
      .filter({ hasText: "Legal name: still the sample value “Bimbi Felici di Esposito Anna & C. s.a.s.”." })
      .getByRole("link", { name: "Where: Settings › Shop details and opening hours › Legal name" }),
  ).toHaveAttribute("href", "/en/admin/impostazioni#shop");
  await page.screenshot({ path: `/tmp/e-shot/launch-en-${test.info().project.name}.png` });
  await expectNoAxeViolations(page);
});

// Changes a shared setting: once, on the large screen (the list itself is checked on both above).
test("a sample value replaced in the settings leaves the list @desktop-only", async ({ page }) => {
  await openHydrated(page, "/admin/impostazioni");
  const shopForm = page.locator("form#shop");
  await shopForm.getByLabel("Partita IVA").fill("IT01234560633");
  await shopForm.getByRole("button", { name: "Salva «Dati del negozio e orari»" }).click();
  // Saving posts and loads the whole settings page again: slower than the 5 s default on a busy machine.
  await expect(page).toHaveURL(/\?saved=shop#shop$/, { timeout: 20_000 });
  await expect(page.getByRole("status").filter({ hasText: "Salvato: Dati del negozio e orari." })).toBeVisible();
  await openHydrated(page, "/admin/messa-online");
  await expect(main(page).getByRole("listitem").filter({ hasText: "Ragione sociale: ancora il valore d'esempio" })).toHaveCount(1);
  await expect(main(page).getByRole("listitem").filter({ hasText: "Partita IVA: ancora il valore d'esempio «IT07412580636»" })).toHaveCount(0);
  // The invoices' own partita IVA is another setting: still the sample's until the fiscal data are saved.
  await expect(main(page).getByRole("link", { name: "Dove: Impostazioni › Dati fiscali per le fatture › Partita IVA" })).toHaveCount(1);
});
