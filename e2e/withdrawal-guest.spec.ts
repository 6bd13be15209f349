import crypto from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { localizedHref } from "../common/locale";
import { expect as baseExpect, longJourneyLocales, test, type Role, type SignedInAccount } from "./fixtures";
import { addToCart, linkInOutboxMail, variantIdOf } from "./shop-helpers";
import { deliverOrder, placeHomeDeliveryOrder } from "./checkout-steps";

// Issue 39, the withdrawal function for every buyer: a guest who lost her mail finds her order from the
// footer's "Recedi dal contratto" by number and e-mail, gets its link by mail (the back office's outbox
// shows it), and withdraws; a second statement sent from a stale tab is refused and the form no longer
// offers the article; once the period is over (the shop's clock moved with x-test-clock) the page says
// only that it is over. Each run buys a white product no other journey buys.

const expect = baseExpect.configure({ timeout: 15_000 });
// Refused answers (a malformed e-mail, a statement already sent) are 400/409, which Chromium may log.
test.use({ allowedBrowserErrors: [/status of 40\d/] });

const texts = {
  it: {
    withdraw: "Recedi dal contratto",
    orderNumber: "Numero d'ordine",
    email: "E-mail dell'ordine",
    send: "Mandami il link",
    badEmail: "Scrivi un indirizzo e-mail valido, ad esempio nome@esempio.it.",
    sent: /Se il numero e l'e-mail corrispondono a un nostro ordine, ti abbiamo appena mandato il link per recedere/,
    subject: (number: string) => `Il link al tuo ordine n. ${number}`,
    white: /Bianco/,
    review: "Continua",
    confirm: "Conferma il recesso",
    received: /Abbiamo ricevuto la tua dichiarazione di recesso il .+\d{2}:\d{2}:\d{2}/,
    allWithdrawn: "Hai già esercitato il recesso per tutti gli articoli che lo consentono.",
    replyHeading: "Come ti risponderemo",
    mayWithdraw: /Puoi recedere/,
    closed: "Il periodo per recedere da questo ordine è finito.",
    notYours: "Questo ordine non è tuo: puoi recedere solo dai tuoi ordini.",
    findOrder: "Ritrova il tuo ordine",
  },
  en: {
    withdraw: "Withdraw from contract",
    orderNumber: "Order number",
    email: "The order's e-mail",
    send: "Send me the link",
    badEmail: "Enter a valid e-mail address, for example name@example.com.",
    sent: /If the number and the e-mail match one of our orders, we have just sent you the link to withdraw/,
    subject: (number: string) => `The link to your order no. ${number}`,
    white: /White/,
    review: "Continue",
    confirm: "Confirm withdrawal",
    received: /We received your withdrawal statement on .+\d{2}:\d{2}:\d{2}/,
    allWithdrawn: "You have already withdrawn from every item that allows it.",
    replyHeading: "How we will reply",
    mayWithdraw: /You may withdraw/,
    closed: "The period to withdraw from this order is over.",
    notYours: "This order is not yours: you can only withdraw from your own orders.",
    findOrder: "Find your order",
  },
} as const;

/** A white product only this journey buys, per language and screen (the runs go in parallel). */
const productOf: Record<string, number> = { "it desktop": 60, "en desktop": 63, "it phone": 73, "en phone": 80 };

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${page.viewportSize()?.width}.png`), fullPage: true });
}

async function newPage(browser: Browser, page: Page) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: page.viewportSize() });
  return context.newPage();
}

async function staffPage(browser: Browser, signInAs: (context: BrowserContext, role: Role) => Promise<SignedInAccount>, page: Page) {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: page.viewportSize() });
  await signInAs(context, "backOffice");
  return context.newPage();
}

for (const locale of longJourneyLocales) {
  const t = texts[locale];

  test(`a guest who lost her mail withdraws from the footer's link; after the period only "ended" shows (${locale})`, async ({
    page,
    browser,
    signInAs,
    expectNoAxeViolations,
  }) => {
    test.setTimeout(240_000);
    const email = `recesso-ospite-${crypto.randomBytes(4).toString("hex")}@example.com`;
    // Two of one white article, paid by card as a guest.
    await addToCart(page, variantIdOf(productOf[`${locale} ${test.info().project.name}`]!, { colour: "white" }), 2);
    const { id: orderId, number } = await placeHomeDeliveryOrder(page, locale, { email, payment: "card" });

    const staff = await staffPage(browser, signInAs, page);
    await deliverOrder(staff, locale, orderId);

    // She lost the mail: another browser. The withdrawal address without its link says whose it is not, and where to go.
    const guest = await newPage(browser, page);
    await guest.goto(localizedHref(`/ordine/${orderId}/recesso`, locale));
    await expect(guest.getByText(t.notYours)).toBeVisible();
    await expectNoAxeViolations(guest);
    await shot(guest, `withdrawal-not-yours-${locale}`);
    await expect(guest.getByRole("link", { name: t.findOrder })).toHaveAttribute("href", localizedHref("/recesso", locale));
    // The help centre's "how to withdraw" leads to the function too; she takes the footer's link from the home page.
    await guest.goto(localizedHref("/centroassistenza/", locale));
    await expect(guest.getByRole("main").getByRole("link", { name: t.withdraw, exact: true })).toHaveAttribute(
      "href",
      localizedHref("/recesso", locale),
    );
    await guest.goto(localizedHref("/", locale));
    await guest.getByRole("contentinfo").getByRole("link", { name: t.withdraw, exact: true }).click();
    await expect(guest.getByRole("heading", { level: 1, name: t.withdraw })).toBeVisible();
    await expectNoAxeViolations(guest);
    await shot(guest, `order-lookup-${locale}`);
    const lookupUrl = guest.url();
    // A malformed e-mail: its message, nothing sent.
    await guest.getByRole("textbox", { name: t.orderNumber }).fill(number);
    await guest.getByRole("textbox", { name: t.email }).fill("carmela@");
    await guest.getByRole("button", { name: t.send }).click();
    await expect(guest.getByText(t.badEmail)).toBeVisible();
    await expectNoAxeViolations(guest);
    // Someone else's e-mail gets the very answer the right one gets.
    await guest.getByRole("textbox", { name: t.email }).fill(`altra-${email}`);
    await guest.getByRole("button", { name: t.send }).click();
    await expect(guest.getByTestId("order-link-sent")).toHaveText(t.sent);
    const wrongPairAnswer = await guest.getByRole("main").textContent();
    await guest.goto(lookupUrl);
    await guest.getByRole("textbox", { name: t.orderNumber }).fill(number);
    await guest.getByRole("textbox", { name: t.email }).fill(email.toUpperCase());
    await guest.getByRole("button", { name: t.send }).click();
    await expect(guest.getByTestId("order-link-sent")).toHaveText(t.sent);
    expect(await guest.getByRole("main").textContent()).toBe(wrongPairAnswer);
    await expectNoAxeViolations(guest);
    await shot(guest, `order-lookup-sent-${locale}`);

    // The mail went to the order's e-mail only, with the link to the withdrawal function.
    const link = await linkInOutboxMail(staff, locale, { to: email, subject: t.subject(number), link: /\/recesso\?t=/ });
    await staff.goto(localizedHref("/admin/posta", locale));
    await expect(staff.getByRole("row").filter({ hasText: `altra-${email}` })).toHaveCount(0);

    await guest.goto(link);
    await expect(guest.getByRole("heading", { level: 1, name: t.withdraw })).toBeVisible();
    // The colour as the product page names it, never the raw key.
    await expect(guest.getByTestId("withdrawal-line")).toContainText(t.white);
    await expect(guest.getByText(t.replyHeading, { exact: true })).toBeVisible();
    await shot(guest, `guest-withdrawal-form-${locale}`);
    // A second tab with the same form, left open.
    const staleTab = await guest.context().newPage();
    await staleTab.goto(link);
    await expect(staleTab.getByRole("spinbutton")).toHaveCount(1);

    await guest.getByRole("spinbutton").fill("2");
    await guest.getByRole("button", { name: t.review }).click();
    await guest.getByRole("button", { name: t.confirm }).click();
    await expect(guest.getByTestId("withdrawal-received")).toHaveText(t.received);
    await expectNoAxeViolations(guest);
    await shot(guest, `guest-withdrawal-received-${locale}`);

    // The stale tab's statement is refused, and the form no longer offers the article.
    await staleTab.getByRole("spinbutton").fill("1");
    await staleTab.getByRole("button", { name: t.review }).click();
    await expect(staleTab.getByText(t.allWithdrawn)).toBeVisible();
    await expect(staleTab.getByRole("spinbutton")).toHaveCount(0);
    await staleTab.close();

    // Forty days on, the period is over: only that shows.
    await guest.setExtraHTTPHeaders({ "x-test-clock": new Date(Date.now() + 40 * 86_400_000).toISOString() });
    await guest.goto(link);
    await expect(guest.getByText(t.closed)).toBeVisible();
    await expect(guest.getByRole("main").getByText(t.mayWithdraw)).toHaveCount(0);
    await expectNoAxeViolations(guest);
    await shot(guest, `withdrawal-period-over-${locale}`);
    await guest.context().close();
    await staff.context().close();
  });
}
