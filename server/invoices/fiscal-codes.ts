/**
 * The partita IVA as the Agenzia delle Entrate defines it (11 digits, the last a check digit), and a
 * business's codice fiscale (its partita IVA, or a person's 16 characters for a sole trader, checked by
 * server/accounts/fiscal-code.ts). Pure: no db, env or clock.
 */
import { isValidFiscalCode } from "#server/accounts/fiscal-code.ts";

/** What a person typed as a partita IVA: no spaces, no leading "IT". */
export function normaliseVatNumber(raw: string): string {
  return raw.replace(/\s+/g, "").replace(/^IT/i, "");
}

/** An Italian partita IVA: 11 digits whose last is the check digit of the first ten. */
export function isValidVatNumber(vatNumber: string): boolean {
  if (!/^[0-9]{11}$/.test(vatNumber) || /^0{7}/.test(vatNumber)) return false;
  let sum = 0;
  for (let place = 0; place < 10; place++) {
    const digit = vatNumber.charCodeAt(place) - 48;
    if (place % 2 === 0) sum += digit;
    else sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
  }
  return (10 - (sum % 10)) % 10 === vatNumber.charCodeAt(10) - 48;
}

/** The codice fiscale of a company or a sole trader's business: 11 digits (its partita IVA) or a person's 16 characters. */
export function isValidBusinessFiscalCode(code: string): boolean {
  return code.length === 11 ? isValidVatNumber(code) : isValidFiscalCode(code);
}
