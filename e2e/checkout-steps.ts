/**
 * A customer's checkout as the journeys take it: the form's labels in both languages, the contact, collection in
 * the shop or delivery to Rome, placing the order and reading it from the thank-you page; the staff's steps that
 * take an order to delivered.
 */
import { expect, type Page } from "@playwright/test";
import { localizedHref, type Locale } from "../common/locale";

/** The checkout form's labels and choices, the thank-you heading and the test-payment button, as a customer reads them, in both languages. */
export const checkoutLabels = {
  it: {
    firstName: "Nome",
    lastName: "Cognome",
    phone: "Telefono",
    street: "Indirizzo (via, piazza)",
    houseNumber: "Numero civico",
    postcode: "CAP",
    city: "Città",
    province: "Provincia",
    standard: /^Spedizione in Italia/,
    card: /^Carta di credito o di debito/,
    cod: /^Contrassegno/,
    collection: /^Ritiro in negozio/,
    inShop: /^Pagamento in negozio/,
    terms: /Ho letto e accetto le condizioni di vendita/,
    place: "Ordine con obbligo di pagamento",
    thanks: /Grazie! Ordine n. (\d+) ricevuto/,
    testPay: /^Paga /,
    paid: "Stato: Pagato",
  },
  en: {
    firstName: "First name",
    lastName: "Last name",
    phone: "Phone",
    street: "Street",
    houseNumber: "House number",
    postcode: "Postcode (CAP)",
    city: "Town",
    province: "Province",
    standard: /^Delivery in Italy/,
    card: /^Credit or debit card/,
    cod: /^Cash on delivery/,
    collection: /^Collect in the shop/,
    inShop: /^Pay in the shop/,
    terms: /I have read and accept the conditions of sale/,
    place: "Order with obligation to pay",
    thanks: /Thank you! Order no. (\d+) received/,
    testPay: /^Pay /,
    paid: "Status: Paid",
  },
} as const;

export type Contact = { firstName?: string; lastName?: string; email?: string };

/** The checkout's contact fields: a name (Giulia Esposito unless given), a phone, and the e-mail unless the profile fills it. */
export async function fillContact(page: Page, locale: Locale, contact: Contact = {}) {
  const t = checkoutLabels[locale];
  const field = (name: string) => page.getByRole("textbox", { name, exact: true });
  await field(t.firstName).fill(contact.firstName ?? "Giulia");
  await field(t.lastName).fill(contact.lastName ?? "Esposito");
  if (contact.email !== undefined) await field("E-mail").fill(contact.email);
  await field(t.phone).fill("+39 333 765 4321");
}

/** Accepts the conditions and places the order; where that leads (thanks, payment, a refusal) is the caller's to check. */
export async function acceptTermsAndPlace(page: Page, locale: Locale) {
  await page.getByRole("checkbox", { name: checkoutLabels[locale].terms }).check();
  await page.getByRole("button", { name: checkoutLabels[locale].place }).click();
}

/** An order as its page shows it: its id, its number, its address (with a guest's token) and its path. */
export type PlacedOrder = { id: string; number: string; url: string; path: string };

/** On the order's page after placing (or paying): waits for the thank-you heading and reads the order from it and the address. */
export async function placedOrder(page: Page, locale: Locale): Promise<PlacedOrder> {
  const thanks = checkoutLabels[locale].thanks;
  const heading = page.getByRole("heading", { level: 1, name: thanks });
  await expect(heading).toBeVisible({ timeout: 20_000 });
  const number = thanks.exec((await heading.textContent()) ?? "")?.[1];
  expect(number).toBeTruthy();
  const id = /\/ordine\/([0-9a-f-]{36})/.exec(page.url())?.[1];
  expect(id, page.url()).toBeTruthy();
  return { id: id!, number: number!, url: page.url(), path: new URL(page.url()).pathname };
}

/** Accepts the conditions, places the order and returns it from the thank-you page. */
export async function placeOrder(page: Page, locale: Locale): Promise<PlacedOrder> {
  await acceptTermsAndPlace(page, locale);
  return placedOrder(page, locale);
}

/** On the checkout page: the contact (fillContact), collection in the shop and payment there. */
export async function fillCollectionOrder(page: Page, locale: Locale, contact: Contact = {}) {
  await fillContact(page, locale, contact);
  await page.getByRole("radio", { name: checkoutLabels[locale].collection }).check();
  await page.getByRole("radio", { name: checkoutLabels[locale].inShop }).check();
}

/**
 * On the checkout page: an order collected in the shop and paid there (fillCollectionOrder), placed;
 * `beforePlacing` acts on and checks the form with those choices made. Returns the order from its thank-you page.
 */
export async function placeCollectionOrder(
  page: Page,
  locale: Locale,
  options: Contact & { beforePlacing?: () => Promise<void> } = {},
): Promise<PlacedOrder> {
  await fillCollectionOrder(page, locale, options);
  await options.beforePlacing?.();
  return placeOrder(page, locale);
}

/** A delivery address as the checkout's fields take it. */
export type Address = { street: string; houseNumber: string; postcode: string; city: string; province: string };

export const rome: Address = { street: "Via dei Fori Imperiali", houseNumber: "1", postcode: "00186", city: "Roma", province: "RM" };

export async function fillAddress(page: Page, locale: Locale, address: Address) {
  const t = checkoutLabels[locale];
  const field = (name: string) => page.getByRole("textbox", { name, exact: true });
  await field(t.street).fill(address.street);
  await field(t.houseNumber).fill(address.houseNumber);
  await field(t.postcode).fill(address.postcode);
  await field(t.city).fill(address.city);
  await field(t.province).fill(address.province);
}

/**
 * On the checkout page: a guest's contact and address (Rome unless given), standard delivery and the payment
 * whose radio is named `payment`; the order is not placed yet.
 */
export async function fillGuestDelivery(page: Page, locale: Locale, args: { contact: Contact; address?: Address; payment: RegExp }) {
  await fillContact(page, locale, args.contact);
  await fillAddress(page, locale, args.address ?? rome);
  await page.getByRole("radio", { name: checkoutLabels[locale].standard }).check();
  await page.getByRole("radio", { name: args.payment }).check();
}

/** A guest's order to Rome (fillGuestDelivery, as Carmela Russo), the conditions accepted and placed. */
export async function placeGuestOrder(page: Page, locale: Locale, args: { email: string; payment: RegExp }) {
  await fillGuestDelivery(page, locale, { contact: { firstName: "Carmela", lastName: "Russo", email: args.email }, payment: args.payment });
  await acceptTermsAndPlace(page, locale);
}

/**
 * A guest's order delivered to Rome (placeGuestOrder), from the checkout page opened here: paid by card on the
 * labelled test-payment page, or cash on delivery. Returns it once its page shows its status.
 */
export async function placeHomeDeliveryOrder(page: Page, locale: Locale, args: { email: string; payment: "card" | "cod" }): Promise<PlacedOrder> {
  const t = checkoutLabels[locale];
  await page.goto(localizedHref("/checkout", locale));
  await placeGuestOrder(page, locale, { email: args.email, payment: args.payment === "card" ? t.card : t.cod });
  if (args.payment === "card") {
    await expect(page).toHaveURL(/\/pagamento-di-prova\//);
    await page.getByRole("button", { name: t.testPay }).click();
    await expect(page.getByTestId("order-status")).toHaveText(t.paid, { timeout: 20_000 });
  } else {
    await expect(page.getByTestId("order-status")).toBeVisible({ timeout: 20_000 });
  }
  return placedOrder(page, locale);
}

/** An order's back-office page: its status buttons and toast, the shipping form, the status once completed. */
export const orderStatusLabels = {
  it: {
    moveTo: (status: string) => `Passa a «${status}»`,
    preparing: "In preparazione",
    ready: "Pronto per il ritiro",
    completed: "Completato",
    statusUpdated: "Stato dell'ordine aggiornato.",
    carrier: "Corriere",
    ship: "Segna come spedito e avvisa il cliente",
    status: "Stato: Completato",
  },
  en: {
    moveTo: (status: string) => `Move to “${status}”`,
    preparing: "Being prepared",
    ready: "Ready for collection",
    completed: "Completed",
    statusUpdated: "Order status updated.",
    carrier: "Carrier",
    ship: "Mark as shipped and tell the customer",
    status: "Status: Completed",
  },
} as const;

/** The staff take an order to delivered on its back-office page: preparing, shipped by GLS, completed. */
export async function deliverOrder(staff: Page, locale: Locale, orderId: string) {
  const t = orderStatusLabels[locale];
  await staff.goto(localizedHref(`/admin/ordini/${orderId}`, locale));
  await staff.getByRole("button", { name: t.moveTo(t.preparing) }).click();
  await staff.getByLabel(t.carrier, { exact: true }).selectOption({ label: "GLS" });
  await staff.getByRole("button", { name: t.ship }).click();
  await staff.getByRole("button", { name: t.moveTo(t.completed) }).click();
  await expect(staff.getByText(t.status)).toBeVisible();
}
