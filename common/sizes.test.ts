import { expect, test } from "vitest";
import { formatSize, isOneSize, shownSize } from "./sizes";

test("TAGLIA_UNICA, taglia unica and the legacy tagliau mean one size; real sizes do not", () => {
  for (const size of ["TAGLIA_UNICA", "Taglia_Unica", "taglia unica", "Taglia Unica", "tagliau", " TAGLIAU ", "", null, undefined])
    expect(isOneSize(size), String(size)).toBe(true);
  for (const size of ["m", "xl", "0-6 mesi", "150ml", "taglia", "unica"]) expect(isOneSize(size), size).toBe(false);
});

test("a size beside a product's name: letters in capitals, months and volumes as stored, nothing for one size", () => {
  expect(shownSize("xl")).toBe("XL");
  expect(shownSize("0-6 mesi")).toBe("0-6 mesi");
  expect(shownSize("150ml")).toBe("150ml");
  for (const size of ["TAGLIA_UNICA", "tagliau", "taglia unica", null]) expect(shownSize(size), String(size)).toBeNull();
  expect(formatSize("s")).toBe("S");
});
