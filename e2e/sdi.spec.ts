import crypto from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { startLocalAcubeServer, type LocalAcubeServer } from "../tests/peers/local-acube-server";
import { expect as baseExpect, longJourneyLocales, test } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import fs from "node:fs";
import { addToCart, openHydrated, variantIdOf } from "./shop-helpers";
import { checkoutLabels, fillGuestDelivery, placeGuestOrder } from "./checkout-steps";

// Issue 39, invoices through the SDI: a company's invoice goes to a local A-Cube by itself once issued, the
// SDI rejects it (00305, the buyer's partita IVA), the staff see why and what to do, correct it (a partita
// IVA with a wrong check digit is refused first) and send it again; the SDI delivers it. In Italian and in
// English, on the desktop and on a phone: the staff handle rejections from the shop's phone too.
// Product 237, Pannolini Chicco Dry Fit Advanced (10 % VAT), in a shop of its own.

const expect = baseExpect.configure({ timeout: 20_000 });

const texts = {
  it: {
    ...checkoutLabels.it,
    company: "Sì, per un'azienda o un professionista (con la partita IVA)",
    companyName: "Ragione sociale",
    vatNumber: "Partita IVA",
    sdiCode: "Codice destinatario SDI",
    issue: "Emetti la fattura",
    issued: /Fattura n\. (\d{4}\/\d{4}) emessa\./,
    sdiTitle: "Fatture allo SDI",
    invoiceLink: (number: string) => `Fattura n. ${number}`,
    rejected: "Scartata (NS)",
    advice: /La partita IVA del cliente non risulta all'Anagrafe tributaria/,
    correction: "Partita IVA del cliente",
    resend: "Invia di nuovo allo SDI",
    badVat: "La partita IVA non è valida: l'ultima cifra non torna, controlla di averla scritta bene.",
    queued: "File corretto in coda: parte entro un minuto.",
    delivered: "Consegnata (RC)",
  },
  en: {
    ...checkoutLabels.en,
    company: "Yes, for a company or a professional (with a VAT number)",
    companyName: "Company name",
    vatNumber: "VAT number (Partita IVA)",
    sdiCode: "SDI recipient code",
    issue: "Issue the invoice",
    issued: /Invoice no\. (\d{4}\/\d{4}) issued\./,
    sdiTitle: "Invoices to the SDI",
    invoiceLink: (number: string) => `Invoice no. ${number}`,
    rejected: "Rejected (NS)",
    advice: /The customer's VAT number is not in the tax register/,
    correction: "Customer's VAT number",
    resend: "Send to the SDI again",
    badVat: "This VAT number is not valid: its last digit does not match, check that it is typed correctly.",
    queued: "Corrected file queued: it goes within a minute.",
    delivered: "Delivered (RC)",
  },
} as const;
type Locale = keyof typeof texts;

test.describe("invoices to the SDI through a local A-Cube", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  // The refused correction answers 400, which Chromium logs as a failed resource.
  test.use({ allowedBrowserErrors: [/status of 400/] });
  let acube: LocalAcubeServer;
  let shop: PeerShop;

  test.beforeAll(async () => {
    test.setTimeout(Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 240_000) + 60_000);
    acube = await startLocalAcubeServer();
    shop = await startPeerShop({
      name: "sdi",
      withBackOffice: true,
      env: () => ({
        ACUBE_EMAIL: acube.email,
        ACUBE_PASSWORD: acube.password,
        ACUBE_API_URL: acube.url,
        ACUBE_LOGIN_URL: acube.url,
        ACUBE_WEBHOOK_PUBLIC_KEY: acube.publicKey,
      }),
    });
    acube.webhookUrl = `${shop.baseUrl}/api/sdi/notifiche`;
  });
  test.afterAll(async () => {
    await shop?.stop();
    await acube?.close();
  });

  const open = (page: Page, path: string) => openHydrated(page, `${shop.baseUrl}${path}`);
  const shoot = (page: Page, name: string) => page.screenshot({ path: `/tmp/sdi-${name}-${test.info().project.name}.png`, fullPage: true });

  /** A company orders nappies by card (the test-payment page) and asks for an invoice with its SDI code; the order's id. */
  async function companyOrder(page: Page, locale: Locale) {
    const t = texts[locale];
    await addToCart(page, variantIdOf(237), 1, { shopUrl: shop.baseUrl });
    await open(page, localizedHref("/checkout", locale));
    const field = (name: string) => page.getByRole("textbox", { name, exact: true });
    await fillGuestDelivery(page, locale, {
      contact: { firstName: "Lucia", lastName: "Ferraro", email: `nido-${crypto.randomBytes(4).toString("hex")}@example.com` },
      address: { street: "Via Toledo", houseNumber: "10", postcode: "80134", city: "Napoli", province: "NA" },
      payment: t.card,
    });
    await page.getByRole("radio", { name: t.company, exact: true }).check();
    await field(t.companyName).fill("Asilo Nido Il Girasole S.r.l.");
    await field(t.vatNumber).fill("01234567897");
    await field(t.sdiCode).fill("M5UXCR1");
    await page.getByRole("checkbox", { name: t.terms }).check();
    await page.getByRole("button", { name: t.place }).click();
    await expect(page).toHaveURL(/\/pagamento-di-prova\//);
    await page.getByRole("button", { name: t.testPay }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.thanks })).toBeVisible({ timeout: 30_000 });
    return /\/ordine\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  }

  async function staffPage(
    context: BrowserContext,
    accountSessions: {
      sessionOf: (role: "backOffice", baseUrl: string) => Promise<{ storageState: { cookies: Parameters<BrowserContext["addCookies"]>[0] } }>;
    },
  ) {
    const session = await accountSessions.sessionOf("backOffice", shop.baseUrl);
    await context.addCookies(session.storageState.cookies);
    return context.newPage();
  }

  for (const locale of longJourneyLocales) {
    const t = texts[locale];
    test(`an invoice rejected by the SDI is corrected and delivered, as the staff see it (${locale === "it" ? "it" : "in English"})`, async ({
      page,
      browser,
      accountSessions,
      expectNoAxeViolations,
    }) => {
      const orderId = await companyOrder(page, locale);
      const staffContext = await browser.newContext({ viewport: page.viewportSize() });
      const staff = await staffPage(staffContext, accountSessions);

      // Issued by the staff: the SDI job hands the file to A-Cube a second later.
      const sentBefore = acube.files.length;
      await open(staff, localizedHref(`/admin/ordini/${orderId}`, locale));
      await staff.getByRole("button", { name: t.issue }).click();
      const notice = staff.getByText(t.issued);
      await expect(notice).toBeVisible();
      const number = t.issued.exec((await notice.textContent()) ?? "")![1]!;
      await expect.poll(() => acube.files.length, { timeout: 30_000 }).toBe(sentBefore + 1);
      const first = acube.files.at(-1)!;
      expect(first.xml).toContain(`<Numero>${number}</Numero>`);

      // The SDI rejects it: the buyer's partita IVA is not in the tax register.
      const rejection = await acube.notify(first.uuid, "NS", [{ code: "00305", description: "1.4.1.1.2 <IdCodice> non valido: 01234567897" }]);
      expect(rejection.status).toBe(200);

      await open(staff, localizedHref("/admin/sdi", locale));
      await expect(staff.getByRole("heading", { level: 1, name: t.sdiTitle })).toBeVisible();
      const row = staff.getByRole("row").filter({ hasText: t.invoiceLink(number) });
      await expect(row).toContainText(t.rejected);
      await shoot(staff, `due-${locale}`);
      await expectNoAxeViolations(staff);
      await row.getByRole("link", { name: t.invoiceLink(number) }).click();
      await expect(staff.getByTestId("sdi-status")).toContainText(t.rejected);
      await expect(staff.getByText(t.advice)).toBeVisible();
      await expect(staff.getByText("00305", { exact: true })).toBeVisible();
      await shoot(staff, `rejected-${locale}`);
      await expectNoAxeViolations(staff);

      // A partita IVA with a wrong check digit is refused next to the field; nothing goes.
      const vat = staff.getByRole("textbox", { name: t.correction });
      await vat.fill("00987654320");
      await staff.getByRole("button", { name: t.resend }).click();
      await expect(staff.getByText(t.badVat)).toBeVisible();
      expect(acube.files.length).toBe(sentBefore + 1);

      await staff.getByRole("textbox", { name: t.correction }).fill("00987654324");
      await staff.getByRole("button", { name: t.resend }).click();
      await expect(staff.getByText(t.queued)).toBeVisible();
      await expect.poll(() => acube.files.length, { timeout: 30_000 }).toBe(sentBefore + 2);
      const second = acube.files.at(-1)!;
      expect(second.xml).toContain("<IdCodice>00987654324</IdCodice>");
      expect(second.xml).toContain(`<Numero>${number}</Numero>`);

      // The SDI delivers the corrected file.
      expect((await acube.notify(second.uuid, "RC")).status).toBe(200);
      await staff.reload();
      await expect(staff.getByTestId("sdi-status")).toContainText(t.delivered);
      await shoot(staff, `delivered-${locale}`);
      await expectNoAxeViolations(staff);
      await staffContext.close();
    });
  }

  test("a card order without an invoice is in the register of daily takings at 10 %, and its CSV downloads", async ({
    page,
    browser,
    accountSessions,
    expectNoAxeViolations,
  }) => {
    await addToCart(page, variantIdOf(237), 2, { shopUrl: shop.baseUrl });
    await open(page, "/checkout");
    await placeGuestOrder(page, "it", { email: `incasso-${crypto.randomBytes(4).toString("hex")}@example.com`, payment: checkoutLabels.it.card });
    await expect(page).toHaveURL(/\/pagamento-di-prova\//);
    await page.getByRole("button", { name: texts.it.testPay }).click();
    await expect(page.getByRole("heading", { level: 1, name: texts.it.thanks })).toBeVisible({ timeout: 30_000 });

    const staffContext = await browser.newContext({ viewport: page.viewportSize() });
    const staff = await staffPage(staffContext, accountSessions);
    await open(staff, "/admin/corrispettivi");
    const table = staff.getByRole("table", { name: "Registro dei corrispettivi" });
    // Two packs of nappies at 14,90 € (10 %) and the delivery (22 %).
    await expect(table.getByRole("row").filter({ hasText: "10 %" })).toContainText("29,80 €");
    await expect(table.getByRole("row").filter({ hasText: "22 %" })).toBeVisible();
    await shoot(staff, "takings-it");
    await expectNoAxeViolations(staff);
    const [download] = await Promise.all([
      staff.waitForEvent("download"),
      staff.getByRole("link", { name: "Scarica il CSV per il commercialista" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^corrispettivi-\d{4}-\d{2}\.csv$/);
    const csv = fs.readFileSync(await download.path(), "utf8");
    expect(csv.split("\r\n")[0]).toBe("giorno;aliquota_iva;ordini;corrispettivi;imponibile;iva");
    expect(csv).toMatch(/;10;\d+;29\.80;27\.09;2\.71\r\n/);
    await staffContext.close();
  });
});
