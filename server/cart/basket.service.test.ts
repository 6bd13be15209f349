import { expect, onTestFinished, test } from "vitest";
import { savedBaskets } from "#server/db/schema.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { createTestDb } from "#tests/db.ts";
import { basketIdPattern, copyBasketToCart, getBasketView, newBasketId, saveBasket } from "./basket.service.ts";
import { createGiftList, createProduct } from "#tests/fixtures/cart.fixtures.ts";
import { getCartView } from "./cart-view.service.ts";
import { addToCart } from "./cart.service.ts";

async function openDb() {
  const handle = await createTestDb();
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = () => new Date();

test("basket ids are 16 random base32 characters", () => {
  const ids = new Set(Array.from({ length: 1000 }, newBasketId));
  expect(ids.size).toBe(1000);
  for (const id of ids) expect(id).toMatch(basketIdPattern);
});

test("an empty cart cannot be saved", async () => {
  const db = await openDb();
  expect(await saveBasket(db, { cartId: null })).toEqual({ ok: false, error: "cart-empty" });
});

test("a saved basket shows its lines at today's prices and copies into another cart with every rule", async () => {
  const db = await openDb();
  const frame = await createProduct(db, {
    nameIt: "Cornice incisa",
    priceCents: 2490,
    personalisationFields: [{ labelIt: "Nome", labelEn: "Name", maxLength: 20 }],
    personalisationCostCents: 800,
  });
  const sleeper = await createProduct(db, { nameIt: "Sacco nanna", variants: [{ colour: "white", size: "0-6 mesi", stock: 4 }] });
  const first = await addToCart(db, { cartId: null, variantId: frame.variantId, quantity: 1, personalisation: { 0: "Luca" } });
  if (!first.ok) throw new Error(first.error);
  await addToCart(db, { cartId: first.cartId, variantId: sleeper.variantId, quantity: 3, personalisation: {} });

  const saved = await saveBasket(db, { cartId: first.cartId });
  if (!saved.ok) throw new Error(saved.error);
  expect(saved.id).toMatch(basketIdPattern);

  const view = await getBasketView(db, { id: saved.id, locale: "it", now: now() });
  expect(view?.lines.map((line) => [line.name, line.quantity, line.personalisation, line.colour, line.size])).toEqual([
    ["Cornice incisa", 1, [{ label: "Nome", text: "Luca" }], null, null],
    ["Sacco nanna", 3, [], "white", "0-6 mesi"],
  ]);
  expect(view?.totals.totalCents).toBe(2490 + 800 + 3 * 1000);

  // Someone else opens the link: their cart already holds 2 of the 4 sleepers.
  const theirs = await addToCart(db, { cartId: null, variantId: sleeper.variantId, quantity: 2, personalisation: {} });
  if (!theirs.ok) throw new Error(theirs.error);
  const copied = await copyBasketToCart(db, { id: saved.id, cartId: theirs.cartId, locale: "it", now: now() });
  expect(copied).toEqual({
    ok: true,
    cartId: theirs.cartId,
    count: 5,
    lines: [
      { variantId: frame.variantId, wanted: 1, added: 1, error: null, name: "Cornice incisa" },
      { variantId: sleeper.variantId, wanted: 3, added: 2, error: "stock-exceeded", name: "Sacco nanna" },
    ],
  });
  const cart = await getCartView(db, { cartId: theirs.cartId, locale: "it", now: now() });
  expect(cart.lines.map((line) => [line.name, line.quantity])).toEqual([
    ["Sacco nanna", 4],
    ["Cornice incisa", 1],
  ]);
});

test("copying a basket whose product sold out reports it; a visitor without a cart gets one", async () => {
  const db = await openDb();
  const product = await createProduct(db, { variants: [{ stock: 3 }] });
  const first = await addToCart(db, { cartId: null, variantId: product.variantId, quantity: 2, personalisation: {} });
  if (!first.ok) throw new Error(first.error);
  const saved = await saveBasket(db, { cartId: first.cartId });
  if (!saved.ok) throw new Error(saved.error);
  await setStockTo(db, { variantId: product.variantId, stock: 0 }, { reason: "Venduto in negozio" });
  expect((await getBasketView(db, { id: saved.id, locale: "en", now: now() }))?.availableLines).toBe(0);
  const copied = await copyBasketToCart(db, { id: saved.id, cartId: null, locale: "en", now: now() });
  expect(copied).toMatchObject({ ok: true, count: 0, lines: [{ added: 0, error: "out-of-stock" }] });
});

test("gift-list lines are not shared; unknown or malformed ids are not found", async () => {
  const db = await openDb();
  const gift = await createProduct(db);
  const list = await createGiftList(db, [gift.variantId]);
  const giftCart = await addToCart(db, {
    cartId: null,
    variantId: gift.variantId,
    quantity: 1,
    personalisation: {},
    giftListItemId: list.itemIds[0],
  });
  if (!giftCart.ok) throw new Error(giftCart.error);
  expect(await saveBasket(db, { cartId: giftCart.cartId })).toEqual({ ok: false, error: "cart-empty" });
  expect(await db.select().from(savedBaskets)).toEqual([]);
  for (const id of ["aaaaaaaaaaaaaaaa", "short", "AAAAAAAAAAAAAAAA", "'; drop table x"]) {
    expect(await getBasketView(db, { id, locale: "it", now: now() })).toBeNull();
    expect(await copyBasketToCart(db, { id, cartId: null, locale: "it", now: now() })).toEqual({ ok: false, error: "basket-not-found" });
  }
});
