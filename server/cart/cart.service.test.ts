import { count, eq } from "drizzle-orm";
import { expect, onTestFinished, test } from "vitest";
import type { Db } from "#server/db/client.ts";
import { cartLines, carts, products } from "#server/db/schema.ts";
import { setStockTo } from "#server/stock/stock-ledger.ts";
import { createTestDb, testOnPostgres } from "#tests/db.ts";
import { createGiftList, createProduct, createUser, tagOnRequest } from "#tests/fixtures/cart.fixtures.ts";
import { getCartView } from "./cart-view.service.ts";
import {
  addLinesToCart,
  addToCart,
  clearCart,
  decreaseCartLine,
  findCartIdOfUser,
  increaseCartLine,
  mergeCarts,
  removeCartLine,
} from "./cart.service.ts";

async function openDb(poolSize?: number) {
  const handle = await createTestDb({ poolSize });
  onTestFinished(() => handle.close());
  return handle.db;
}

const now = () => new Date();

async function rowCounts(db: Db) {
  const [cartRows] = await db.select({ n: count() }).from(carts);
  const [lineRows] = await db.select({ n: count() }).from(cartLines);
  return { carts: cartRows!.n, lines: lineRows!.n };
}

async function storedLines(db: Db, cartId: string) {
  return db
    .select({ variantId: cartLines.variantId, quantity: cartLines.quantity, personalisation: cartLines.personalisation })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId))
    .orderBy(cartLines.createdAt, cartLines.quantity);
}

async function addOk(db: Db, args: Parameters<typeof addToCart>[1]) {
  const result = await addToCart(db, args);
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result;
}

test("the first add makes a cart; the same variant merges, another variant makes a new line", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db);
  const other = await createProduct(db);
  const first = await addOk(db, { cartId: null, variantId, quantity: 1, personalisation: {} });
  expect(first).toMatchObject({ lineQuantity: 1, warning: null, count: 1 });
  const again = await addOk(db, { cartId: first.cartId, variantId, quantity: 2, personalisation: {} });
  expect(again).toMatchObject({ cartId: first.cartId, lineId: first.lineId, lineQuantity: 3, count: 3 });
  await addOk(db, { cartId: first.cartId, variantId: other.variantId, quantity: 1, personalisation: {} });
  expect(await storedLines(db, first.cartId)).toEqual([
    { variantId, quantity: 3, personalisation: {} },
    { variantId: other.variantId, quantity: 1, personalisation: {} },
  ]);
});

test("colour x size variants are separate lines; the same one merges", async () => {
  const db = await openDb();
  const { variantIds } = await createProduct(db, {
    variants: [
      { colour: "white", size: "m" },
      { colour: "white", size: "xl" },
      { colour: "blue", size: "m" },
    ],
  });
  const { cartId } = await addOk(db, { cartId: null, variantId: variantIds[0]!, quantity: 1, personalisation: {} });
  await addOk(db, { cartId, variantId: variantIds[1]!, quantity: 1, personalisation: {} });
  await addOk(db, { cartId, variantId: variantIds[2]!, quantity: 1, personalisation: {} });
  await addOk(db, { cartId, variantId: variantIds[0]!, quantity: 1, personalisation: {} });
  const view = await getCartView(db, { cartId, locale: "it", now: now() });
  expect(view.lines.map((line) => [line.colour, line.size, line.quantity])).toEqual([
    ["white", "m", 2],
    ["white", "xl", 1],
    ["blue", "m", 1],
  ]);
});

test("unknown variants, bad quantities and stock limits are refused and change nothing", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 3 }] });
  expect(await addToCart(db, { cartId: null, variantId: 999_999, quantity: 1, personalisation: {} })).toEqual({
    ok: false,
    error: "variant-not-found",
  });
  for (const quantity of [0, -1, 1.5]) {
    expect(await addToCart(db, { cartId: null, variantId, quantity, personalisation: {} })).toEqual({ ok: false, error: "quantity-invalid" });
  }
  expect(await addToCart(db, { cartId: null, variantId, quantity: 10 ** 9, personalisation: {} })).toEqual({
    ok: false,
    error: "stock-exceeded",
    maxAddable: 3,
  });
  expect(await rowCounts(db)).toEqual({ carts: 0, lines: 0 });

  const { cartId } = await addOk(db, { cartId: null, variantId, quantity: 2, personalisation: {} });
  expect(await addToCart(db, { cartId, variantId, quantity: 2, personalisation: {} })).toEqual({ ok: false, error: "stock-exceeded", maxAddable: 1 });
  await addOk(db, { cartId, variantId, quantity: 1, personalisation: {} });
  expect(await addToCart(db, { cartId, variantId, quantity: 1, personalisation: {} })).toEqual({ ok: false, error: "stock-in-cart", maxAddable: 0 });
  expect(await storedLines(db, cartId)).toEqual([{ variantId, quantity: 3, personalisation: {} }]);
});

test("out-of-stock, on-request (flag or brand tag) and unpublished products cannot be added", async () => {
  const db = await openDb();
  const soldOut = await createProduct(db, { variants: [{ stock: 0 }] });
  const flagged = await createProduct(db, { isOnRequest: true });
  const tagged = await createProduct(db);
  await tagOnRequest(db, tagged.productId);
  const hidden = await createProduct(db, { isPublished: false });
  const attempt = (variantId: number) => addToCart(db, { cartId: null, variantId, quantity: 1, personalisation: {} });
  expect(await attempt(soldOut.variantId)).toEqual({ ok: false, error: "out-of-stock", maxAddable: 0 });
  expect(await attempt(flagged.variantId)).toEqual({ ok: false, error: "on-request" });
  expect(await attempt(tagged.variantId)).toEqual({ ok: false, error: "on-request" });
  expect(await attempt(hidden.variantId)).toEqual({ ok: false, error: "unavailable" });
  expect(await rowCounts(db)).toEqual({ carts: 0, lines: 0 });
});

test("a pre-order size is added with the warning", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, { variants: [{ stock: 2, isPreorder: true, preorderDays: 30 }] });
  expect(await addToCart(db, { cartId: null, variantId, quantity: 1, personalisation: {} })).toMatchObject({ ok: true, warning: "preorder" });
});

test("personalisation: every field required, unknown fields and over-long texts refused; equal texts merge", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db, {
    personalisationFields: [
      { labelIt: "Nome del bambino", labelEn: "Child's name", maxLength: 20 },
      { labelIt: "Data di nascita", labelEn: "Date of birth", maxLength: 30 },
    ],
    personalisationCostCents: 800,
    priceCents: 2490,
  });
  const attempt = (personalisation: Record<string, string>, cartId: string | null = null) =>
    addToCart(db, { cartId, variantId, quantity: 1, personalisation });
  expect(await attempt({ 0: "Luca" })).toEqual({ ok: false, error: "personalisation-missing" });
  expect(await attempt({ 0: "Luca", 1: "" })).toEqual({ ok: false, error: "personalisation-missing" });
  expect(await attempt({ 0: "Luca", 1: "1 maggio", 2: "x" })).toEqual({ ok: false, error: "personalisation-unknown-field" });
  expect(await attempt({ 0: "x".repeat(10_000), 1: "1 maggio" })).toEqual({ ok: false, error: "personalisation-too-long" });
  expect(await rowCounts(db)).toEqual({ carts: 0, lines: 0 });

  const first = await attempt({ 0: "Luca", 1: "1 maggio" });
  expect(first.ok).toBe(true);
  const cartId = first.ok ? first.cartId : null;
  expect(await attempt({ 0: " Luca ", 1: "1 maggio" }, cartId)).toMatchObject({ ok: true, lineQuantity: 2 });
  expect(await attempt({ 0: "Anna", 1: "1 maggio" }, cartId)).toMatchObject({ ok: true, lineQuantity: 1 });

  const view = await getCartView(db, { cartId, locale: "it", now: now() });
  expect(view.lines.map((line) => [line.personalisation, line.quantity, line.lineTotalCents])).toEqual([
    [
      [
        { label: "Nome del bambino", text: "Luca" },
        { label: "Data di nascita", text: "1 maggio" },
      ],
      2,
      2 * (2490 + 800),
    ],
    [
      [
        { label: "Nome del bambino", text: "Anna" },
        { label: "Data di nascita", text: "1 maggio" },
      ],
      1,
      2490 + 800,
    ],
  ]);
  expect(view.totals).toEqual({ subtotalCents: 3 * 2490, discountCents: 0, personalisationCents: 3 * 800, totalCents: 3 * 3290 });
  expect(view.lines[0]!.personalisationUnitCents).toBe(800);
});

test("decrease, remove and clear; another cart's line is refused and left alone", async () => {
  const db = await openDb();
  const a = await createProduct(db);
  const b = await createProduct(db);
  const mine = await addOk(db, { cartId: null, variantId: a.variantId, quantity: 2, personalisation: {} });
  await addOk(db, { cartId: mine.cartId, variantId: b.variantId, quantity: 1, personalisation: {} });
  const theirs = await addOk(db, { cartId: null, variantId: a.variantId, quantity: 1, personalisation: {} });

  expect(await decreaseCartLine(db, { cartId: mine.cartId, lineId: theirs.lineId })).toEqual({ ok: false, error: "line-not-found" });
  expect(await removeCartLine(db, { cartId: mine.cartId, lineId: theirs.lineId })).toEqual({ ok: false, error: "line-not-found" });
  expect(await increaseCartLine(db, { cartId: mine.cartId, lineId: theirs.lineId })).toEqual({ ok: false, error: "line-not-found" });
  expect(await decreaseCartLine(db, { cartId: null, lineId: theirs.lineId })).toEqual({ ok: false, error: "line-not-found" });
  expect(await storedLines(db, theirs.cartId)).toEqual([{ variantId: a.variantId, quantity: 1, personalisation: {} }]);

  expect(await increaseCartLine(db, { cartId: mine.cartId, lineId: mine.lineId })).toMatchObject({ ok: true, lineQuantity: 3, count: 4 });
  expect(await decreaseCartLine(db, { cartId: mine.cartId, lineId: mine.lineId })).toMatchObject({ ok: true, change: "decreased", count: 3 });
  expect(await decreaseCartLine(db, { cartId: mine.cartId, lineId: mine.lineId })).toMatchObject({ ok: true, change: "decreased", count: 2 });
  expect(await decreaseCartLine(db, { cartId: mine.cartId, lineId: mine.lineId })).toMatchObject({ ok: true, change: "removed", count: 1 });
  expect(await storedLines(db, mine.cartId)).toEqual([{ variantId: b.variantId, quantity: 1, personalisation: {} }]);
  expect(await clearCart(db, { cartId: mine.cartId })).toMatchObject({ ok: true, change: "cleared", count: 0 });
  expect(await clearCart(db, { cartId: mine.cartId })).toEqual({ ok: false, error: "cart-empty" });
  expect(await storedLines(db, mine.cartId)).toEqual([]);
  expect(await storedLines(db, theirs.cartId)).toHaveLength(1);
});

test("a cart id whose cart is gone starts a fresh cart", async () => {
  const db = await openDb();
  const { variantId } = await createProduct(db);
  const gone = "00000000-0000-4000-8000-000000000000";
  const result = await addOk(db, { cartId: gone, variantId, quantity: 1, personalisation: {} });
  expect(result.cartId).not.toBe(gone);
});

test("reading the cart recomputes prices from the database and flags price changes and stock problems", async () => {
  const db = await openDb();
  const cheap = await createProduct(db, { priceCents: 1000, nameIt: "Body", nameEn: "Bodysuit" });
  const scarce = await createProduct(db, { variants: [{ colour: "blue", size: "xl", stock: 5 }] });
  const gone = await createProduct(db, { variants: [{ stock: 5 }] });
  const offer = await createProduct(db, { priceCents: 2000, discountPercent: 25, offerEndsAt: new Date(Date.now() + 86_400_000) });
  const cut = await createProduct(db, { priceCents: 3000 });
  const { cartId } = await addOk(db, { cartId: null, variantId: cheap.variantId, quantity: 2, personalisation: {} });
  await addOk(db, { cartId, variantId: scarce.variantId, quantity: 4, personalisation: {} });
  await addOk(db, { cartId, variantId: gone.variantId, quantity: 1, personalisation: {} });
  await addOk(db, { cartId, variantId: offer.variantId, quantity: 1, personalisation: {} });
  await addOk(db, { cartId, variantId: cut.variantId, quantity: 1, personalisation: {} });

  let view = await getCartView(db, { cartId, locale: "en", now: now() });
  expect(view.hasProblems).toBe(false);
  expect(view.lines.map((line) => [line.name, line.unitCents, line.previousUnitCents, line.status])).toEqual([
    ["Bodysuit", 1000, null, "ok"],
    [expect.any(String), 1000, null, "ok"],
    [expect.any(String), 1000, null, "ok"],
    [expect.any(String), 1500, null, "ok"],
    [expect.any(String), 3000, null, "ok"],
  ]);
  expect(view.lines[0]!.size).toBeNull();
  expect(view.lines[1]).toMatchObject({ colour: "blue", size: "xl" });
  expect(view.totals).toEqual({ subtotalCents: 2000 + 4000 + 1000 + 2000 + 3000, discountCents: 500, personalisationCents: 0, totalCents: 11500 });

  // The back office raises one price and cuts another, stock drops, a product sells out.
  await db.update(products).set({ priceCents: 1200 }).where(eq(products.id, cheap.productId));
  await db.update(products).set({ discountPercent: 10 }).where(eq(products.id, cut.productId));
  await setStockTo(db, { variantId: scarce.variantId, stock: 2 }, { reason: "Venduto in negozio" });
  await setStockTo(db, { variantId: gone.variantId, stock: 0 }, { reason: "Venduto in negozio" });
  // The offer ends.
  const later = new Date(Date.now() + 2 * 86_400_000);

  view = await getCartView(db, { cartId, locale: "it", now: later });
  expect(view.lines.map((line) => [line.unitCents, line.previousUnitCents, line.status, line.payableQuantity, line.canIncrease])).toEqual([
    [1200, 1000, "ok", 2, true],
    [1000, null, "reduced", 2, false],
    [1000, null, "out-of-stock", 0, false],
    [2000, 1500, "ok", 1, true],
    [2700, 3000, "ok", 1, true],
  ]);
  expect(view.hasProblems).toBe(true);
  expect(view.count).toBe(9);
  expect(view.totals.totalCents).toBe(2 * 1200 + 4 * 1000 + 1000 + 2000 + 2700);
});

test("adding the product again, or pressing +, at today's price makes that the price seen", async () => {
  const db = await openDb();
  const body = await createProduct(db, { priceCents: 1000 });
  const bib = await createProduct(db, { priceCents: 500 });
  const { cartId, lineId } = await addOk(db, { cartId: null, variantId: body.variantId, quantity: 1, personalisation: {} });
  const bibLine = await addOk(db, { cartId, variantId: bib.variantId, quantity: 1, personalisation: {} });
  await db.update(products).set({ priceCents: 900 }).where(eq(products.id, body.productId));
  await db.update(products).set({ priceCents: 600 }).where(eq(products.id, bib.productId));
  const previous = async () => (await getCartView(db, { cartId, locale: "it", now: now() })).lines.map((line) => line.previousUnitCents);
  expect(await previous()).toEqual([1000, 500]);

  await addOk(db, { cartId, variantId: body.variantId, quantity: 1, personalisation: {} });
  expect(await increaseCartLine(db, { cartId, lineId: bibLine.lineId })).toMatchObject({ ok: true, lineQuantity: 2 });
  expect(await previous()).toEqual([null, null]);
  // Taking one away is not a new look at the price: the line keeps what was seen.
  await db.update(products).set({ priceCents: 800 }).where(eq(products.id, body.productId));
  await decreaseCartLine(db, { cartId, lineId });
  expect(await previous()).toEqual([900, null]);
});

test("an empty or unknown cart reads as empty", async () => {
  const db = await openDb();
  expect(await getCartView(db, { cartId: null, locale: "it", now: now() })).toMatchObject({ count: 0, lines: [], giftList: null });
  expect(await getCartView(db, { cartId: "00000000-0000-4000-8000-000000000000", locale: "it", now: now() })).toMatchObject({ count: 0 });
});

test("gift-list mixing is refused with the right code, in each direction", async () => {
  const db = await openDb();
  const ordinary = await createProduct(db);
  const gift = await createProduct(db);
  const listA = await createGiftList(db, [gift.variantId]);
  const listB = await createGiftList(db, [gift.variantId]);

  const withOrdinary = await addOk(db, { cartId: null, variantId: ordinary.variantId, quantity: 1, personalisation: {} });
  expect(
    await addToCart(db, {
      cartId: withOrdinary.cartId,
      variantId: gift.variantId,
      quantity: 1,
      personalisation: {},
      giftListItemId: listA.itemIds[0],
    }),
  ).toEqual({
    ok: false,
    error: "gift-list-conflict-ordinary",
  });

  const withList = await addOk(db, { cartId: null, variantId: gift.variantId, quantity: 1, personalisation: {}, giftListItemId: listA.itemIds[0] });
  expect(
    await addToCart(db, { cartId: withList.cartId, variantId: gift.variantId, quantity: 1, personalisation: {}, giftListItemId: listB.itemIds[0] }),
  ).toEqual({
    ok: false,
    error: "gift-list-conflict-other-list",
  });
  expect(await addToCart(db, { cartId: withList.cartId, variantId: ordinary.variantId, quantity: 1, personalisation: {} })).toEqual({
    ok: false,
    error: "gift-list-conflict-gift-list",
  });
  expect(
    await addToCart(db, { cartId: null, variantId: ordinary.variantId, quantity: 1, personalisation: {}, giftListItemId: listA.itemIds[0] }),
  ).toEqual({
    ok: false,
    error: "gift-list-item-not-found",
  });
  const view = await getCartView(db, { cartId: withList.cartId, locale: "it", now: now() });
  expect(view.giftList).toEqual({ code: listA.code, title: listA.title });
  expect(view.lines[0]!.isGiftListItem).toBe(true);

  await clearCart(db, { cartId: withList.cartId });
  expect(await addToCart(db, { cartId: withList.cartId, variantId: ordinary.variantId, quantity: 1, personalisation: {} })).toMatchObject({
    ok: true,
  });
});

test("merge on login: without an account cart the anonymous one becomes it", async () => {
  const db = await openDb();
  const userId = await createUser(db);
  const { variantId } = await createProduct(db);
  const anonymous = await addOk(db, { cartId: null, variantId, quantity: 2, personalisation: {} });
  const merged = await mergeCarts(db, { fromCartId: anonymous.cartId, toUserId: userId });
  expect(merged).toEqual({ cartId: anonymous.cartId, lines: [{ variantId, wanted: 2, added: 2, error: null }] });
  expect(await findCartIdOfUser(db, userId)).toBe(anonymous.cartId);
  // Logging in again with the same cart changes nothing.
  expect(await mergeCarts(db, { fromCartId: anonymous.cartId, toUserId: userId })).toEqual({ cartId: anonymous.cartId, lines: [] });
});

test("merge on login keeps the price each line was added at", async () => {
  const db = await openDb();
  const userId = await createUser(db);
  const body = await createProduct(db, { priceCents: 1000 });
  const bib = await createProduct(db, { priceCents: 500 });
  const account = await addOk(db, { cartId: null, variantId: bib.variantId, quantity: 1, personalisation: {} });
  await mergeCarts(db, { fromCartId: account.cartId, toUserId: userId });
  const anonymous = await addOk(db, { cartId: null, variantId: body.variantId, quantity: 1, personalisation: {} });
  await db.update(products).set({ priceCents: 1100 }).where(eq(products.id, body.productId));

  await mergeCarts(db, { fromCartId: anonymous.cartId, toUserId: userId });
  const view = await getCartView(db, { cartId: account.cartId, locale: "it", now: now() });
  expect(view.lines.map((line) => [line.productId, line.unitCents, line.previousUnitCents])).toEqual([
    [bib.productId, 500, null],
    [body.productId, 1100, 1000],
  ]);
});

test("merge on login: lines join the account's cart with stock caps; mixing conflicts keep the account's lines", async () => {
  const db = await openDb();
  const userId = await createUser(db);
  const shared = await createProduct(db, { variants: [{ stock: 5 }] });
  const extra = await createProduct(db);
  const gift = await createProduct(db);
  const list = await createGiftList(db, [gift.variantId]);

  const account = await addOk(db, { cartId: null, variantId: shared.variantId, quantity: 3, personalisation: {} });
  await mergeCarts(db, { fromCartId: account.cartId, toUserId: userId });

  const anonymous = await addOk(db, { cartId: null, variantId: shared.variantId, quantity: 4, personalisation: {} });
  await addOk(db, { cartId: anonymous.cartId, variantId: extra.variantId, quantity: 1, personalisation: {} });
  const merged = await mergeCarts(db, { fromCartId: anonymous.cartId, toUserId: userId });
  expect(merged).toEqual({
    cartId: account.cartId,
    lines: [
      { variantId: shared.variantId, wanted: 4, added: 2, error: "stock-exceeded" },
      { variantId: extra.variantId, wanted: 1, added: 1, error: null },
    ],
  });
  expect(await storedLines(db, account.cartId)).toEqual([
    { variantId: shared.variantId, quantity: 5, personalisation: {} },
    { variantId: extra.variantId, quantity: 1, personalisation: {} },
  ]);
  const [gone] = await db.select({ n: count() }).from(carts).where(eq(carts.id, anonymous.cartId));
  expect(gone!.n).toBe(0);

  const giftCart = await addOk(db, { cartId: null, variantId: gift.variantId, quantity: 1, personalisation: {}, giftListItemId: list.itemIds[0] });
  expect(await mergeCarts(db, { fromCartId: giftCart.cartId, toUserId: userId })).toEqual({
    cartId: account.cartId,
    lines: [{ variantId: gift.variantId, wanted: 1, added: 0, error: "gift-list-conflict-ordinary" }],
  });
  expect(await storedLines(db, account.cartId)).toHaveLength(2);
});

test("merge never takes over another customer's cart", async () => {
  const db = await openDb();
  const alice = await createUser(db);
  const bob = await createUser(db);
  const { variantId } = await createProduct(db);
  const aliceCart = await addOk(db, { cartId: null, variantId, quantity: 1, personalisation: {} });
  await mergeCarts(db, { fromCartId: aliceCart.cartId, toUserId: alice });
  expect(await mergeCarts(db, { fromCartId: aliceCart.cartId, toUserId: bob })).toEqual({ cartId: null, lines: [] });
  expect(await findCartIdOfUser(db, alice)).toBe(aliceCart.cartId);
});

test("copying lines applies every rule and reports each line", async () => {
  const db = await openDb();
  const fine = await createProduct(db, { variants: [{ stock: 10 }] });
  const scarce = await createProduct(db, { variants: [{ stock: 1 }] });
  const onRequest = await createProduct(db, { isOnRequest: true });
  const result = await addLinesToCart(db, {
    cartId: null,
    lines: [
      { variantId: fine.variantId, quantity: 2, personalisation: {}, giftList: null },
      { variantId: scarce.variantId, quantity: 3, personalisation: {}, giftList: null },
      { variantId: onRequest.variantId, quantity: 1, personalisation: {}, giftList: null },
      { variantId: 999_999, quantity: 1, personalisation: {}, giftList: null },
      { variantId: fine.variantId, quantity: 1, personalisation: { 0: "Luca" }, giftList: null },
    ],
  });
  expect(result.lines.map((line) => [line.added, line.error])).toEqual([
    [2, null],
    [1, "stock-exceeded"],
    [0, "on-request"],
    [0, "variant-not-found"],
    [0, "personalisation-unknown-field"],
  ]);
  expect(result.count).toBe(3);
});

testOnPostgres("concurrent adds to one cart never go above the stock", async () => {
  const db = await openDb(12);
  const { variantId } = await createProduct(db, { variants: [{ stock: 5 }] });
  const { cartId } = await addOk(db, { cartId: null, variantId, quantity: 1, personalisation: {} });
  const results = await Promise.all(Array.from({ length: 10 }, () => addToCart(db, { cartId, variantId, quantity: 1, personalisation: {} })));
  expect(results.filter((result) => result.ok)).toHaveLength(4);
  expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.error === "stock-in-cart")).toBe(true);
  expect(await storedLines(db, cartId)).toEqual([{ variantId, quantity: 5, personalisation: {} }]);
});
