import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { startLocalSmtpServer, type LocalSmtpServer } from "../tests/peers/local-smtp-server";
import { startLocalStripeServer, type LocalStripeServer } from "../tests/peers/local-stripe-server";
import { expect as baseExpect, test } from "./fixtures";
import { startPeerShop, type PeerShop } from "./peer-shop";
import { addToCart, openHydrated, variantIdOf } from "./shop-helpers";
import { checkoutLabels, placeGuestOrder } from "./checkout-steps";

// Issue 6, card payments through Stripe Checkout: a shop of its own with STRIPE_* keys pointing at a
// local Stripe-compatible server (the unmodified SDK talks to it), which sends real signed webhooks,
// and a local SMTP server that receives the customer's mails.
// Product 127 of the sample catalogue: Baby monitor audio Chicco, 49,90 €; standard delivery 6,90 €.

const expect = baseExpect.configure({ timeout: 15_000 });
// The cancelled journey and the forged webhook answer 400/404, which Chromium may log.
test.use({ allowedBrowserErrors: [/status of (400|404)/] });

const texts = {
  it: {
    ...checkoutLabels.it,
    thanks: /Grazie! Ordine n. (\d+) ricevuto/,
    paid: "Stato: Pagato",
    restored: "Pagamento annullato: i prodotti sono di nuovo nel carrello.",
  },
  en: {
    ...checkoutLabels.en,
    thanks: /Thank you! Order no. (\d+) received/,
    paid: "Status: Paid",
    restored: "Payment cancelled: the items are back in your cart.",
  },
} as const;
type Locale = keyof typeof texts;

// A shop of its own with a local Stripe: the hosted payment page is Stripe's, and the shop's part of a card
// payment on a phone (checkout, the order page) is checkout.spec.ts's test-payment journey. On the desktop
// only, to keep within CI's time (docs/decisions/0020-e2e-time.md).
test.describe("card payments through a local Stripe", { tag: "@desktop-only" }, () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  let stripe: LocalStripeServer;
  let shop: PeerShop;
  let smtp: LocalSmtpServer;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    stripe = await startLocalStripeServer();
    smtp = await startLocalSmtpServer();
    shop = await startPeerShop({
      name: "card-payment",
      env: () => ({
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        SMTP_URL: smtp.url,
      }),
    });
    stripe.webhookUrl = `${shop.baseUrl}/api/payments/stripe/webhook`;
  });
  test.afterAll(async () => {
    await shop?.stop();
    await stripe?.close();
    await smtp?.close();
  });

  const open = (page: Page, path: string) => openHydrated(page, `${shop.baseUrl}${path}`);

  /** A guest with product 127 in the cart fills the checkout for standard delivery and card, and orders. */
  async function orderByCard(page: Page, locale: Locale) {
    const t = texts[locale];
    await addToCart(page, variantIdOf(127), 1, { shopUrl: shop.baseUrl });
    await open(page, localizedHref("/checkout", locale));
    const email = `carta-${crypto.randomBytes(4).toString("hex")}@example.com`;
    await placeGuestOrder(page, locale, { email, payment: t.card });
    // Stripe's hosted page (here the local server's): the amount in euro cents came from the shop.
    await expect(page).toHaveURL(new RegExp(`^${stripe.url}/checkout/cs_test_`));
    await expect(page.getByText("56,80 €", { exact: true })).toBeVisible();
    const session = stripe.sessions.get(page.url().split("/checkout/")[1]!)!;
    expect(session.amount_total).toBe(5680);
    expect(session.locale).toBe(locale);
    return { session, email };
  }

  test("a guest pays by card at Stripe; the signed webhook marks the order paid", async ({ page, expectNoAxeViolations }) => {
    const { session, email } = await orderByCard(page, "it");
    await page.getByRole("button", { name: "Paga 56,80 €" }).click();

    await expect(page).toHaveURL(new RegExp(`^${shop.baseUrl}/ordine/${session.metadata.orderId}\\?t=.+&pagamento=ok$`));
    await expect(page.getByRole("heading", { level: 1, name: texts.it.thanks })).toBeVisible();
    await expect(page.getByTestId("order-status")).toHaveText(texts.it.paid);
    expect(stripe.deliveries).toContainEqual(expect.objectContaining({ type: "checkout.session.completed", status: 200 }));
    await expectNoAxeViolations(page);

    // Stripe delivers again (as it may): accepted, nothing changes; a forged delivery is refused.
    const again = stripe.buildEvent("checkout.session.completed", session.id);
    expect(await stripe.deliver(again.payload, again.signature)).toBe(200);
    expect(await stripe.deliver(again.payload, "t=1,v1=forged")).toBe(400);
    await page.reload();
    await expect(page.getByTestId("order-status")).toHaveText(texts.it.paid);

    // The customer's mail goes out through SMTP: for a card order the confirmation is the "payment received"
    // mail, once, however often Stripe delivered (decision 0013; never a mail for an unpaid card order).
    const number = texts.it.thanks.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![1];
    const subjectsTo = () => smtp.received.filter((mail) => mail.envelopeTo.includes(email)).map((mail) => mail.headers.subject ?? "");
    await expect.poll(subjectsTo, { timeout: 45_000, intervals: [1_000] }).toHaveLength(1);
    expect(subjectsTo()[0]).toMatch(new RegExp(`^Pagamento ricevuto: ordine ${number} confermato`));
  });

  test("a guest who cancels at Stripe finds the cart as it was (en)", async ({ page, expectNoAxeViolations }) => {
    const { session } = await orderByCard(page, "en");
    await page.getByRole("button", { name: "Annulla" }).click();

    await expect(page).toHaveURL(`${shop.baseUrl}/en/cart`);
    await expect(page.getByRole("status").filter({ hasText: texts.en.restored })).toBeVisible();
    await expect(page.getByRole("link", { name: /Chicco Audio Baby Monitor/ }).first()).toBeVisible();
    expect(stripe.sessions.get(session.id)!.status).toBe("expired");
    await expectNoAxeViolations(page);
  });
});
