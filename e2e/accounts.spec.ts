import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { localOidcIdentity, startLocalOidcProvider, type LocalOidcProvider } from "../tests/peers/local-oidc-provider";
import { startLocalSmtpServer, type LocalSmtpServer } from "../tests/peers/local-smtp-server";
import { expect as baseExpect, test } from "./fixtures";
import { freePort, startPeerShop } from "./peer-shop";
import { customerPassword as password, logIn, openHydrated as open, register, type Locale } from "./shop-helpers";

// Every login and registration hashes a password (scrypt): on a busy 2-core machine a form's answer can take seconds.
const expect = baseExpect.configure({ timeout: 15_000 });

// Issue 5, accounts. Refused forms answer 400/429 and protected pages 401/403, which Chromium logs
// as failed resources.
test.use({ allowedBrowserErrors: [/status of (400|401|403|404|429)/] });
// Journeys of many steps (each login hashes a password) on a 2-core machine shared with other suites.
test.describe.configure({ timeout: 120_000 });

const texts = {
  it: {
    loginRequired: "Accedi per continuare",
    loginOrRegister: "Accedi o registrati",
    registerSection: "Nuovo cliente?",
    name: "Nome e cognome",
    confirm: "Conferma password",
    privacy: /Ho letto l'informativa/,
    myAccount: "Il mio account",
    addAddressForm: "Aggiungi un indirizzo",
    addAddress: "Aggiungi l'indirizzo",
    firstName: "Nome",
    lastName: "Cognome",
    street: "Via o piazza",
    houseNumber: "Numero civico",
    postcode: "CAP",
    city: "Città",
    province: "Provincia",
    label: "Nome dell'indirizzo",
    postcodeError: "Il CAP è di 5 cifre, ad esempio 80100.",
    provinceError: "Scrivi la sigla di una provincia italiana, di 2 lettere, ad esempio NA.",
    added: "Indirizzo aggiunto.",
    updated: "Indirizzo aggiornato.",
    deleted: "Indirizzo eliminato.",
    edit: "Modifica",
    save: "Salva le modifiche",
    delete: "Elimina",
    purchases: "I miei acquisti",
    noPurchases: "Non hai ancora fatto acquisti",
    logout: "Esci",
    loggedOut: "Sei uscito dal tuo account.",
  },
  en: {
    loginRequired: "Please log in to continue",
    loginOrRegister: "Log in or register",
    registerSection: "New customer?",
    name: "Full name",
    confirm: "Confirm password",
    privacy: /I have read the privacy notice/,
    myAccount: "My account",
    addAddressForm: "Add an address",
    addAddress: "Add the address",
    firstName: "First name",
    lastName: "Last name",
    street: "Street or square",
    houseNumber: "House number",
    postcode: "Postcode (CAP)",
    city: "Town or city",
    province: "Province",
    label: "Address name",
    postcodeError: "The postcode has 5 digits, for example 80100.",
    provinceError: "Enter the 2-letter code of an Italian province, for example NA.",
    added: "Address added.",
    updated: "Address updated.",
    deleted: "Address deleted.",
    edit: "Edit",
    save: "Save changes",
    delete: "Delete",
    purchases: "My purchases",
    noPurchases: "You have not bought anything yet",
    logout: "Log out",
    loggedOut: "You have logged out.",
  },
} as const satisfies Record<Locale, unknown>;

const uniqueEmail = (tag: string) => `${tag}-${crypto.randomBytes(4).toString("hex")}@example.com`;

async function logOut(page: Page, locale: Locale, name: string) {
  await page
    .locator("summary")
    .filter({ hasText: `${texts[locale].myAccount} (${name})` })
    .click();
  await page.getByRole("button", { name: texts[locale].logout, exact: true }).click();
  // The home page (with its product pictures) comes first: give it time on a busy machine.
  await expect(page.locator("[data-toast-kind]").filter({ hasText: texts[locale].loggedOut })).toBeVisible({ timeout: 20_000 });
}

for (const locale of ["it", "en"] as const) {
  const t = texts[locale];

  test(`logged out, account pages answer the 401 page and come back after login (${locale})`, async ({ page, expectNoAxeViolations }) => {
    for (const path of ["/my-account", "/shopping", "/admin"]) {
      const response = await open(page, localizedHref(path, locale));
      expect(response?.status(), path).toBe(401);
      await expect(page.getByRole("heading", { level: 1, name: t.loginRequired })).toBeVisible();
    }
    await expectNoAxeViolations(page);
    // The page's link keeps the way back.
    await page.getByRole("link", { name: t.loginOrRegister }).click();
    await expect(page).toHaveURL(
      new RegExp(`${localizedHref("/login-register", locale)}\\?redirectTo=${encodeURIComponent(localizedHref("/admin", locale))}`),
    );
  });

  test(`register, log in before confirming, manage addresses, see purchases, log out (${locale})`, async ({ page, expectNoAxeViolations }) => {
    const email = uniqueEmail(`journey-${locale}`);
    await open(page, localizedHref("/login-register", locale));
    await expectNoAxeViolations(page);
    await register(page, { name: "Maria Rossi", email }, locale);
    await expectNoAxeViolations(page);

    // From the 401 page of /shopping: log in, and land back on /shopping.
    await open(page, localizedHref("/shopping", locale));
    await page.getByRole("link", { name: t.loginOrRegister }).click();
    await logIn(page, { email }, locale);
    await expect(page).toHaveURL(new RegExp(`${localizedHref("/shopping", locale)}$`));
    await expect(page.getByRole("heading", { level: 1, name: t.purchases })).toBeVisible();
    await expect(page.getByRole("heading", { name: t.noPurchases })).toBeVisible();
    await expectNoAxeViolations(page);

    // Addresses: wrong postcode and province first, each message on its field.
    await open(page, localizedHref("/my-account", locale));
    const form = page.getByRole("form", { name: t.addAddressForm });
    await form.getByLabel(t.label).fill("Casa");
    await form.getByRole("textbox", { name: t.firstName, exact: true }).fill("Maria");
    await form.getByLabel(t.lastName).fill("D'Angelo");
    await form.getByLabel(t.street).fill("Via Toledo");
    await form.getByLabel(t.houseNumber).fill("12/B");
    await form.getByLabel(t.postcode).fill("801");
    await form.getByLabel(t.city).fill("Napoli");
    await form.getByLabel(t.province).fill("XX");
    await form.getByRole("button", { name: t.addAddress }).click();
    await expect(form.getByLabel(t.postcode)).toHaveAccessibleDescription(new RegExp(t.postcodeError.replace(/[.()]/g, "\\$&")));
    await expect(form.getByLabel(t.province)).toHaveAccessibleDescription(new RegExp(t.provinceError.replace(/[.()]/g, "\\$&")));
    await expect(form.getByLabel(t.postcode)).toBeFocused();
    await expectNoAxeViolations(page);
    await form.getByLabel(t.postcode).fill("80134");
    await form.getByLabel(t.province).fill("na");
    await form.getByRole("button", { name: t.addAddress }).click();
    await expect(page.getByRole("status").filter({ hasText: t.added })).toBeVisible();
    await expect(page.getByText("80134 Napoli (NA)")).toBeVisible();

    await page.getByRole("link", { name: `${t.edit} Casa` }).click();
    const editForm = page.locator("#address-form");
    await expect(editForm.getByLabel(t.city)).toHaveValue("Napoli");
    await editForm.getByLabel(t.city).fill("Pozzuoli");
    await editForm.getByLabel(t.postcode).fill("80078");
    await editForm.getByRole("button", { name: t.save }).click();
    await expect(page.getByRole("status").filter({ hasText: t.updated })).toBeVisible();
    await expect(page.getByText("80078 Pozzuoli (NA)")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: `${t.delete} Casa` }).click();
    await expect(page.getByRole("status").filter({ hasText: t.deleted })).toBeVisible();
    await expect(page.getByText("80078 Pozzuoli (NA)")).toHaveCount(0);

    await logOut(page, locale, "Maria Rossi");
    const after = await open(page, localizedHref("/my-account", locale));
    expect(after?.status()).toBe(401);
  });
}

// Desktop only: the same registration form the journey above fills on the phone; its refusals are the server's.
test(
  "registration refuses empty, mismatched and common passwords with messages on the fields",
  { tag: "@desktop-only" },
  async ({ page, expectNoAxeViolations }) => {
    await open(page, "/login-register");
    const form = page.getByRole("region", { name: texts.it.registerSection });
    await form.getByRole("button", { name: "Registrati" }).click();
    await expect(form.getByLabel(texts.it.name)).toHaveAccessibleDescription("Scrivi il tuo nome e cognome.");
    await expect(form.getByLabel(texts.it.name)).toBeFocused();
    await expect(form.getByText("Per registrarti devi accettare l'informativa sulla privacy.")).toBeVisible();
    await expectNoAxeViolations(page);

    await form.getByLabel(texts.it.name).fill("<script>alert(1)</script>");
    await form.getByLabel("E-mail").fill(uniqueEmail("bad"));
    await form.locator("input[name=password]").fill("password1");
    await form.getByLabel(texts.it.confirm).fill("password2");
    await form.getByLabel(texts.it.privacy).check();
    await form.getByRole("button", { name: "Registrati" }).click();
    await expect(form.getByLabel(texts.it.name)).toHaveAccessibleDescription(
      "Il nome può contenere solo lettere, spazi, apostrofi, punti e trattini.",
    );
    await expect(form.getByLabel(texts.it.confirm)).toHaveAccessibleDescription(/Le due password non coincidono\./);
    await form.getByLabel(texts.it.name).fill("Maria Rossi");
    await form.locator("input[name=password]").fill("password1");
    await form.getByLabel(texts.it.confirm).fill("password1");
    await form.getByRole("button", { name: "Registrati" }).click();
    await expect(form.locator("input[name=password]")).toHaveAccessibleDescription(/Questa password è troppo comune o facile da indovinare/);
  },
);

test("the 6th wrong password within a minute is refused with a clear message", { tag: "@server-rule" }, async ({ page }) => {
  const email = uniqueEmail("brute");
  await open(page, "/login-register");
  await register(page, { name: "Maria Rossi", email });
  for (let attempt = 1; attempt <= 5; attempt++) {
    await logIn(page, { email, password: `wrong-password-${attempt}` });
    await expect(page.getByRole("alert").filter({ hasText: "E-mail o password non corrette." })).toBeVisible();
  }
  await logIn(page, { email, password });
  await expect(page.getByRole("alert").filter({ hasText: "Troppi tentativi: riprova tra un minuto." })).toBeVisible();
  await expect(page).toHaveURL(/\/login-register/);
});

test(
  "forgot password answers the same for any address; a bad reset link says so",
  { tag: "@server-rule" },
  async ({ page, expectNoAxeViolations }) => {
    await open(page, "/en/forgot-password");
    await page.getByRole("textbox", { name: "E-mail", exact: true }).fill(uniqueEmail("nobody"));
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Check your inbox" })).toBeVisible();
    await expectNoAxeViolations(page);
    await open(page, "/reset-password?token=not-a-real-token");
    await page.locator("input[name=password]").fill("Pappa-Pronta-2031");
    await page.locator("input[name=passwordConfirm]").fill("Pappa-Pronta-2031");
    await page.getByRole("button", { name: "Salva la nuova password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "non è valido o è scaduto" })).toBeVisible();
    await expectNoAxeViolations(page);
  },
);

test("a customer who opens /admin gets the restricted page (403)", { tag: "@server-rule" }, async ({ page }) => {
  const email = uniqueEmail("customer");
  await open(page, "/login-register?redirectTo=%2Fadmin");
  await register(page, { name: "Maria Rossi", email });
  await logIn(page, { email });
  await expect(page.getByRole("heading", { level: 1, name: "Accesso riservato" })).toBeVisible();
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
});

// ---------------------------------------------------------------- e-mail and the external provider

/**
 * A shop of its own for the journeys that need outside peers: a local SMTP server receives its mail
 * (the delivery job sends every 15 s) and a local OpenID Connect provider signs people in.
 */
type Peers = { baseUrl: string; smtp: LocalSmtpServer; idp: LocalOidcProvider; stop: () => Promise<void> };

async function startShopWithPeers(): Promise<Peers> {
  const smtp = await startLocalSmtpServer();
  const port = await freePort();
  const idp = await startLocalOidcProvider({ redirectUri: `http://127.0.0.1:${port}/api/auth/callback/oidc` });
  const shop = await startPeerShop({
    name: "accounts",
    port,
    env: () => ({
      SMTP_URL: smtp.url,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_PROVIDER_NAME: "Identità Locale",
    }),
  });
  return {
    baseUrl: shop.baseUrl,
    smtp,
    idp,
    stop: async () => {
      await shop.stop();
      await Promise.all([smtp.close(), idp.close()]);
    },
  };
}

/** Waits for the shop's mail to `to` whose subject matches, and returns the shop link in it. */
async function linkFromMail(smtp: LocalSmtpServer, to: string, subject: RegExp): Promise<string> {
  await expect
    .poll(() => smtp.received.some((mail) => mail.envelopeTo.includes(to) && subject.test(mail.headers.subject ?? "")), {
      timeout: 45_000,
      intervals: [500],
    })
    .toBe(true);
  const mail = smtp.received.findLast((candidate) => candidate.envelopeTo.includes(to) && subject.test(candidate.headers.subject ?? ""))!;
  return /https?:\/\/\S+token=\S+/.exec(mail.text ?? "")![0];
}

// A shop of its own with its peers for two journeys whose forms are the same pages the journeys above check on
// both screens (and the provider's pages are not the shop's): on the desktop only, to keep within CI's time.
test.describe("with mail and the external provider", { tag: "@desktop-only" }, () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  // The provider's development login page asks for a web font, which the offline test machine cannot reach.
  test.use({ allowedBrowserErrors: [/status of (400|401|403|404|429)|\/interaction\/.*net::ERR_NAME_NOT_RESOLVED/] });
  let peers: Peers;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    peers = await startShopWithPeers();
  });
  test.afterAll(async () => {
    await peers?.stop();
  });

  test("register, confirm from the e-mail, log out, reset the password from the e-mail, log in", async ({ page, expectNoAxeViolations }) => {
    const email = uniqueEmail("mail");
    await open(page, `${peers.baseUrl}/login-register`);
    await register(page, { name: "Lucia Ferrara", email });

    const verifyLink = await linkFromMail(peers.smtp, email, /Conferma il tuo indirizzo e-mail/);
    expect(verifyLink.startsWith(`${peers.baseUrl}/verify-email?token=`)).toBe(true);
    await open(page, verifyLink);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Conferma l'indirizzo" }).click();
    await expect(page).toHaveURL(/\/my-account\?done=emailVerified/);
    await expect(page.getByRole("status").filter({ hasText: "Indirizzo e-mail confermato." })).toBeVisible();
    await expect(page.getByText("E-mail confermata")).toBeVisible();
    await expectNoAxeViolations(page);

    await logOut(page, "it", "Lucia Ferrara");

    await open(page, `${peers.baseUrl}/forgot-password`);
    await page.getByRole("textbox", { name: "E-mail", exact: true }).fill(email);
    await page.getByRole("button", { name: "Invia il link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Controlla la tua casella di posta" })).toBeVisible();
    const resetLink = await linkFromMail(peers.smtp, email, /Reimposta la tua password/);
    await open(page, resetLink);
    await expectNoAxeViolations(page);
    const newPassword = "Pappa-Pronta-2031";
    await page.locator("input[name=password]").fill(newPassword);
    await page.locator("input[name=passwordConfirm]").fill(newPassword);
    await page.getByRole("button", { name: "Salva la nuova password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Password aggiornata" })).toBeVisible();

    await logIn(page, { email, password });
    await expect(page.getByRole("alert").filter({ hasText: "E-mail o password non corrette." })).toBeVisible();
    await logIn(page, { email, password: newPassword });
    await expect(page).toHaveURL(/\/my-account$/);

    // The link works once only.
    await logOut(page, "it", "Lucia Ferrara");
    await open(page, resetLink);
    await page.locator("input[name=password]").fill("Altra-Pappa-2032");
    await page.locator("input[name=passwordConfirm]").fill("Altra-Pappa-2032");
    await page.getByRole("button", { name: "Salva la nuova password" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "non è valido o è scaduto" })).toBeVisible();
  });

  test("sign in through the local OpenID Connect provider, in English", async ({ page, expectNoAxeViolations }) => {
    await open(page, `${peers.baseUrl}/en/login-register?redirectTo=%2Fen%2Fshopping`);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Log in with Identità Locale" }).click();
    // The provider's own (development) login and consent pages.
    await page.locator("input[name=login]").fill("giulia");
    await page.locator("input[name=password]").fill("any-password");
    await page.locator("button[type=submit]").click();
    await page.locator("button[type=submit]").click();
    await expect(page).toHaveURL(`${peers.baseUrl}/en/shopping`);
    await expect(page.getByRole("heading", { level: 1, name: "My purchases" })).toBeVisible();
    await page
      .locator("summary")
      .filter({ hasText: `My account (${localOidcIdentity("giulia").name})` })
      .click();
    await page.getByRole("link", { name: localOidcIdentity("giulia").name }).click();
    await expect(page.getByText(localOidcIdentity("giulia").email, { exact: true })).toBeVisible();
    await expect(page.getByText("E-mail confirmed")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
