/**
 * Italian fiscal identifiers as the Agenzia delle Entrate defines them: the codice fiscale of a person
 * (16 characters, its last one a check character, omocodia letters allowed in the digit places) and the
 * partita IVA (11 digits, the last a check digit). Pure: no db, env or clock.
 */

/** Values of a character in an odd (1st, 3rd, ...) place of a codice fiscale; digits read as A-J. */
const oddValues = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
/** Letters that stand for 0-9 where a code had to be made unique (omocodia). */
const omocodiaLetters = "LMNPQRSTUV";
const monthLetters = "ABCDEHLMPRST";
/** Places (0-based) that hold digits, or their omocodia letters. */
const digitPlaces = [6, 7, 9, 10, 12, 13, 14];

/** What a person typed, as the code is written: no spaces, upper case. */
export function normaliseFiscalCode(raw: string): string {
  return raw.replace(/\s+/g, "").toUpperCase();
}

const alphabetIndex = (char: string) => (char >= "0" && char <= "9" ? char.charCodeAt(0) - 48 : char.charCodeAt(0) - 65);

/** The check character of the first 15 characters of a codice fiscale. */
export function fiscalCodeCheckCharacter(first15: string): string {
  let sum = 0;
  for (let place = 0; place < 15; place++) {
    const value = alphabetIndex(first15[place]!);
    sum += place % 2 === 0 ? oddValues[value]! : value;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** A person's codice fiscale, written normalised: its shape, its month and day, and its check character. */
export function isValidFiscalCode(code: string): boolean {
  if (!/^[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/.test(code)) return false;
  const digits = [...code];
  for (const place of digitPlaces) {
    const letter = omocodiaLetters.indexOf(digits[place]!);
    if (letter >= 0) digits[place] = String(letter);
  }
  if (!monthLetters.includes(code[8]!)) return false;
  // Women's codes add 40 to the day of birth.
  const day = Number(digits[9]! + digits[10]!);
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  return fiscalCodeCheckCharacter(code.slice(0, 15)) === code[15];
}

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
