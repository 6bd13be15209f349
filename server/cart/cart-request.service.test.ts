import { onTestFinished, expect, test } from "vitest";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createTestDb } from "#tests/db.ts";
import { createTestAuthServices, requestFor } from "#tests/fixtures/accounts.fixtures.ts";
import { getRootCart, readCartRequest } from "./cart-request";

async function openServices() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return createTestAuthServices(handle.db);
}

test("a flash toast shows once, on the next page in the language it was written in; after a switch of language it is dropped", async () => {
  const services = await openServices();
  const flashFrom = (path: string, message: string) =>
    new CookieJar().take(
      new Headers({ "Set-Cookie": readCartRequest(requestFor(path, { form: {} }), services).cookieHeaders.flash([{ kind: "success", message }]) }),
    );

  const italian = flashFrom("/cart", "Aggiunto al carrello");
  const sameLanguage = await getRootCart(services, requestFor("/shop", { jar: italian }), "it");
  expect(sameLanguage.cart.flash).toEqual([{ kind: "success", message: "Aggiunto al carrello" }]);
  expect(sameLanguage.headers.getSetCookie().some((cookie) => cookie.startsWith("cart_flash=;"))).toBe(true);

  // The visitor switched to English before the Italian toast was shown: it is cleared, not shown in Italian.
  const switched = await getRootCart(services, requestFor("/en/cart", { jar: flashFrom("/cart", "Aggiunto al carrello") }), "en");
  expect(switched.cart.flash).toEqual([]);
  expect(switched.headers.getSetCookie().some((cookie) => cookie.startsWith("cart_flash=;"))).toBe(true);

  const english = await getRootCart(services, requestFor("/en/shop", { jar: flashFrom("/en/cart", "Added to cart") }), "en");
  expect(english.cart.flash).toEqual([{ kind: "success", message: "Added to cart" }]);
});
