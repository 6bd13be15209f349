import { expect, test } from "vitest";
import { isValidGtin, normaliseGtin } from "./gtin";

test("a GTIN is valid only with its GS1 check digit, at 8, 12, 13 or 14 digits", () => {
  // EAN-13 of an Italian product (prefix 80), UPC-A, EAN-8 and GTIN-14, each with its real check digit.
  for (const code of ["8001090000019", "036000291452", "96385074", "10614141000415"]) expect(isValidGtin(code), code).toBe(true);
  for (const code of ["8001090000018", "036000291453", "96385075", "10614141000416"]) expect(isValidGtin(code), code).toBe(false);
  for (const code of ["", "800109000001", "80010900000177", "8001090000O17", "123456789012345"]) expect(isValidGtin(code), code).toBe(false);
});

test("spaces and dashes people type between groups are dropped", () => {
  expect(normaliseGtin("800 1090 00001-9")).toBe("8001090000019");
  expect(isValidGtin(normaliseGtin("800 1090 00001-9"))).toBe(true);
});
