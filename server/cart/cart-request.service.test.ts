import { onTestFinished, expect, test } from "vitest";
import { CookieJar } from "#tests/cookie-jar.ts";
import { createTestDb } from "#tests/db.ts";
import { createTestAuthServices, requestFor } from "#tests/fixtures/accounts.fixtures.ts";
import { createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { BuyGiftCardInput, parseVoucherForm } from "#server/vouchers/voucher.inputs.ts";
import { addGiftCardToCart } from "#server/vouchers/voucher.service.ts";
import { addToCart } from "./cart.service";
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

test("the header's count holds a voucher line as one line, and the mini-cart's subtotal its amount: a cart with only a gift card shows 1, not 0", async () => {
  const services = await openServices();
  const now = new Date("2026-03-02T10:00:00Z");
  const parsed = parseVoucherForm(BuyGiftCardInput, { preset: "5000", senderName: "Zia Carla", recipientName: "Giulia", delivery: "print" });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const added = await addGiftCardToCart(services.db, { cartId: null, input: parsed.input, now });
  if (!added.ok) throw new Error(added.error);
  const jar = new CookieJar().take(new Headers({ "Set-Cookie": readCartRequest(requestFor("/cart"), services).cookieHeaders.cart(added.cartId) }));

  const alone = await getRootCart(services, requestFor("/shop", { jar }), "it", now);
  expect(alone.cart).toMatchObject({ count: 1, voucherCount: 1, voucherCents: 5000, subtotalCents: 5000, lines: [] });

  const product = await createProduct(services.db, { priceCents: 1500, variants: [{ stock: 5 }] });
  const withGoods = await addToCart(services.db, { cartId: added.cartId, variantId: product.variantId, quantity: 2, personalisation: {} });
  expect(withGoods).toMatchObject({ ok: true, count: 3 });
  expect((await getRootCart(services, requestFor("/shop", { jar }), "it", now)).cart).toMatchObject({ count: 3, subtotalCents: 8000 });
});
