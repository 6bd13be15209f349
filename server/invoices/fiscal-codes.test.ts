import { expect, test } from "vitest";
import { isValidBusinessFiscalCode, isValidVatNumber, normaliseVatNumber } from "./fiscal-codes";

test("a partita IVA is accepted only with its check digit", () => {
  expect(isValidVatNumber("07412580636")).toBe(true);
  expect(isValidVatNumber("07412580631")).toBe(false);
  expect(isValidVatNumber("12345678903")).toBe(true);
  expect(isValidVatNumber("01234567897")).toBe(true);
  expect(isValidVatNumber("01234567890")).toBe(false);
  expect(isValidVatNumber("1234567890")).toBe(false);
  expect(isValidVatNumber("00000000000")).toBe(false);
  expect(normaliseVatNumber("IT 074 1258 0636")).toBe("07412580636");
});

test("a business's codice fiscale is its partita IVA or a person's code", () => {
  expect(isValidBusinessFiscalCode("07412580636")).toBe(true);
  expect(isValidBusinessFiscalCode("RSSMRA85T10A562S")).toBe(true);
  expect(isValidBusinessFiscalCode("RSSMRA85T10A562T")).toBe(false);
  expect(isValidBusinessFiscalCode("07412580631")).toBe(false);
});
