import { expect, test } from "vitest";
import { fiscalCodeCheckLetter, isValidFiscalCode, normaliseFiscalCode } from "./fiscal-code";

test("well-formed codes with the right check letter are accepted, in any case and spacing", () => {
  expect(isValidFiscalCode("RSSMRA85T10A562S")).toBe(true);
  expect(isValidFiscalCode("rssmra85t10a562s")).toBe(true);
  expect(isValidFiscalCode(" RSS MRA 85T10 A562S ")).toBe(true);
  // a woman: day + 40
  const woman = "BNCLRA90A41F839";
  expect(isValidFiscalCode(woman + fiscalCodeCheckLetter(woman))).toBe(true);
});

test("omocodia variants (digits replaced by letters) are accepted", () => {
  const omocode = "RSSMRA85T10A56N";
  expect(isValidFiscalCode(omocode + fiscalCodeCheckLetter(omocode))).toBe(true);
});

test("a wrong check letter, length, month letter or day is refused", () => {
  expect(isValidFiscalCode("RSSMRA85T10A562X")).toBe(false);
  expect(isValidFiscalCode("RSSMRA85T10A562")).toBe(false);
  expect(isValidFiscalCode("RSSMRA85T10A562SS")).toBe(false);
  const badMonth = "RSSMRA85Z10A562";
  expect(isValidFiscalCode(badMonth + fiscalCodeCheckLetter(badMonth))).toBe(false);
  const badDay = "RSSMRA85T35A562";
  expect(isValidFiscalCode(badDay + fiscalCodeCheckLetter(badDay))).toBe(false);
  expect(isValidFiscalCode("12345678901")).toBe(false);
  expect(isValidFiscalCode("<script>alert(1)</")).toBe(false);
});

test("codes are stored upper case without spaces", () => {
  expect(normaliseFiscalCode(" rss mra85t10a562s")).toBe("RSSMRA85T10A562S");
});
