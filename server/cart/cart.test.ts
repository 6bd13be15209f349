import fc from "fast-check";
import { expect, test } from "vitest";
import en from "#messages/en.json";
import it from "#messages/it.json";
import {
  addAsMuchAsAllowed,
  addToCartRule,
  canAdd,
  isForSale,
  cartTotals,
  checkPersonalisation,
  clearCartRule,
  decreaseLineRule,
  emptyCart,
  increaseLineRule,
  lineAvailability,
  lineTotalCents,
  maxAddable,
  mixingConflict,
  persistentCartErrors,
  personalisationKeyOf,
  previousUnitPrice,
  quantityInCart,
  removeLineRule,
  type AddRequest,
  type Cart,
  type CartLine,
  type SellableVariant,
} from "./cart.ts";

const variant = (overrides: Partial<SellableVariant> = {}): SellableVariant => ({
  variantId: 1,
  stock: 10,
  isPreorder: false,
  isOnRequest: false,
  isPublished: true,
  isRecalled: false,
  ...overrides,
});

let lineCounter = 0;
const request = (overrides: Partial<AddRequest> = {}): AddRequest => ({
  variant: variant(),
  quantity: 1,
  personalisationKey: "",
  giftList: null,
  newLineId: `line-${++lineCounter}`,
  ...overrides,
});

function add(cart: Cart, overrides: Partial<AddRequest> = {}): Cart {
  const outcome = addToCartRule(cart, request(overrides));
  if (!outcome.ok) throw new Error(`refused: ${outcome.error}`);
  return outcome.cart;
}

const line = (overrides: Partial<CartLine> = {}): CartLine => ({
  id: "a",
  variantId: 1,
  quantity: 1,
  personalisationKey: "",
  giftListItemId: null,
  ...overrides,
});

// ---------------------------------------------------------------- add and merge

test("a product without variations merges into the line with the same id, else a new line with quantity 1", () => {
  const once = add(emptyCart);
  expect(once.lines).toHaveLength(1);
  expect(once.lines[0]!.quantity).toBe(1);
  const twice = add(once);
  expect(twice.lines).toHaveLength(1);
  expect(twice.lines[0]!.quantity).toBe(2);
  const other = add(twice, { variant: variant({ variantId: 2 }) });
  expect(other.lines.map((l) => [l.variantId, l.quantity])).toEqual([
    [1, 2],
    [2, 1],
  ]);
});

test("a new line takes the quantity given", () => {
  expect(add(emptyCart, { quantity: 3 }).lines[0]!.quantity).toBe(3);
});

test("with variations a line matches on product + colour + size (the variant): a match raises the quantity, else a new line", () => {
  // Variants 10 and 11 are two colour/size combinations of one product.
  let cart = add(emptyCart, { variant: variant({ variantId: 10 }), quantity: 2 });
  cart = add(cart, { variant: variant({ variantId: 10 }), quantity: 3 });
  cart = add(cart, { variant: variant({ variantId: 11 }) });
  expect(cart.lines.map((l) => [l.variantId, l.quantity])).toEqual([
    [10, 5],
    [11, 1],
  ]);
});

test("the same variant with another personalisation is another line; with the same one it merges", () => {
  const luca = personalisationKeyOf({ 0: "Luca" });
  const anna = personalisationKeyOf({ 0: "Anna" });
  let cart = add(emptyCart, { personalisationKey: luca });
  cart = add(cart, { personalisationKey: anna });
  cart = add(cart, { personalisationKey: luca });
  expect(cart.lines.map((l) => [l.personalisationKey, l.quantity])).toEqual([
    [luca, 2],
    [anna, 1],
  ]);
});

test("a merge reports the existing line and its new quantity; a new line reports created", () => {
  const first = addToCartRule(emptyCart, request({ newLineId: "x" }));
  expect(first).toMatchObject({ ok: true, lineId: "x", lineQuantity: 1, created: true });
  const second = addToCartRule(first.ok ? first.cart : emptyCart, request({ newLineId: "y", quantity: 2 }));
  expect(second).toMatchObject({ ok: true, lineId: "x", lineQuantity: 3, created: false });
});

// ---------------------------------------------------------------- decrease, delete, delete all

test("decrease: at quantity 1 the line is removed, else the quantity drops by 1", () => {
  const cart: Cart = { giftListId: null, lines: [line({ id: "a", quantity: 2 }), line({ id: "b", variantId: 2, quantity: 1 })] };
  const decreased = decreaseLineRule(cart, "a");
  expect(decreased).toMatchObject({ ok: true, change: "decreased" });
  expect(decreased.ok && decreased.cart.lines.map((l) => l.quantity)).toEqual([1, 1]);
  const removed = decreaseLineRule(cart, "b");
  expect(removed).toMatchObject({ ok: true, change: "removed" });
  expect(removed.ok && removed.cart.lines.map((l) => l.id)).toEqual(["a"]);
});

test("delete removes one line; delete-all removes every line", () => {
  const cart: Cart = { giftListId: null, lines: [line({ id: "a", quantity: 4 }), line({ id: "b", variantId: 2 })] };
  const removed = removeLineRule(cart, "a");
  expect(removed.ok && removed.cart.lines.map((l) => l.id)).toEqual(["b"]);
  const cleared = clearCartRule(cart);
  expect(cleared).toMatchObject({ ok: true, change: "cleared", cart: { giftListId: null, lines: [] } });
});

test("a line that is not in the cart (another visitor's id) is refused", () => {
  const cart: Cart = { giftListId: null, lines: [line({ id: "a" })] };
  expect(decreaseLineRule(cart, "zzz")).toEqual({ ok: false, error: "line-not-found" });
  expect(removeLineRule(cart, "zzz")).toEqual({ ok: false, error: "line-not-found" });
  expect(increaseLineRule(cart, "zzz", variant())).toEqual({ ok: false, error: "line-not-found" });
  expect(clearCartRule(emptyCart)).toEqual({ ok: false, error: "cart-empty" });
});

// ---------------------------------------------------------------- quantities and stock

test("quantity minimum 1: 0, -1, 1.5, NaN and unsafe numbers are refused", () => {
  for (const quantity of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
    expect(addToCartRule(emptyCart, request({ quantity }))).toEqual({ ok: false, error: "quantity-invalid" });
  }
});

test("maximum is the variant's stock minus what the cart already holds (over every line of that variant)", () => {
  const stock5 = variant({ stock: 5 });
  let cart = add(emptyCart, { variant: stock5, quantity: 2 });
  cart = add(cart, { variant: stock5, quantity: 1, personalisationKey: personalisationKeyOf({ 0: "Anna" }) });
  expect(quantityInCart(cart, 1)).toBe(3);
  expect(maxAddable(cart, stock5)).toBe(2);
  expect(addToCartRule(cart, request({ variant: stock5, quantity: 3 }))).toEqual({ ok: false, error: "stock-exceeded", maxAddable: 2 });
  expect(addToCartRule(cart, request({ variant: stock5, quantity: 10 ** 9 }))).toEqual({ ok: false, error: "stock-exceeded", maxAddable: 2 });
  expect(addToCartRule(cart, request({ variant: stock5, quantity: 2 })).ok).toBe(true);
});

test("adding is disabled when the cart holds the stock or more, and the server refuses it", () => {
  const stock2 = variant({ stock: 2 });
  const full = add(emptyCart, { variant: stock2, quantity: 2 });
  expect(canAdd(full, stock2)).toBe(false);
  expect(addToCartRule(full, request({ variant: stock2 }))).toEqual({ ok: false, error: "stock-in-cart", maxAddable: 0 });
  // Stock went down below what the cart holds: still disabled, never negative.
  expect(maxAddable(full, variant({ stock: 1 }))).toBe(0);
  expect(canAdd(full, variant({ stock: 1 }))).toBe(false);
  expect(increaseLineRule(full, full.lines[0]!.id, stock2)).toEqual({ ok: false, error: "stock-in-cart", maxAddable: 0 });
});

test("stock 0 is out of stock", () => {
  expect(addToCartRule(emptyCart, request({ variant: variant({ stock: 0 }) }))).toEqual({ ok: false, error: "out-of-stock", maxAddable: 0 });
  expect(canAdd(emptyCart, variant({ stock: 0 }))).toBe(false);
});

test("on-request products can never be added; unpublished ones neither", () => {
  expect(addToCartRule(emptyCart, request({ variant: variant({ isOnRequest: true }) }))).toEqual({ ok: false, error: "on-request" });
  expect(addToCartRule(emptyCart, request({ variant: variant({ isPublished: false }) }))).toEqual({ ok: false, error: "unavailable" });
  expect(canAdd(emptyCart, variant({ isOnRequest: true }))).toBe(false);
});

test("a recalled variant is never sold again, whatever its stock", () => {
  expect(addToCartRule(emptyCart, request({ variant: variant({ isRecalled: true, stock: 50 }) }))).toEqual({ ok: false, error: "recalled" });
  expect(canAdd(emptyCart, variant({ isRecalled: true, stock: 50 }))).toBe(false);
  expect(isForSale({ isPublished: true, isOnRequest: false, isRecalled: true })).toBe(false);
  expect(isForSale({ isPublished: true, isOnRequest: false, isRecalled: false })).toBe(true);
});

test("a pre-order size is added up to its stock with the not-immediately-available warning", () => {
  const preorder = variant({ isPreorder: true, stock: 3 });
  expect(addToCartRule(emptyCart, request({ variant: preorder }))).toMatchObject({ ok: true, warning: "preorder" });
  expect(addToCartRule(emptyCart, request({ variant: preorder, quantity: 4 }))).toMatchObject({ ok: false, error: "stock-exceeded" });
  expect(addToCartRule(emptyCart, request())).toMatchObject({ ok: true, warning: null });
});

test("the + of a line adds one with every rule", () => {
  const cart = add(emptyCart, { variant: variant({ stock: 2 }) });
  const increased = increaseLineRule(cart, cart.lines[0]!.id, variant({ stock: 2 }));
  expect(increased).toMatchObject({ ok: true, lineQuantity: 2, created: false });
});

test("merging lines from elsewhere adds up to the stock and reports the reduction", () => {
  const stock4 = variant({ stock: 4 });
  const cart = add(emptyCart, { variant: stock4, quantity: 3 });
  const merged = addAsMuchAsAllowed(cart, request({ variant: stock4, quantity: 5 }));
  expect(merged).toMatchObject({ added: 1, reduced: true, outcome: { ok: true, lineQuantity: 4 } });
  const none = addAsMuchAsAllowed(merged.outcome.ok ? merged.outcome.cart : cart, request({ variant: stock4, quantity: 1 }));
  expect(none).toMatchObject({ added: 0, reduced: false, outcome: { ok: false, error: "stock-in-cart" } });
  expect(addAsMuchAsAllowed(emptyCart, request({ quantity: 2 }))).toMatchObject({ added: 2, reduced: false });
});

// ---------------------------------------------------------------- personalisation

const fields = [
  { labelIt: "Nome", labelEn: "Name", maxLength: 20 },
  { labelIt: "Data", labelEn: "Date", maxLength: 30 },
];

test("every personalisation field must be non-empty, else 'Personalizzazione non inserita! ' and nothing is added", () => {
  expect(checkPersonalisation(fields, { 0: "Luca" })).toEqual({ ok: false, error: "personalisation-missing" });
  expect(checkPersonalisation(fields, { 0: "Luca", 1: "   " })).toEqual({ ok: false, error: "personalisation-missing" });
  expect(checkPersonalisation(fields, {})).toEqual({ ok: false, error: "personalisation-missing" });
  expect(it.cart.errors["personalisation-missing"]).toBe("Personalizzazione non inserita! ");
});

test("personalisation texts are trimmed and keyed canonically", () => {
  const checked = checkPersonalisation(fields, { 1: " 12 maggio ", 0: "Luca " });
  expect(checked).toEqual({ ok: true, personalisation: { 0: "Luca", 1: "12 maggio" }, key: '[["0","Luca"],["1","12 maggio"]]' });
  expect(personalisationKeyOf({ 1: "b", 0: "a" })).toBe(personalisationKeyOf({ 0: "a", 1: "b" }));
  expect(personalisationKeyOf({})).toBe("");
});

test("fields unknown to the product, or longer than the field's maxLength, are refused", () => {
  expect(checkPersonalisation(fields, { 0: "a", 1: "b", 2: "c" })).toEqual({ ok: false, error: "personalisation-unknown-field" });
  expect(checkPersonalisation(fields, { 0: "a", 1: "b", name: "c" })).toEqual({ ok: false, error: "personalisation-unknown-field" });
  expect(checkPersonalisation(fields, { "00": "a", 1: "b" })).toEqual({ ok: false, error: "personalisation-unknown-field" });
  expect(checkPersonalisation(null, { 0: "Luca" })).toEqual({ ok: false, error: "personalisation-unknown-field" });
  expect(checkPersonalisation(fields, { 0: "x".repeat(21), 1: "b" })).toEqual({ ok: false, error: "personalisation-too-long" });
  expect(checkPersonalisation(fields, { 0: "x".repeat(10_000), 1: "b" })).toEqual({ ok: false, error: "personalisation-too-long" });
  expect(checkPersonalisation(fields, { 0: "x".repeat(20), 1: "b" }).ok).toBe(true);
});

test("a product without personalisation takes none", () => {
  expect(checkPersonalisation(null, {})).toEqual({ ok: true, personalisation: {}, key: "" });
  expect(checkPersonalisation([], {})).toEqual({ ok: true, personalisation: {}, key: "" });
});

test("the personalisation cost is added per item to the line and to the totals", () => {
  expect(lineTotalCents({ unitCents: 2490, personalisationUnitCents: 800 }, 3)).toBe(9870);
  expect(
    cartTotals([
      { listUnitCents: 2490, unitCents: 2490, personalisationUnitCents: 800, quantity: 3 },
      { listUnitCents: 3990, unitCents: 2394, personalisationUnitCents: 0, quantity: 1 },
    ]),
  ).toEqual({ subtotalCents: 11460, discountCents: 1596, personalisationCents: 2400, totalCents: 12264 });
  expect(cartTotals([])).toEqual({ subtotalCents: 0, discountCents: 0, personalisationCents: 0, totalCents: 0 });
});

// ---------------------------------------------------------------- gift-list mixing

const listA = { giftListId: "list-a", giftListItemId: "item-a1" };
const listB = { giftListId: "list-b", giftListItemId: "item-b1" };

test("an empty cart takes ordinary items or the items of one gift list", () => {
  expect(mixingConflict(emptyCart, null)).toBeNull();
  expect(mixingConflict(emptyCart, "list-a")).toBeNull();
  const giftCart = add(emptyCart, { giftList: listA });
  expect(giftCart.giftListId).toBe("list-a");
  expect(giftCart.lines[0]!.giftListItemId).toBe("item-a1");
});

test("a gift-list item is refused while ordinary items are in the cart (persistent)", () => {
  const cart = add(emptyCart);
  expect(addToCartRule(cart, request({ giftList: listA }))).toEqual({ ok: false, error: "gift-list-conflict-ordinary" });
  expect(it.cart.errors["gift-list-conflict-ordinary"]).toBe(
    "Il tuo carrello contiene già 1 o più articoli. Completa l'acquisto o svuota il carrello prima di aggiungere articoli della lista regalo.",
  );
});

test("an item of another gift list is refused (persistent)", () => {
  const cart = add(emptyCart, { giftList: listA });
  expect(addToCartRule(cart, request({ giftList: listB }))).toEqual({ ok: false, error: "gift-list-conflict-other-list" });
  expect(it.cart.errors["gift-list-conflict-other-list"]).toBe(
    "Il tuo carrello contiene già 1 o più articoli di un'altra Lista Regalo. Completa l'acquisto o svuota il carrello prima di aggiungere articoli della lista regalo.",
  );
});

test("an ordinary item is refused while gift-list items are in the cart (persistent)", () => {
  const cart = add(emptyCart, { giftList: listA });
  expect(addToCartRule(cart, request({ variant: variant({ variantId: 2 }) }))).toEqual({ ok: false, error: "gift-list-conflict-gift-list" });
  expect(it.cart.errors["gift-list-conflict-gift-list"]).toBe(
    "Il tuo carrello contiene già 1 o più articoli della Lista Regalo. Completa l'acquisto o svuota il carrello prima di aggiungere articoli della lista regalo.",
  );
});

test("more items of the same gift list are fine; emptying the cart frees it for anything", () => {
  let cart = add(emptyCart, { giftList: listA });
  cart = add(cart, { variant: variant({ variantId: 2 }), giftList: { giftListId: "list-a", giftListItemId: "item-a2" } });
  expect(cart.lines).toHaveLength(2);
  const cleared = clearCartRule(cart);
  expect(cleared.ok && cleared.cart.giftListId).toBeNull();
  let single = add(emptyCart, { giftList: listA });
  const removed = removeLineRule(single, single.lines[0]!.id);
  expect(removed.ok && removed.cart.giftListId).toBeNull();
  single = add(removed.ok ? removed.cart : emptyCart);
  expect(single.giftListId).toBeNull();
});

test("the three gift-list conflicts, and only they, stay until dismissed", () => {
  expect([...persistentCartErrors].sort()).toEqual(["gift-list-conflict-gift-list", "gift-list-conflict-ordinary", "gift-list-conflict-other-list"]);
});

// ---------------------------------------------------------------- toasts and sizes

test("toast texts are exactly the spec's in Italian, with English equivalents", () => {
  expect(it.cart.toast).toEqual({
    added: "Aggiunto al carrello",
    decreased: "Articolo Decrementato dal carrello",
    removed: "Rimosso dal carrello",
    cleared: "Rimossi tutti dal carrello",
    preorder: "Attenzione stai per acquistare un prodotto che non è disponibile immediatamente",
  });
  expect(Object.keys(en.cart.toast).sort()).toEqual(Object.keys(it.cart.toast).sort());
  expect(Object.keys(en.cart.errors).sort()).toEqual(Object.keys(it.cart.errors).sort());
});

// ---------------------------------------------------------------- reading: availability and price changes

test("a line whose product went out of stock, or below the cart's quantity, says so", () => {
  const stock = new Map([
    [1, 3],
    [2, 0],
  ]);
  const result = lineAvailability(
    [
      { id: "a", variantId: 1, quantity: 2, isForSale: true },
      { id: "b", variantId: 1, quantity: 2, isForSale: true },
      { id: "c", variantId: 2, quantity: 1, isForSale: true },
      { id: "d", variantId: 3, quantity: 1, isForSale: false },
    ],
    (id) => stock.get(id) ?? 0,
  );
  expect(Object.fromEntries(result)).toEqual({
    a: { payableQuantity: 2, status: "ok" },
    b: { payableQuantity: 1, status: "reduced" },
    c: { payableQuantity: 0, status: "out-of-stock" },
    d: { payableQuantity: 0, status: "unavailable" },
  });
});

test("a line shows the price seen when added only when today's price differs, up or down", () => {
  expect(previousUnitPrice(1000, 1200)).toBe(1000);
  expect(previousUnitPrice(1000, 800)).toBe(1000);
  expect(previousUnitPrice(1000, 1000)).toBeNull();
  // Lines stored before the seen price was kept say nothing.
  expect(previousUnitPrice(null, 1000)).toBeNull();
});

// ---------------------------------------------------------------- properties

type Op =
  | { kind: "add"; variant: number; quantity: number; personalisation: number; list: 0 | 1 | 2 }
  | { kind: "decrease" | "remove" | "increase"; line: number }
  | { kind: "clear" };

const stocks = [0, 1, 3, 7];
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    variant: fc.integer({ min: 0, max: stocks.length - 1 }),
    quantity: fc.oneof(fc.integer({ min: -2, max: 9 }), fc.constantFrom(1.5, 10 ** 9)),
    personalisation: fc.integer({ min: 0, max: 1 }),
    list: fc.constantFrom(0 as const, 1 as const, 2 as const),
  }),
  fc.record({ kind: fc.constantFrom("decrease" as const, "remove" as const, "increase" as const), line: fc.integer({ min: 0, max: 5 }) }),
  fc.constant({ kind: "clear" as const }),
);

function assertInvariants(cart: Cart) {
  for (const cartLine of cart.lines) {
    expect(cartLine.quantity).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(cartLine.quantity)).toBe(true);
  }
  for (let index = 0; index < stocks.length; index++) expect(quantityInCart(cart, index)).toBeLessThanOrEqual(stocks[index]!);
  const giftLines = cart.lines.filter((l) => l.giftListItemId !== null);
  // Never a mix: all ordinary, or all of the cart's one gift list.
  expect(giftLines.length === 0 || giftLines.length === cart.lines.length).toBe(true);
  expect(cart.giftListId === null).toBe(giftLines.length === 0);
  if (cart.giftListId) for (const l of giftLines) expect(l.giftListItemId!.startsWith(cart.giftListId)).toBe(true);
  const keys = cart.lines.map((l) => `${l.variantId}|${l.personalisationKey}|${l.giftListItemId}`);
  expect(new Set(keys).size).toBe(keys.length);
}

test("no sequence of adds, increases, decreases, deletes and clears leaves a line above stock, at quantity 0, or a mixed cart", () => {
  fc.assert(
    fc.property(fc.array(opArbitrary, { maxLength: 40 }), (ops) => {
      let cart: Cart = emptyCart;
      let next = 0;
      for (const op of ops) {
        if (op.kind === "add") {
          const giftList = op.list === 0 ? null : { giftListId: `list${op.list}`, giftListItemId: `list${op.list}-item${op.variant}` };
          const outcome = addToCartRule(cart, {
            variant: variant({ variantId: op.variant, stock: stocks[op.variant]! }),
            quantity: op.quantity,
            personalisationKey: op.personalisation ? personalisationKeyOf({ 0: "Anna" }) : "",
            giftList,
            newLineId: `n${next++}`,
          });
          if (outcome.ok) cart = outcome.cart;
        } else if (op.kind === "clear") {
          const outcome = clearCartRule(cart);
          if (outcome.ok) cart = outcome.cart;
        } else {
          const target = cart.lines[op.line % Math.max(1, cart.lines.length)];
          const lineId = target?.id ?? "missing";
          const outcome =
            op.kind === "decrease"
              ? decreaseLineRule(cart, lineId)
              : op.kind === "remove"
                ? removeLineRule(cart, lineId)
                : increaseLineRule(cart, lineId, variant({ variantId: target?.variantId ?? 0, stock: stocks[target?.variantId ?? 0]! }));
          if (outcome.ok) cart = outcome.cart;
        }
        assertInvariants(cart);
      }
    }),
    { numRuns: 500 },
  );
});

test("a refused operation never changes the cart", () => {
  fc.assert(
    fc.property(fc.array(opArbitrary, { maxLength: 20 }), opArbitrary, (setup, op) => {
      let cart: Cart = emptyCart;
      let next = 0;
      for (const step of setup) {
        if (step.kind !== "add") continue;
        const outcome = addToCartRule(cart, {
          variant: variant({ variantId: step.variant, stock: stocks[step.variant]! }),
          quantity: step.quantity,
          personalisationKey: "",
          giftList: null,
          newLineId: `n${next++}`,
        });
        if (outcome.ok) cart = outcome.cart;
      }
      const before = structuredClone(cart);
      if (op.kind === "add") {
        const outcome = addToCartRule(cart, {
          variant: variant({ variantId: op.variant, stock: stocks[op.variant]! }),
          quantity: op.quantity,
          personalisationKey: "",
          giftList: op.list === 0 ? null : { giftListId: `list${op.list}`, giftListItemId: `list${op.list}-x` },
          newLineId: "new",
        });
        if (!outcome.ok) expect(cart).toEqual(before);
      }
      expect(cart).toEqual(before);
    }),
    { numRuns: 200 },
  );
});
