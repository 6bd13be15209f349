import { expect, test } from "vitest";
import { serverI18nFor } from "./i18n";

// The picked messages of two pages (server/http/page-messages.ts keeps one object per route and language).
const shell = { header: { cart: "Carrello" } };
const cartPage = { cart: { title: "Il tuo carrello" } };
const productPage = { productPage: { addToCart: "Aggiungi al carrello" } };

test("pages with the same messages share one instance; other messages or another language get their own", () => {
  const cart = serverI18nFor("it", [shell, cartPage]);
  expect(serverI18nFor("it", [shell, cartPage])).toBe(cart);
  expect(serverI18nFor("it", [shell, productPage])).not.toBe(cart);
  expect(serverI18nFor("en", [shell, cartPage])).not.toBe(cart);
  expect(serverI18nFor("it", [shell])).not.toBe(cart);
});

test("an instance has its pages' messages and only those: a text another page has is still missing here", () => {
  const cart = serverI18nFor("it", [shell, cartPage]);
  const product = serverI18nFor("it", [shell, productPage]);
  expect(cart.t("header.cart")).toBe("Carrello");
  expect(cart.t("cart.title")).toBe("Il tuo carrello");
  // A key the cart page did not list shows as itself on the cart page, as it would in the browser.
  expect(cart.t("productPage.addToCart")).toBe("productPage.addToCart");
  expect(product.t("productPage.addToCart")).toBe("Aggiungi al carrello");
  expect(product.t("cart.title")).toBe("cart.title");
  expect(cart.language).toBe("it");
  expect(serverI18nFor("en", [shell]).language).toBe("en");
});
