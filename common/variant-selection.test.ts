import { expect, test } from "vitest";
import {
  canAddToCart,
  clampQuantity,
  findVariant,
  getAvailableStock,
  getColours,
  getInitialSelection,
  getMaxQuantity,
  getPreorderDays,
  getQuantityAdjustment,
  getQuantityInCart,
  getSelectionSearch,
  getSizes,
  selectColour,
  selectSize,
  setQuantity,
  showsSizeChoice,
  type VariantOption,
} from "./variant-selection";
import { isOneSize } from "./sizes";

let nextId = 1;
function variant(colour: string | null, size: string, stock: number, overrides: Partial<VariantOption> = {}): VariantOption {
  return { id: nextId++, colour, size, isOneSize: isOneSize(size), stock, isPreorder: false, preorderDays: null, ...overrides };
}

// A romper in white and blue, sizes x, m, xl; blue m is sold out; blue xl is a pre-order.
const romper = [
  variant("white", "x", 2),
  variant("white", "m", 27),
  variant("white", "xl", 28),
  variant("blue", "m", 0),
  variant("blue", "x", 53),
  variant("blue", "xl", 6, { isPreorder: true, preorderDays: 30 }),
];
const simple = [variant(null, "TAGLIA_UNICA", 13)];
const oneSizeColours = [variant("black", "TAGLIA_UNICA", 46), variant("blue", "tagliau", 0)];

test("colours and sizes are listed in the order of the product's variants", () => {
  expect(getColours(romper)).toEqual(["white", "blue"]);
  expect(getSizes(romper, "white")).toEqual(["x", "m", "xl"]);
  expect(getSizes(romper, "blue")).toEqual(["m", "x", "xl"]);
  expect(getColours(simple)).toEqual([]);
});

test("the page opens on the first colour, its first size and quantity 1", () => {
  expect(getInitialSelection(romper)).toEqual({ colour: "white", size: "x", stock: 2, quantity: 1 });
  expect(getInitialSelection(simple)).toEqual({ colour: null, size: "TAGLIA_UNICA", stock: 13, quantity: 1 });
  expect(getInitialSelection([])).toEqual({ colour: null, size: null, stock: 0, quantity: 1 });
});

test("the page opens on the colour and size of its address; unknown ones fall back to the first", () => {
  expect(getInitialSelection(romper, { colour: "blue", size: "xl" })).toEqual({ colour: "blue", size: "xl", stock: 6, quantity: 1 });
  expect(getInitialSelection(romper, { colour: "blue" })).toMatchObject({ colour: "blue", size: "m", stock: 0 });
  expect(getInitialSelection(romper, { colour: "pink", size: "m" })).toMatchObject({ colour: "white", size: "m", stock: 27 });
  expect(getInitialSelection(romper, { colour: "white", size: "xxl" })).toMatchObject({ colour: "white", size: "x" });
});

test("picking a colour resets the size to that colour's first size", () => {
  const onWhiteXl = getInitialSelection(romper, { colour: "white", size: "xl" });
  expect(selectColour(onWhiteXl, romper, "blue")).toMatchObject({ colour: "blue", size: "m" });
});

test("picking a colour resets the stock to that size's stock", () => {
  const onWhite = getInitialSelection(romper, { colour: "white", size: "m" });
  expect(onWhite.stock).toBe(27);
  expect(selectColour(onWhite, romper, "blue").stock).toBe(0);
  expect(selectColour(selectColour(onWhite, romper, "blue"), romper, "white").stock).toBe(2);
});

test("picking a colour resets the quantity to 1", () => {
  const withFour = setQuantity(getInitialSelection(romper, { colour: "white", size: "m" }), 4, 0);
  expect(withFour.quantity).toBe(4);
  expect(selectColour(withFour, romper, "blue").quantity).toBe(1);
  // Even the colour already chosen: a pick is a fresh start.
  expect(selectColour(withFour, romper, "white")).toEqual({ colour: "white", size: "x", stock: 2, quantity: 1 });
});

test("picking a size keeps the colour, takes that size's stock and resets the quantity to 1", () => {
  const withFour = setQuantity(getInitialSelection(romper, { colour: "blue", size: "x" }), 4, 0);
  expect(selectSize(withFour, romper, "xl")).toEqual({ colour: "blue", size: "xl", stock: 6, quantity: 1 });
});

test("picking a colour or size the product does not have changes nothing", () => {
  const selection = setQuantity(getInitialSelection(romper), 2, 0);
  expect(selectColour(selection, romper, "pink")).toBe(selection);
  expect(selectSize(selection, romper, "xxl")).toBe(selection);
});

test("available stock is the simple product's own stock or that of the chosen colour and size", () => {
  expect(getAvailableStock(findVariant(simple, { colour: null, size: "TAGLIA_UNICA" }))).toBe(13);
  expect(getAvailableStock(findVariant(romper, { colour: "white", size: "xl" }))).toBe(28);
  expect(getAvailableStock(findVariant(romper, { colour: "white", size: "xxl" }))).toBe(0);
  expect(getAvailableStock(undefined)).toBe(0);
});

test("the quantity in the cart is that of the lines of the chosen colour and size, else 0", () => {
  const whiteM = findVariant(romper, { colour: "white", size: "m" })!;
  const whiteX = findVariant(romper, { colour: "white", size: "x" })!;
  const lines = [
    { variantId: whiteM.id, quantity: 2 },
    { variantId: whiteX.id, quantity: 1 },
    // The same variant with a different personalisation is a second line.
    { variantId: whiteM.id, quantity: 3 },
  ];
  expect(getQuantityInCart(lines, whiteM.id)).toBe(5);
  expect(getQuantityInCart(lines, whiteX.id)).toBe(1);
  expect(getQuantityInCart(lines, 999)).toBe(0);
  expect(getQuantityInCart([], whiteM.id)).toBe(0);
  expect(getQuantityInCart(undefined, whiteM.id)).toBe(0);
  expect(getQuantityInCart(lines, undefined)).toBe(0);
});

test("the quantity is at least 1 and at most the stock minus what the cart already holds", () => {
  expect(getMaxQuantity(27, 0)).toBe(27);
  expect(getMaxQuantity(27, 5)).toBe(22);
  expect(getMaxQuantity(3, 5)).toBe(0);

  const whiteM = getInitialSelection(romper, { colour: "white", size: "m" });
  expect(setQuantity(whiteM, 0, 0).quantity).toBe(1);
  expect(setQuantity(whiteM, -4, 0).quantity).toBe(1);
  expect(setQuantity(whiteM, 30, 0).quantity).toBe(27);
  expect(setQuantity(whiteM, 30, 25).quantity).toBe(2);
  expect(setQuantity(whiteM, 2.7, 0).quantity).toBe(2);
  expect(setQuantity(whiteM, Number.NaN, 0).quantity).toBe(1);
  expect(clampQuantity(5, 0)).toBe(1);
});

test("a typed quantity changed to fit the limits says why: at most what can be added, at least 1, whole pieces", () => {
  expect(getQuantityAdjustment(5, 12)).toBeNull();
  expect(getQuantityAdjustment(12, 12)).toBeNull();
  expect(getQuantityAdjustment(999, 12)).toBe("atMost");
  expect(getQuantityAdjustment(20.5, 12)).toBe("atMost");
  expect(getQuantityAdjustment(0, 12)).toBe("atLeast");
  expect(getQuantityAdjustment(-3, 12)).toBe("atLeast");
  expect(getQuantityAdjustment(0.5, 12)).toBe("atLeast");
  expect(getQuantityAdjustment(1.5, 12)).toBe("whole");
  expect(getQuantityAdjustment(12.5, 12)).toBe("whole");
});

test("adding is disabled when the cart holds the stock or more", () => {
  expect(canAddToCart(27, 26)).toBe(true);
  expect(canAddToCart(27, 27)).toBe(false);
  expect(canAddToCart(27, 30)).toBe(false);
});

test("stock 0 or a missing variant: adding is disabled", () => {
  expect(canAddToCart(0, 0)).toBe(false);
  const blueM = getInitialSelection(romper, { colour: "blue", size: "m" });
  expect(canAddToCart(blueM.stock, 0)).toBe(false);
  expect(canAddToCart(getAvailableStock(findVariant(romper, { colour: "white", size: "xxl" })), 0)).toBe(false);
});

test("quick view: changing colour or size resets the quantity to 1 and takes that variant's stock", () => {
  let selection = getInitialSelection(romper);
  selection = setQuantity(selection, 2, 0);
  selection = selectColour(selection, romper, "blue");
  expect(selection).toEqual({ colour: "blue", size: "m", stock: 0, quantity: 1 });
  selection = selectSize(selection, romper, "x");
  selection = setQuantity(selection, 10, 0);
  selection = selectSize(selection, romper, "xl");
  expect(selection).toEqual({ colour: "blue", size: "xl", stock: 6, quantity: 1 });
});

test("the size choice is hidden when the colour's only size means one size (TAGLIA_UNICA or tagliau)", () => {
  expect(showsSizeChoice(romper, "white")).toBe(true);
  expect(showsSizeChoice(simple, null)).toBe(false);
  expect(showsSizeChoice(oneSizeColours, "black")).toBe(false);
  expect(showsSizeChoice(oneSizeColours, "blue")).toBe(false);
});

test("a pre-order size gives its delivery days; a size that ships now gives none", () => {
  expect(getPreorderDays(findVariant(romper, { colour: "blue", size: "xl" }))).toBe(30);
  expect(getPreorderDays(findVariant(romper, { colour: "blue", size: "x" }))).toBeNull();
  expect(getPreorderDays({ isPreorder: true, preorderDays: null })).toBeNull();
  expect(getPreorderDays(undefined)).toBeNull();
});

test("the address of a selection names colour and size, leaving out one size and a missing colour", () => {
  expect(getSelectionSearch(romper, { colour: "blue", size: "xl" })).toBe("?colour=blue&size=xl");
  expect(getSelectionSearch(oneSizeColours, { colour: "black", size: "TAGLIA_UNICA" })).toBe("?colour=black");
  expect(getSelectionSearch(simple, { colour: null, size: "TAGLIA_UNICA" })).toBe("");
  const months = [variant("white", "18mesi +", 3)];
  expect(getSelectionSearch(months, { colour: "white", size: "18mesi +" })).toBe("?colour=white&size=18mesi+%2B");
  expect(new URLSearchParams("?colour=white&size=18mesi+%2B").get("size")).toBe("18mesi +");
});
