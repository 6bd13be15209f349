import { expect, test } from "vitest";
import { findSafetyGaps, isEuCountry, isPdf } from "./product-safety";

test("an EU manufacturer with warnings is complete; without warnings the warnings are missing", () => {
  expect(findSafetyGaps({ manufacturer: { countryCode: "IT" }, hasResponsiblePerson: false, warningCount: 2 })).toEqual([]);
  expect(findSafetyGaps({ manufacturer: { countryCode: "DE" }, hasResponsiblePerson: false, warningCount: 0 })).toEqual(["warnings"]);
});

test("a manufacturer outside the EU needs an EU responsible person", () => {
  expect(findSafetyGaps({ manufacturer: { countryCode: "CN" }, hasResponsiblePerson: false, warningCount: 1 })).toEqual(["responsible-person"]);
  expect(findSafetyGaps({ manufacturer: { countryCode: "GB" }, hasResponsiblePerson: true, warningCount: 1 })).toEqual([]);
});

test("no manufacturer at all is the first gap", () => {
  expect(findSafetyGaps({ manufacturer: null, hasResponsiblePerson: true, warningCount: 0 })).toEqual(["manufacturer", "warnings"]);
});

test("member states are told from the rest by their ISO code", () => {
  expect(isEuCountry("it")).toBe(true);
  expect(isEuCountry("CH")).toBe(false);
  expect(isEuCountry("GB")).toBe(false);
});

test("a PDF is recognised by its first bytes, not by its name", () => {
  expect(isPdf(new TextEncoder().encode("%PDF-1.7\n..."))).toBe(true);
  expect(isPdf(new TextEncoder().encode("<html>%PDF-"))).toBe(false);
  expect(isPdf(new Uint8Array())).toBe(false);
});
