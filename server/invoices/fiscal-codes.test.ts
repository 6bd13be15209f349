import { expect, test } from "vitest";
import { isValidBusinessFiscalCode, isValidFiscalCode, isValidVatNumber, normaliseFiscalCode, normaliseVatNumber } from "./fiscal-codes";

test("a codice fiscale is accepted only with its own check character", () => {
  expect(isValidFiscalCode("RSSMRA85T10A562S")).toBe(true);
  expect(isValidFiscalCode("RSSMRA85T10A562T")).toBe(false);
  // One letter typed for another changes the check character.
  expect(isValidFiscalCode("RSSMRB85T10A562S")).toBe(false);
});

test("omocodia letters stand for digits and the check character follows them", () => {
  expect(isValidFiscalCode("RSSMRA85T10A56NH")).toBe(true);
  expect(isValidFiscalCode("RSSMRA85T10A56NS")).toBe(false);
  // "A" never stands for a digit.
  expect(isValidFiscalCode("RSSMRA85T10A56AH")).toBe(false);
});

test("a woman's day of birth counts from 41; a month letter outside the table or day 32 is refused", () => {
  const woman = "RSSMRA85T50A562";
  const check = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].find((letter) => isValidFiscalCode(woman + letter));
  expect(check).toBeDefined();
  expect(isValidFiscalCode("RSSMRA85F10A562S")).toBe(false);
  const badDay = "RSSMRA85T32A562";
  expect([..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"].some((letter) => isValidFiscalCode(badDay + letter))).toBe(false);
});

test("a codice fiscale typed with spaces and small letters is read as written", () => {
  expect(normaliseFiscalCode(" rssmra 85t10 a562s ")).toBe("RSSMRA85T10A562S");
  expect(isValidFiscalCode(normaliseFiscalCode("rssmra85t10a562s"))).toBe(true);
  expect(isValidFiscalCode("RSSMRA85T10A562")).toBe(false);
  expect(isValidFiscalCode("")).toBe(false);
});

test("a partita IVA is accepted only with its check digit", () => {
  expect(isValidVatNumber("07412580636")).toBe(true);
  expect(isValidVatNumber("07412580631")).toBe(false);
  expect(isValidVatNumber("12345678903")).toBe(true);
  expect(isValidVatNumber("1234567890")).toBe(false);
  expect(isValidVatNumber("00000000000")).toBe(false);
  expect(normaliseVatNumber("IT 074 1258 0636")).toBe("07412580636");
});

test("a business's codice fiscale is its partita IVA or a person's code", () => {
  expect(isValidBusinessFiscalCode("07412580636")).toBe(true);
  expect(isValidBusinessFiscalCode("RSSMRA85T10A562S")).toBe(true);
  expect(isValidBusinessFiscalCode("07412580631")).toBe(false);
});
