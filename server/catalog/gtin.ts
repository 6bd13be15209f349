/**
 * GTIN, the barcode number of a product (EAN-13 in Italy; also GTIN-8, UPC-A's 12 digits, GTIN-14): digits
 * only, its last digit the GS1 check digit over the others. Google's free listings match products by it.
 * Pure.
 */
const gtinLengths = new Set([8, 12, 13, 14]);

export function isValidGtin(code: string): boolean {
  if (!/^\d+$/.test(code) || !gtinLengths.has(code.length)) return false;
  // From the right, before the check digit: weights 3, 1, 3, 1...
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** A GTIN as people type it (spaces, dashes between groups) reduced to its digits. */
export const normaliseGtin = (typed: string) => typed.replace(/[\s-]/g, "");
