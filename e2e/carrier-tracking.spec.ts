import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { localizedHref, type Locale } from "../common/locale";
import { expect, longJourneyLocales, test } from "./fixtures";
import { addToCart, linkInOutboxMail, openHydrated as open, variantIdOf } from "./shop-helpers";
import { checkoutLabels, placeGuestOrder } from "./checkout-steps";

// Issue 22, carrier tracking: the staff ship an order with GLS and its number; the customer's order page and
// the "shipped" mail in the outbox both link to GLS's own tracking page for that number (settings `tracking`).
// 135, a bed rail with 52 units: no other journey counts its stock.
const productId = 135;
const glsTracking = (number: string) =>
  `https://www.gls-italy.com/?option=com_gls&view=track_e_trace&mode=search&numero_spedizione=${number}&tipo_codice=nazionale`;

const texts = {
  it: {
    ...checkoutLabels.it,
    received: /Ordine n\. (\d+) ricevuto/,
    moveTo: (status: string) => `Passa a «${status}»`,
    preparing: "In preparazione",
    carrier: "Corriere",
    tracking: "Numero di tracciamento",
    ship: "Segna come spedito e avvisa il cliente",
    shipped: "Stato: Spedito",
    follow: "Segui la spedizione sul sito di GLS",
    subject: (number: string) => `Ordine ${number} spedito - Bimbi Felici`,
  },
  en: {
    ...checkoutLabels.en,
    received: /Order no\. (\d+) received/,
    moveTo: (status: string) => `Move to “${status}”`,
    preparing: "Being prepared",
    carrier: "Carrier",
    tracking: "Tracking number",
    ship: "Mark as shipped and tell the customer",
    shipped: "Status: Shipped",
    follow: "Track the parcel on the GLS website",
    subject: (number: string) => `Order ${number} shipped - Bimbi Felici`,
  },
} as const;

/** A guest's cash-on-delivery order of the product, delivered in Italy: its id, number and the guest's address. */
async function placeOrder(page: Page, locale: Locale) {
  const t = texts[locale];
  const email = `spedizione-${crypto.randomBytes(4).toString("hex")}@example.com`;
  await addToCart(page, variantIdOf(productId), 1);
  await open(page, localizedHref("/checkout", locale));
  await placeGuestOrder(page, locale, { email, payment: t.cod });
  await expect(page.getByTestId("order-status")).toBeVisible({ timeout: 20_000 });
  const orderId = /\/ordine\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const number = t.received.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")![1]!;
  return { orderId, number, email, orderUrl: page.url() };
}

for (const locale of longJourneyLocales) {
  test(`the shipped mail and the order page link to the courier's tracking page (${locale})`, async ({
    page,
    browser,
    signInAs,
    expectNoAxeViolations,
  }) => {
    test.setTimeout(120_000);
    const t = texts[locale];
    const order = await placeOrder(page, locale);

    const staffContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: page.viewportSize() });
    await signInAs(staffContext, "backOffice");
    const staff = await staffContext.newPage();
    await open(staff, localizedHref(`/admin/ordini/${order.orderId}`, locale));
    await staff.getByRole("button", { name: t.moveTo(t.preparing) }).click();
    await staff.getByLabel(t.carrier, { exact: true }).selectOption({ label: "GLS" });
    const parcel = `GLS${crypto.randomInt(100_000, 999_999)}`;
    await staff.getByLabel(t.tracking).fill(parcel);
    await staff.getByRole("button", { name: t.ship }).click();
    await expect(staff.getByText(t.shipped)).toBeVisible();
    await expect(staff.getByRole("link", { name: t.follow })).toHaveAttribute("href", glsTracking(parcel));
    await expectNoAxeViolations(staff);

    // The customer's order page (through its link from the mails) links to GLS with the parcel's number.
    await open(page, order.orderUrl);
    await expect(page.getByRole("link", { name: t.follow })).toHaveAttribute("href", glsTracking(parcel));
    await expectNoAxeViolations(page);

    // The "shipped" mail in the outbox carries the same link, after its label.
    const link = await linkInOutboxMail(staff, locale, { to: order.email, subject: t.subject(order.number), link: /gls-italy\.com/ });
    await expect(staff.getByText(`${t.follow}:`)).toBeVisible();
    expect(link).toBe(glsTracking(parcel));
    await expectNoAxeViolations(staff);
    await staffContext.close();
  });
}
