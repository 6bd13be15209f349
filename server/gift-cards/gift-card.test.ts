import { expect, test } from "vitest";
import { giftCardExpiry, giftCardShare, newGiftCardCode, normaliseGiftCardCode } from "./gift-card";

test("a new code reads in four groups of four and passes its own check", () => {
  const code = newGiftCardCode();
  expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  expect(normaliseGiftCardCode(code)).toBe(code.replace(/-/g, ""));
  expect(normaliseGiftCardCode(` ${code.toLowerCase().replace(/-/g, " ")} `)).toBe(code.replace(/-/g, ""));
});

test("one wrong character or two swapped neighbours are caught before any lookup", () => {
  for (let round = 0; round < 200; round += 1) {
    const code = newGiftCardCode().replace(/-/g, "");
    const position = round % code.length;
    const wrong = code[position] === "7" ? "8" : "7";
    expect(normaliseGiftCardCode(code.slice(0, position) + wrong + code.slice(position + 1))).toBeNull();
    const swap = round % (code.length - 1);
    // Luhn mod 32 misses one swap only: the first and the last character of the alphabet ("0" and "Z").
    const pair = new Set([code[swap], code[swap + 1]]);
    if (code[swap] !== code[swap + 1] && !(pair.has("0") && pair.has("Z"))) {
      expect(normaliseGiftCardCode(code.slice(0, swap) + code[swap + 1] + code[swap] + code.slice(swap + 2))).toBeNull();
    }
  }
  expect(normaliseGiftCardCode("ABC")).toBeNull();
  expect(normaliseGiftCardCode("UUUU-UUUU-UUUU-UUUU")).toBeNull();
});

test("letters that look like digits are read as the digits", () => {
  const code = newGiftCardCode().replace(/-/g, "");
  expect(normaliseGiftCardCode(code.replace(/0/g, "O").replace(/1/g, "l"))).toBe(code);
});

test("a card pays what it can: all of the due amount or its whole balance", () => {
  expect(giftCardShare(5000, 3000)).toBe(3000);
  expect(giftCardShare(2000, 3000)).toBe(2000);
  expect(giftCardShare(0, 3000)).toBe(0);
});

test("the expiry is whole months later, the 31st kept within the month", () => {
  expect(giftCardExpiry(new Date("2026-01-31T10:00:00Z"), 1).toISOString()).toBe("2026-02-28T10:00:00.000Z");
  expect(giftCardExpiry(new Date("2026-11-29T10:00:00Z"), 24).toISOString()).toBe("2028-11-29T10:00:00.000Z");
});
