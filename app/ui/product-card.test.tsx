import { expect, test } from "vitest";
import { renderPageAt } from "#tests/render-page.tsx";
import type { ProductCardData } from "#server/catalog/product-card.ts";
import { ProductCard } from "./product-card";

function cardOf(overrides: Partial<ProductCardData>): ProductCardData {
  return {
    id: 24,
    name: "Tutina Golfo di Napoli",
    shortDescription: "",
    brand: null,
    priceCents: 2000,
    effectivePriceCents: 2000,
    discountPercent: 0,
    isNew: false,
    isFreeShipping: false,
    isOnRequest: false,
    rating: 0,
    reviews: null,
    image: null,
    purchase: { kind: "add", variantId: 7, stock: 3, isPreorder: false },
    ...overrides,
  };
}

/** Cards rendered as one page: the same i18next instance, as a listing's server rendering has. */
function renderCards(url: string, cards: ProductCardData[]) {
  return renderPageAt(
    url,
    cards.map((card) => <ProductCard key={card.id} product={card} />),
  );
}

test("cards of one page each say their customers' reviews and discount, in the page's language; never the shop's rating", () => {
  const cards = [
    cardOf({ id: 24, rating: 4, reviews: { count: 3, average: 4.3 }, discountPercent: 20, effectivePriceCents: 1600, isNew: true }),
    cardOf({ id: 25, name: "Body a righe", rating: 2, reviews: { count: 1, average: 2 }, discountPercent: 10, effectivePriceCents: 1800 }),
    cardOf({ id: 26, name: "Bavaglino", rating: 5, reviews: null }),
  ];
  const italian = renderCards("/shop", cards);
  expect(italian).toContain("Media dei clienti: 4,3 su 5, 3 recensioni");
  expect(italian).toContain("Media dei clienti: 2,0 su 5, 1 recensione");
  expect(italian).toContain("Sconto del 20%");
  expect(italian).toContain("Sconto del 10%");
  expect(italian).toContain(">Nuovo<");
  expect(italian.split("Aggiungi al carrello").length - 1).toBe(3);
  // The shop's own stars are not a customers' rating: a card without reviews shows none.
  expect(italian).not.toContain("Valutazione");
  expect(italian.split("Media dei clienti").length - 1).toBe(2);

  const english = renderCards("/en/shop", cards);
  expect(english).toContain("Customers&#x27; average: 4.3 out of 5, 3 reviews");
  expect(english).toContain("Customers&#x27; average: 2.0 out of 5, 1 review");
  expect(english).toContain(">New<");
  expect(english).not.toContain("Media dei clienti");
});

test("the wishlist and compare buttons are forms that post without JavaScript, named with the product", () => {
  const html = renderCards("/shop?category=A-spasso", [cardOf({})]);
  for (const [list, name] of [
    ["wishlist", "Aggiungi Tutina Golfo di Napoli alla lista dei desideri"],
    ["compare", "Aggiungi Tutina Golfo di Napoli al confronto"],
  ] as const) {
    const form = new RegExp(`<form action="/${list}" method="post">(.*?)</form>`).exec(html)?.[1] ?? "";
    expect(form).toContain('<input type="hidden" name="intent" value="add"/>');
    expect(form).toContain('<input type="hidden" name="productId" value="24"/>');
    expect(form).toContain('<input type="hidden" name="redirectTo" value="/shop?category=A-spasso"/>');
    // The title is the button's name and its tooltip.
    expect(form).toMatch(new RegExp(`<button type="submit" title="${name}"`));
  }
});
