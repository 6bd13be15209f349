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

test("cards of one page each say their own rating and discount, in the page's language", () => {
  const cards = [
    cardOf({ id: 24, rating: 4, discountPercent: 20, effectivePriceCents: 1600, isNew: true }),
    cardOf({ id: 25, name: "Body a righe", rating: 2, discountPercent: 10, effectivePriceCents: 1800 }),
  ];
  const italian = renderCards("/shop", cards);
  expect(italian).toContain("Valutazione: 4 su 5");
  expect(italian).toContain("Valutazione: 2 su 5");
  expect(italian).toContain("Sconto del 20%");
  expect(italian).toContain("Sconto del 10%");
  expect(italian).toContain(">Nuovo<");
  expect(italian.split("Aggiungi al carrello").length - 1).toBe(2);

  const english = renderCards("/en/shop", cards);
  expect(english).toContain("Rating: 4 out of 5");
  expect(english).toContain("Rating: 2 out of 5");
  expect(english).toContain(">New<");
  expect(english).not.toContain("Valutazione");
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
