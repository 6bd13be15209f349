import type { Page } from "@playwright/test";
import { expect as baseExpect, longJourneyLocales, test } from "./fixtures";
import { localizedHref } from "../common/locale";
import { addToCart, moveOrderThrough, openHydrated as open, variantIdOf } from "./shop-helpers";
import { orderStatusLabels, placeCollectionOrder } from "./checkout-steps";

// Verified-buyer reviews: a customer's collected order, the review written from the order page, the staff
// publishing it with a reply, and the product page and its card showing it. One product per run, so the
// four runs (two languages, two screens) never count each other's reviews; none is used by another journey.
//  152 Cagnolino Ridi e Impara Fisher-Price, 154 Piramide di anelli impilabili Fisher-Price,
//  155 Libro morbido in stoffa, 156 Palestrina Fisher-Price Pianoforte Deluxe: one size, no colour, stock 39-46.

const expect = baseExpect.configure({ timeout: 15_000 });
// A review sent twice answers 409, the review form of an undelivered order nothing to write: Chromium logs them.
test.use({ signedInAs: "customer", allowedBrowserErrors: [/status of (400|409)/] });
test.describe.configure({ timeout: 240_000 });

const products = {
  desktop: { it: { id: 155, name: "Libro morbido in stoffa" }, en: { id: 154, name: "Fisher-Price rock-a-stack rings" } },
  phone: { it: { id: 152, name: "Cagnolino Ridi e Impara Fisher-Price" }, en: { id: 156, name: "Fisher-Price Deluxe Kick & Play piano gym" } },
} as const;

const texts = {
  it: {
    ...orderStatusLabels.it,
    notDelivered: "Potrai recensire questo prodotto quando l'ordine sarà consegnato o ritirato.",
    reviewSection: "Recensisci i prodotti",
    write: (name: string) => `Scrivi una recensione: ${name}`,
    formTitle: (name: string) => `Recensisci «${name}»`,
    starsLegend: "Il tuo voto",
    fourStars: "4 stelle",
    text: "La tua recensione",
    submit: "Invia la recensione",
    starsError: "Scegli un voto da 1 a 5 stelle.",
    textError: "Scrivi la tua recensione.",
    review: "Morbido e colorato: il piccolo lo sfoglia ogni sera prima della nanna.",
    sent: "Grazie! Abbiamo ricevuto la tua recensione: la pubblichiamo dopo averla verificata.",
    pending: "Recensione inviata, in attesa di verifica",
    twice: "Hai già recensito questo prodotto per quest'ordine: se ne può scrivere una sola.",
    backToOrder: "Torna all'ordine",
    author: "Giulia E.",
    noReviews: "Ancora nessuna recensione pubblicata.",
    shopRating: "Valutazione del negozio",
    howChecked: "Come verifichiamo le recensioni",
    reviewsNav: "Recensioni",
    reply: "Grazie Giulia, ci fa piacere!",
    replyLabel: "Risposta pubblica del negozio (facoltativa)",
    publish: "Pubblica",
    published: "Recensione pubblicata.",
    summary: "Media dei clienti: 4,0 su 5, 1 recensione",
    verified: "Acquisto verificato",
    shopReply: "Risposta del negozio",
    card: "4,0 (1)",
  },
  en: {
    ...orderStatusLabels.en,
    notDelivered: "You can review this product once the order has been delivered or collected.",
    reviewSection: "Review your products",
    write: (name: string) => `Write a review: ${name}`,
    formTitle: (name: string) => `Review “${name}”`,
    starsLegend: "Your rating",
    fourStars: "4 stars",
    text: "Your review",
    submit: "Send the review",
    starsError: "Choose a rating from 1 to 5 stars.",
    textError: "Write your review.",
    review: "Bright and sturdy: our little one stacks the rings every morning.",
    sent: "Thank you! We have received your review: we publish it once we have checked it.",
    pending: "Review sent, awaiting checks",
    twice: "You have already reviewed this product for this order: only one review is possible.",
    backToOrder: "Back to the order",
    author: "Giulia E.",
    noReviews: "No published reviews yet.",
    shopRating: "Shop's rating",
    howChecked: "How we check reviews",
    reviewsNav: "Reviews",
    reply: "Thank you Giulia, glad to hear it!",
    replyLabel: "The shop's public reply (optional)",
    publish: "Publish",
    published: "Review published.",
    summary: "Customers' average: 4.0 out of 5, 1 review",
    verified: "Verified purchase",
    shopReply: "The shop's reply",
    card: "4.0 (1)",
  },
} as const;

const main = (page: Page) => page.getByRole("main");

async function productJsonLd(page: Page): Promise<Record<string, unknown>> {
  const blocks = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
    (text) => JSON.parse(text) as Record<string, unknown>,
  );
  return blocks.find((block) => block["@type"] === "Product")!;
}

async function shot(page: Page, name: string, project: string) {
  await page.screenshot({ path: `test-results/e2e/reviews/${name}-${project}.png`, fullPage: false });
}

for (const locale of longJourneyLocales) {
  const t = texts[locale];
  const href = (path: string) => localizedHref(path, locale);

  test(`a buyer reviews a collected product, the staff publish it with a reply, the product page and its card show it (${locale})`, async ({
    page,
    browser,
    signInAs,
    signedIn,
    expectNoAxeViolations,
  }, testInfo) => {
    const project = testInfo.project.name as keyof typeof products;
    const product = products[project][locale];

    // The customer orders the product for collection, paying in the shop.
    await addToCart(page, variantIdOf(product.id));
    await open(page, href("/checkout"));
    const { id: orderId, path: orderPath } = await placeCollectionOrder(page, locale);

    // Not collected yet: nothing to review, and the form's address says why.
    await expect(main(page).getByRole("heading", { name: t.reviewSection })).toHaveCount(0);
    await open(page, `${orderPath}/recensione/${product.id}`);
    await expect(main(page).getByRole("alert")).toHaveText(t.notDelivered);

    // The staff prepare it, make it ready and hand it over.
    const staffContext = await browser.newContext();
    await signInAs(staffContext, "backOffice");
    const staff = await staffContext.newPage();
    await open(staff, href(`/admin/ordini/${orderId}`));
    await moveOrderThrough(staff, [t.preparing, t.ready, t.completed].map(t.moveTo), t.statusUpdated);

    // Collected: the order page offers the review of its product.
    await open(page, orderPath);
    const section = main(page).getByRole("region", { name: t.reviewSection });
    await expect(section).toBeVisible();
    await expectNoAxeViolations(page);
    await section.scrollIntoViewIfNeeded();
    await shot(page, `order-${locale}`, project);
    await section.getByRole("link", { name: t.write(product.name) }).click();
    await expect(page.getByRole("heading", { level: 1, name: t.formTitle(product.name) })).toBeVisible();
    await expect(page.getByText(t.author)).toBeVisible();

    // Sent empty: a clear message by each field, nothing written.
    await page.getByRole("button", { name: t.submit }).click();
    await expect(page.getByText(t.starsError)).toBeVisible();
    await expect(page.getByRole("textbox", { name: t.text })).toHaveAccessibleDescription(new RegExp(t.textError));
    await expectNoAxeViolations(page);
    await shot(page, `form-${locale}`, project);

    // The form works without JavaScript: a plain post, answered with the page that says it arrived.
    const formUrl = page.url();
    const plainContext = await browser.newContext({ javaScriptEnabled: false, storageState: signedIn!.storageState, viewport: page.viewportSize() });
    const plain = await plainContext.newPage();
    await plain.goto(formUrl);
    await plain.getByRole("group", { name: t.starsLegend }).getByRole("radio", { name: t.fourStars }).check();
    await plain.getByRole("textbox", { name: t.text }).fill(t.review);
    await plain.getByRole("button", { name: t.submit }).click();
    await expect(plain.getByRole("main").getByRole("status")).toHaveText(t.sent);
    await expect(plain.getByRole("main")).toContainText(t.pending);
    await plainContext.close();
    await page.reload();
    await expect(main(page)).toContainText(t.pending);
    await expectNoAxeViolations(page);

    // A second review of the same product for the same order: told so, and still one.
    const again = await page.request.post(formUrl, {
      form: { stars: "1", text: "Una seconda recensione che non deve passare." },
      headers: { Origin: new URL(formUrl).origin },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain(t.twice.replace("'", "&#x27;"));

    await page.getByRole("link", { name: t.backToOrder }).click();
    await expect(section).toContainText(t.pending);
    await open(page, href("/shopping"));
    const purchase = main(page).getByRole("article").filter({ hasText: product.name }).first();
    await expect(purchase).toContainText(t.pending);
    await purchase.scrollIntoViewIfNeeded();
    await shot(page, `purchases-${locale}`, project);

    // Waiting: the product page has no customers' reviews; the shop's own stars are named as the shop's, outside any rating markup.
    await open(page, href(`/product/${product.id}`));
    const reviews = main(page).getByRole("region", { name: locale === "it" ? "Recensioni dei clienti" : "Customer reviews" });
    await expect(reviews).toContainText(t.noReviews);
    await expect(reviews.getByRole("heading", { name: t.howChecked })).toBeVisible();
    await expect(main(page).getByText(t.shopRating, { exact: true })).toBeVisible();
    const waiting = await productJsonLd(page);
    expect(waiting).not.toHaveProperty("aggregateRating");
    expect(waiting).not.toHaveProperty("review");

    // The staff publish it with a public reply.
    await open(staff, href("/admin/recensioni"));
    await expect(staff.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: t.reviewsNav })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const pending = staff.getByRole("article", { name: product.name });
    await pending.getByRole("textbox", { name: t.replyLabel }).fill(t.reply);
    await expectNoAxeViolations(staff);
    await shot(staff, `moderation-${locale}`, project);
    await pending.getByRole("button", { name: t.publish }).click();
    await expect(staff.getByRole("status").filter({ hasText: t.published })).toBeVisible();
    await expect(staff.getByRole("article", { name: product.name })).toHaveCount(0);
    await staffContext.close();

    // Published: the product page shows it at once, with its average, count, verified purchase and the reply.
    await open(page, href(`/product/${product.id}`));
    await expect(main(page).getByTestId("review-summary")).toHaveText(t.summary);
    await shot(page, `product-top-${locale}`, project);
    const review = reviews.getByRole("article", { name: t.author });
    await expect(review).toContainText(t.verified);
    await expect(review).toContainText(t.review);
    await expect(review).toContainText(`${t.shopReply}${t.reply}`);
    await expectNoAxeViolations(page);
    await reviews.scrollIntoViewIfNeeded();
    await shot(page, `product-${locale}`, project);
    expect(await productJsonLd(page)).toMatchObject({
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4, reviewCount: 1, bestRating: 5, worstRating: 1 },
      review: [{ "@type": "Review", author: { "@type": "Person", name: t.author }, reviewBody: t.review, reviewRating: { ratingValue: 4 } }],
    });

    // Its card in a listing shows the average and the count.
    await open(page, `${href("/shop")}?search=${encodeURIComponent(product.name)}`);
    const card = main(page).getByRole("article", { name: product.name }).first();
    await expect(card).toContainText(t.card);
    await expect(card).toContainText(t.summary);
    await expectNoAxeViolations(page);
    await card.scrollIntoViewIfNeeded();
    await shot(page, `card-${locale}`, project);
  });
}
