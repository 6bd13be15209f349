import crypto from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { startLocalStripeServer, type LocalStripeServer } from "../tests/peers/local-stripe-server";
import { backOfficeAccount } from "./back-office-account";
import { expect as baseExpect, test } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import { addToCart, logIn, openHydrated, variantIdOf } from "./shop-helpers";
import { placeGuestOrder } from "./checkout-steps";

// Issue 22, the ways Italians pay: the staff turn PayPal on in the back office, a guest pays with it at
// Stripe Checkout (a local Stripe-compatible server) as a payment that confirms later, sees the order
// "in verifica", and the order page says paid once the provider confirms.
// Product 127 of the sample catalogue: Baby monitor audio Chicco, 49,90 €; standard delivery 6,90 €.

const expect = baseExpect.configure({ timeout: 15_000 });
// The local Stripe page has no favicon: Chromium logs its 404.
test.use({ allowedBrowserErrors: [/status of 404/] });

const texts = {
  it: {
    paypal: /^PayPal/,
    thanks: /Grazie! Ordine n. (\d+) ricevuto/,
    waiting: "Stato: In attesa di pagamento",
    processing: /Pagamento in verifica \(PayPal\)/,
    paid: "Stato: Pagato",
  },
  en: {
    paypal: /^PayPal/,
    thanks: /Thank you! Order no. (\d+) received/,
    waiting: "Status: Awaiting payment",
    processing: /Payment being verified \(PayPal\)/,
    paid: "Status: Paid",
  },
} as const;
type Locale = keyof typeof texts;

test.describe("paying online with a method that confirms later", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let stripe: LocalStripeServer;
  let shop: PeerShop;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    stripe = await startLocalStripeServer();
    shop = await startPeerShop({
      name: "payment-methods",
      withBackOffice: true,
      env: () => ({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url }),
    });
    stripe.webhookUrl = `${shop.baseUrl}/api/payments/stripe/webhook`;
  });
  test.afterAll(async () => {
    await shop?.stop();
    await stripe?.close();
  });

  const open = (page: Page, path: string) => openHydrated(page, `${shop.baseUrl}${path}`);

  /** The staff, in a browser of their own, offer PayPal from the settings page. */
  async function offerPayPal(browser: Browser, expectNoAxeViolations: (page: Page) => Promise<void>) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await open(page, "/login-register");
    await logIn(page, backOfficeAccount);
    await expect(page).not.toHaveURL(/login-register/);
    await open(page, "/admin/impostazioni");
    const section = page.getByRole("form", { name: "Pagamenti online" });
    await section.getByRole("checkbox", { name: "Offri PayPal ai clienti" }).check();
    await expectNoAxeViolations(page);
    await section.getByRole("button", { name: "Salva «Pagamenti online»" }).click();
    await expect(page.getByText("Salvato: Pagamenti online.")).toBeVisible();
    await expect(page.getByRole("form", { name: "Pagamenti online" }).getByRole("checkbox", { name: "Offri PayPal ai clienti" })).toBeChecked();
    await context.close();
  }

  /** A guest orders product 127 with PayPal, pays at Stripe with a payment that confirms later, and sees the order in verification. */
  async function payWithPayPalLater(page: Page, locale: Locale, expectNoAxeViolations: (page: Page) => Promise<void>) {
    const t = texts[locale];
    await addToCart(page, variantIdOf(127), 1, { shopUrl: shop.baseUrl });
    await open(page, localizedHref("/checkout", locale));
    await expect(page.getByRole("radio", { name: t.paypal })).toBeEnabled();
    await expectNoAxeViolations(page);
    await placeGuestOrder(page, locale, { email: `paypal-${crypto.randomBytes(4).toString("hex")}@example.com`, payment: t.paypal });

    await expect(page).toHaveURL(new RegExp(`^${stripe.url}/checkout/cs_test_`));
    await expect(page.getByText("Metodo: paypal")).toBeVisible();
    const session = stripe.sessions.get(page.url().split("/checkout/")[1]!)!;
    expect(session.payment_method_types).toEqual(["paypal"]);
    await page.getByRole("button", { name: "Pagamento da confermare più tardi (56,80 €)" }).click();

    await expect(page).toHaveURL(new RegExp(`^${shop.baseUrl}${localizedHref(`/ordine/${session.metadata.orderId}`, locale)}\\?t=`));
    await expect(page.getByRole("heading", { level: 1, name: t.thanks })).toBeVisible();
    await expect(page.getByTestId("order-status")).toHaveText(t.waiting);
    await expect(page.getByRole("status").filter({ hasText: t.processing })).toBeVisible();
    await expectNoAxeViolations(page);
    return session;
  }

  /** The provider confirms the payment (a signed async_payment_succeeded): the order page says paid. */
  async function providerConfirms(page: Page, locale: Locale, sessionId: string) {
    expect((await stripe.settleLater(sessionId, "succeeded"))?.status).toBe(200);
    await page.reload();
    await expect(page.getByTestId("order-status")).toHaveText(texts[locale].paid);
    await expect(page.getByText(texts[locale].processing)).toHaveCount(0);
  }

  test("the staff offer PayPal; a guest pays with it, waits for the verification, then sees the order paid", async ({
    page,
    browser,
    expectNoAxeViolations,
  }) => {
    await offerPayPal(browser, expectNoAxeViolations);
    const session = await payWithPayPalLater(page, "it", expectNoAxeViolations);
    await providerConfirms(page, "it", session.id);
    await expectNoAxeViolations(page);
  });

  // The same journey in English; PayPal was turned on by the test before (serial, one shop).
  test("in English: PayPal in verification, then paid", { tag: "@desktop-only" }, async ({ page, expectNoAxeViolations }) => {
    const session = await payWithPayPalLater(page, "en", expectNoAxeViolations);
    await providerConfirms(page, "en", session.id);
  });
});
