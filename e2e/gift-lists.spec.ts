import crypto from "node:crypto";
import type { Browser, Cookie, Page } from "@playwright/test";
import { italianDayOf } from "../common/shop-calendar";
import { hasBackOfficeAccount } from "./back-office-account";
import { expect as baseExpect, test } from "./fixtures";
import { addToGiftListFromProductPage, logIn, openHydrated as open, register } from "./shop-helpers";

// Each step waits for a server round trip on a machine shared with other suites: allow for it.
const expect = baseExpect.configure({ timeout: 20_000 });

// Issue 7, gift lists. Sample products (server/db/sample-catalogue.ts):
//  47 Parapioggia universale per passeggino: simple, stock 13
// 111 Cornice in legno con nome inciso: two personalisation fields
//  83 Culla a dondolo Foppapedretti: pre-order sizes (21 days), 269 €: the group gift
//  50 Organizer portaoggetti per passeggino: an ordinary item for the mixing rule
// The list is for today: the completion discount's window opens on the event day (decision 0016), so
// the journey sees the code without moving any clock.

// Pages answering 401 (logged out) and 404 (unknown codes) are part of the journeys.
test.use({ allowedBrowserErrors: [/status of (400|401|404|409)/] });

const conflictOrdinary =
  "Il tuo carrello contiene già 1 o più articoli. Completa l'acquisto o svuota il carrello prima di aggiungere articoli della lista regalo.";
const conflictGiftList =
  "Il tuo carrello contiene già 1 o più articoli della Lista Regalo. Completa l'acquisto o svuota il carrello prima di aggiungere articoli della lista regalo.";

const toast = (page: Page, text: string) => page.locator("[data-toast-kind]").filter({ hasText: text });

/** A new customer, registered and logged in through the pages (see e2e/accounts.spec.ts). */
async function registerAndLogIn(page: Page, email: string) {
  await open(page, "/login-register");
  await register(page, { name: "Anna Esposito", email });
  await logIn(page, { email });
  await expect(page.locator("summary").filter({ hasText: "Anna Esposito" })).toBeVisible({ timeout: 30_000 });
}

async function guest(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

// One family and its guests, step by step (each step its own test: the machine may be slow).
test.describe.serial("a birth list from creation to gifts", () => {
  const tag = crypto.randomBytes(3).toString("hex");
  const names = `Nicolò e Andrea ${tag}`;
  const title = `La lista di Nicolò ${tag}`;
  let code = "";
  // The parent's session, kept from the first step: the later steps come back signed in, not through the login page.
  let parentCookies: Cookie[] = [];

  test("a parent creates the list, adds three products from their pages and invites two addresses", async ({ page, expectNoAxeViolations }) => {
    test.setTimeout(240_000);

    // The parent: logged out, the page asks to log in first.
    expect((await open(page, "/crea-lista-nascita"))?.status()).toBe(401);
    await registerAndLogIn(page, `genitore-${tag}@example.com`);

    await open(page, "/crea-lista-nascita");
    await expectNoAxeViolations(page);
    const form = page.getByRole("form", { name: "Crea una nuova lista" });
    await form.getByLabel("Titolo della lista").fill(title);
    await form.getByLabel("Data dell'evento").fill("2020-01-01");
    await form.getByRole("button", { name: "Crea la lista" }).click();
    // The past date and the missing names in one answer.
    await expect(form.getByLabel("Data dell'evento")).toHaveAccessibleDescription("La data dell'evento non può essere nel passato.");
    await expect(form.getByLabel("Nomi dei festeggiati")).toHaveAccessibleDescription(/Inserisci i nomi dei festeggiati/);
    await form.getByLabel("Data dell'evento").fill(italianDayOf(new Date()));
    await form.getByLabel("Nomi dei festeggiati").fill(names);
    await form.getByLabel("Messaggio per gli invitati").fill("Grazie di cuore!");
    await form.getByRole("button", { name: "Crea la lista" }).click();
    await expect(page.getByRole("status").filter({ hasText: "La lista è stata creata." })).toBeVisible();
    const card = page.getByRole("article", { name: title });
    code = (await card.locator("strong.font-mono").textContent())!.trim();
    expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);

    // The product page's selector: no list chosen, then cancel (clears the choice), then three products.
    await open(page, "/product/47");
    const selector = page.getByRole("region", {
      name: "Aggiungi alla lista nascita",
    });
    await selector.getByRole("button", { name: "Aggiungi alla lista" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Oops..." })).toBeVisible();
    await expect(dialog.getByText("Non hai selezionato nessuna lista")).toBeVisible();
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Chiudi" }).click();
    await selector.getByLabel("La tua lista").selectOption({ label: title });
    await selector.getByRole("button", { name: "Aggiungi alla lista" }).click();
    await expect(dialog.getByText("Quantità: 1")).toBeVisible();
    await dialog.getByRole("button", { name: "Annulla" }).click();
    await expect(selector.getByLabel("La tua lista")).toHaveValue("");

    await addToGiftListFromProductPage(page, 47, title);
    await addToGiftListFromProductPage(page, 111, title, ["Nicolò", "1 marzo 2026"]);
    await addToGiftListFromProductPage(page, 83, title);

    // My lists: the three items with wished and bought; invitations (a bad address first).
    await open(page, "/crea-lista-nascita");
    await expect(card.getByRole("link", { name: "Parapioggia universale per passeggino" })).toBeVisible();
    await expect(card.getByRole("link", { name: "Cornice in legno con nome inciso" })).toBeVisible();
    await expect(card.getByText("Nome del bambino: Nicolò")).toBeVisible();
    await expect(card.getByText("Su prenotazione: arriverebbe dopo la data dell'evento.")).toBeVisible();
    const invite = card.getByRole("region", { name: "Invita parenti e amici" });
    await invite.getByLabel("Indirizzi e-mail").fill("nonna@example.com, zia@");
    await invite.getByRole("button", { name: "Invia gli inviti" }).click();
    await expect(page.getByRole("article", { name: title }).getByLabel("Indirizzi e-mail")).toHaveAccessibleDescription(
      /Questi indirizzi non sono validi: zia@/,
    );
    await page.getByRole("article", { name: title }).getByLabel("Indirizzi e-mail").fill("nonna@example.com\nzia.carla@example.com");
    await page.getByRole("article", { name: title }).getByRole("button", { name: "Invia gli inviti" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Abbiamo inviato 2 inviti." })).toBeVisible();
    await expect(card.getByText("zia.carla@example.com")).toBeVisible();
    await expectNoAxeViolations(page);
    parentCookies = await page.context().cookies();
  });

  test("the two invitations wait in the back office's outbox", async ({ page, signInAs, expectNoAxeViolations }) => {
    test.skip(!hasBackOfficeAccount(), "the server under test has no back-office account");
    test.setTimeout(120_000);
    await signInAs(page.context(), "backOffice");
    await open(page, "/admin/posta");
    const outbox = page.getByRole("table", { name: "Posta in uscita" });
    for (const address of ["nonna@example.com", "zia.carla@example.com"]) {
      await expect(outbox.getByRole("row").filter({ hasText: address }).filter({ hasText: title })).toHaveCount(1);
    }
    await expectNoAxeViolations(page);
  });

  test("a guest finds the list by name and by code, gives an item and leaves a message", async ({ browser, expectNoAxeViolations }) => {
    test.setTimeout(240_000);
    // A guest finds it by name (case and accents ignored) and by code.
    const first = await guest(browser);
    await open(first.page, "/lista-nascita");
    await expectNoAxeViolations(first.page);
    await first.page.getByLabel("Nome dei festeggiati o titolo").fill(`NICOLO ${tag.toUpperCase()}`);
    await first.page.getByRole("button", { name: "Cerca", exact: true }).click();
    await expect(first.page.getByRole("heading", { name: "1 lista trovata" })).toBeVisible();
    await first.page.getByRole("link", { name: title }).click();
    await expect(first.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await open(first.page, "/lista-nascita");
    await first.page.getByLabel("Codice della lista").fill("<b>nope</b>");
    await first.page.getByRole("button", { name: "Apri la lista" }).click();
    await expect(first.page.getByLabel("Codice della lista")).toHaveAccessibleDescription(/Il codice non è valido/);
    await first.page.getByLabel("Codice della lista").fill(code.toLowerCase());
    await first.page.getByRole("button", { name: "Apri la lista" }).click();
    await expect(first.page).toHaveURL(new RegExp(`/lista-nascita/${code}$`));
    await first.page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });
    await expect(first.page.getByText(`Per ${names}`)).toBeVisible();
    await expect(first.page.getByText(/Attenzione: è su prenotazione/)).toBeVisible();
    await expect(first.page.getByText("Ne manca 1 di 1").first()).toBeVisible();
    await expectNoAxeViolations(first.page);

    // The guest gives the rain cover; an ordinary item then meets the mixing rule's text (docs/rules.md#gift-list-mixing).
    const rainCover = first.page.getByRole("article", {
      name: "Parapioggia universale per passeggino",
    });
    await rainCover.getByRole("button", { name: /Regala/ }).click();
    await expect(toast(first.page, "Aggiunto al carrello")).toBeVisible();
    await expect(rainCover.getByText("Nel tuo carrello: 1")).toBeVisible();
    await expect(first.page.getByRole("heading", { name: "Un messaggio per la famiglia" })).toBeVisible();
    await first.page.getByLabel("Il tuo nome").fill("Zia Carla");
    await first.page.getByLabel("Il tuo messaggio").fill("Benvenuti!");
    await first.page.getByRole("button", { name: "Salva il messaggio" }).click();
    await expect(first.page.getByRole("status").filter({ hasText: "Il messaggio è stato salvato" })).toBeVisible();
    await open(first.page, "/product/50");
    await first.page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
    await expect(toast(first.page, conflictGiftList)).toBeVisible();
    await first.context.close();
  });

  test("another guest with an ordinary item cannot add from the list; the list in English", async ({ browser, expectNoAxeViolations }) => {
    test.setTimeout(240_000);
    // Another guest with an ordinary item in the cart cannot add from the list.
    const second = await guest(browser);
    await open(second.page, "/product/50");
    await second.page.getByRole("button", { name: "Aggiungi al carrello" }).first().click();
    await expect(toast(second.page, "Aggiunto al carrello")).toBeVisible();
    await open(second.page, `/lista-nascita/${code}`);
    await second.page
      .getByRole("article", { name: "Parapioggia universale per passeggino" })
      .getByRole("button", { name: /Regala/ })
      .click();
    await expect(toast(second.page, conflictOrdinary)).toBeVisible();
    // Persistent: still there after the usual toast time.
    await second.page.waitForTimeout(6000);
    await expect(toast(second.page, conflictOrdinary)).toBeVisible();

    // In English, by code.
    await open(second.page, "/en/lista-nascita");
    await second.page.getByLabel("List code").fill(code);
    await second.page.getByRole("button", { name: "Open the list" }).click();
    await expect(second.page).toHaveURL(new RegExp(`/en/lista-nascita/${code}$`));
    await second.page.locator('[data-toaster="hydrated"]').waitFor({ state: "attached" });
    await expect(second.page.getByRole("heading", { name: "The gifts wished for" })).toBeVisible();
    await expect(second.page.getByText(/Note: this is a pre-order/)).toBeVisible();
    await expectNoAxeViolations(second.page);
    await second.context.close();
  });

  test("a guest buys from the list through checkout, paying by card; the parent sees it bought", async ({
    browser,
    page,
    signInAs,
    expectNoAxeViolations,
  }) => {
    test.setTimeout(240_000);
    const buyer = await guest(browser);
    await open(buyer.page, `/lista-nascita/${code}`);
    const rainCover = buyer.page.getByRole("article", { name: "Parapioggia universale per passeggino" });
    await rainCover.getByRole("button", { name: /Regala/ }).click();
    await expect(toast(buyer.page, "Aggiunto al carrello")).toBeVisible();
    await buyer.page.getByLabel("Il tuo nome").fill("Nonna Lucia");
    await buyer.page.getByLabel("Il tuo messaggio").fill("Un abbraccio grande!");
    await buyer.page.getByRole("button", { name: "Salva il messaggio" }).click();
    await expect(buyer.page.getByRole("status").filter({ hasText: "Il messaggio è stato salvato" })).toBeVisible();

    // Checkout: the list's delivery as text, no address to type, the giver's note, no cash on delivery.
    await open(buyer.page, "/checkout");
    await expect(buyer.page.getByRole("group", { name: `Un regalo dalla lista «${title}»` })).toBeVisible();
    await expect(buyer.page.getByTestId("gift-list-delivery")).toContainText("La famiglia lo ritira in negozio");
    await expect(buyer.page.getByTestId("gift-list-note")).toContainText("Nonna Lucia");
    await expect(buyer.page.getByTestId("gift-list-note")).toContainText("Un abbraccio grande!");
    await expect(buyer.page.getByRole("textbox", { name: "CAP", exact: true })).toHaveCount(0);
    await expect(buyer.page.getByRole("radio", { name: /^Contrassegno/ })).toBeDisabled();
    await expect(buyer.page.getByText("Per i regali dalla lista il contrassegno non è disponibile")).toBeVisible();
    await expectNoAxeViolations(buyer.page);
    const field = (name: string) => buyer.page.getByRole("textbox", { name, exact: true });
    await field("Nome").fill("Lucia");
    await field("Cognome").fill("Russo");
    await field("E-mail").fill(`nonna-${tag}@example.com`);
    await field("Telefono").fill("+39 333 765 4321");
    await buyer.page.getByRole("radio", { name: /^Carta di credito o di debito/ }).check();
    await buyer.page.getByRole("checkbox", { name: /Ho letto e accetto le condizioni di vendita/ }).check();
    await buyer.page.getByRole("button", { name: "Ordine con obbligo di pagamento" }).click();

    // The labelled test-payment page stands in for the card provider (no keys in e2e).
    await expect(buyer.page).toHaveURL(/\/pagamento-di-prova\//);
    await buyer.page.getByRole("button", { name: /^Paga / }).click();
    await expect(buyer.page.getByTestId("order-status")).toHaveText("Stato: Pagato", { timeout: 20_000 });
    await expect(buyer.page.getByText("Ritiro in negozio").first()).toBeVisible();
    await expectNoAxeViolations(buyer.page);
    await buyer.context.close();

    // The parent comes back and sees the rain cover bought, thanks Nonna Lucia, and has the completion code.
    await page.context().addCookies(parentCookies);
    await open(page, "/crea-lista-nascita");
    const list = page.getByRole("article", { name: title });
    // The item row (wished/bought/missing), not the thank-you tracker's row naming the same product.
    const item = list.getByRole("listitem").filter({ hasText: "Parapioggia universale per passeggino" }).filter({ hasText: "Desiderati" });
    await expect(item.getByRole("definition").nth(1)).toHaveText("1");
    await expect(item).toContainText("Regalati:1");
    const thanks = list.getByTestId("gift-thanks");
    await expect(thanks.getByRole("listitem").filter({ hasText: "Nonna Lucia" })).toContainText("Parapioggia universale per passeggino");
    await thanks.getByRole("button", { name: "Segna come ringraziato Nonna Lucia" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Regalo segnato come ringraziato." })).toBeVisible();
    await expect(list.getByTestId("gift-thanks")).toContainText("Ringraziati: 1 su 1.");
    // The event is today: what nobody gave yet, the family may buy with the completion code.
    await expect(list.getByTestId("completion-code")).toContainText(`GRAZIE${code}`);

    // The parent was told by e-mail, with the giver's name (queued in the outbox: e2e has no SMTP).
    if (hasBackOfficeAccount()) {
      const staff = await guest(browser);
      await signInAs(staff.context, "backOffice");
      await open(staff.page, "/admin/posta");
      const outbox = staff.page.getByRole("table", { name: "Posta in uscita" });
      await expect(
        outbox
          .getByRole("row")
          .filter({ hasText: `genitore-${tag}@example.com` })
          .filter({ hasText: `Nonna Lucia ha fatto un regalo dalla lista «${title}»` }),
      ).toHaveCount(1);
      await staff.context.close();
    }
  });

  test("a group gift: the parent opens the crib to it, two guests fund it (one in English), the parent sees it given", async ({
    browser,
    page,
    expectNoAxeViolations,
  }) => {
    test.setTimeout(300_000);
    const crib = "Culla a dondolo in legno di faggio Foppapedretti";
    await page.context().addCookies(parentCookies);
    await open(page, "/crea-lista-nascita");
    const cribRow = () =>
      page.getByRole("article", { name: title }).getByRole("listitem").filter({ hasText: crib }).filter({ hasText: "Desiderati" });
    await cribRow()
      .getByRole("button", { name: `Apri come regalo di gruppo ${crib}` })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "L'articolo ora è un regalo di gruppo." })).toBeVisible();
    await expect(cribRow()).toContainText("Raccolti 0,00 € di 269,00 € (0%)");

    // Zia Carla gives 100 € by card (the labelled test-payment page).
    const carla = await guest(browser);
    await open(carla.page, `/lista-nascita/${code}`);
    const italianCard = carla.page.getByRole("article", { name: crib });
    await expect(italianCard).toContainText("Regalo di gruppo");
    await expect(italianCard).toContainText("Mancano 269,00 €");
    await italianCard.getByLabel("Il tuo contributo in euro").fill("100");
    await italianCard.getByLabel("Il tuo nome").fill("Zia Carla");
    await italianCard.getByLabel("La tua e-mail").fill(`carla-${tag}@example.com`);
    await italianCard.getByLabel("Il tuo messaggio per la famiglia").fill("Sogni d'oro!");
    await italianCard.getByRole("checkbox", { name: /Ho letto e accetto le/ }).check();
    await italianCard.getByRole("button", { name: /Contribuisci e paga con carta/ }).click();
    await expect(carla.page).toHaveURL(/\/pagamento-di-prova\//);
    await carla.page.getByRole("button", { name: /^Paga / }).click();
    await expect(carla.page.getByTestId("order-status")).toHaveText("Stato: Pagato", { timeout: 20_000 });
    await expect(carla.page.getByText("quando la quota sarà completa, il regalo arriverà alla famiglia").first()).toBeVisible();
    await carla.context.close();

    // Uncle Tom, in English: more than is missing is refused with what is left, then he gives the rest.
    const tom = await guest(browser);
    await open(tom.page, `/en/lista-nascita/${code}`);
    const englishCard = tom.page.getByRole("article", { name: "Foppapedretti beech wood rocking crib" });
    await expect(englishCard).toContainText("€100.00 of €269.00 collected (37%)");
    await englishCard.getByLabel("Your contribution in euros").fill("200");
    await englishCard.getByLabel("Your name").fill("Uncle Tom");
    await englishCard.getByLabel("Your e-mail").fill(`tom-${tag}@example.com`);
    await englishCard.getByRole("checkbox", { name: /I have read and accept the/ }).check();
    await englishCard.getByRole("button", { name: /Contribute and pay by card/ }).click();
    // The refusal belongs to the amount: the field is marked invalid and described by it.
    const amount = englishCard.getByLabel("Your contribution in euros");
    await expect(amount).toHaveAttribute("aria-invalid", "true");
    await expect(amount).toHaveAccessibleDescription(/Only €169\.00 is still missing: your contribution cannot be more than that\./);
    await expectNoAxeViolations(tom.page);
    await englishCard.getByLabel("Your contribution in euros").fill("169");
    await englishCard.getByRole("checkbox", { name: /I have read and accept the/ }).check();
    await englishCard.getByRole("button", { name: /Contribute and pay by card/ }).click();
    await expect(tom.page).toHaveURL(/\/en\/pagamento-di-prova\//);
    await tom.page.getByRole("button", { name: /^Pay / }).click();
    // His payment completed the crib: the contributions' orders are done (the list's own order ships it).
    await expect(tom.page.getByTestId("order-status")).toHaveText("Status: Completed", { timeout: 20_000 });
    await tom.context.close();

    // Funded: the crib is given, and both contributions are in the thank-you tracker.
    await open(page, "/crea-lista-nascita");
    await expect(cribRow()).toContainText("Regalati:1");
    const thanks = page.getByRole("article", { name: title }).getByTestId("gift-thanks");
    await expect(thanks.getByRole("listitem").filter({ hasText: "Zia Carla" })).toContainText(`Ha contribuito con 100,00 € a ${crib}`);
    await expect(thanks.getByRole("listitem").filter({ hasText: "Uncle Tom" })).toContainText(`Ha contribuito con 169,00 € a ${crib}`);
  });
});

test("unknown codes and other customers: nothing is found or shown", { tag: "@server-rule" }, async ({ page, expectNoAxeViolations }) => {
  test.setTimeout(90_000);
  expect((await open(page, "/lista-nascita/ZZZZZZZZ"))?.status()).toBe(404);
  expect((await open(page, "/lista-nascita/%3Cscript%3E"))?.status()).toBe(404);
  await open(page, "/en/lista-nascita?nome=%25");
  await expect(page.getByRole("heading", { name: "0 lists found" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect((await open(page, "/en/crea-lista-nascita"))?.status()).toBe(401);
});
