/**
 * The Italian codice fiscale of a person: 16 characters (surname, name, birth year, month letter,
 * day + 40 for women, place code, check letter), including the "omocodia" variants where the
 * revenue agency replaced digits with letters. Companies' 11-digit codes are not a person's profile.
 */
const pattern = /^[A-Z]{6}[0-9LMNPQRSTUV]{2}[ABCDEHLMPRST][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]$/;
const omocodeLetters = "LMNPQRSTUV";
const omocodePositions = [6, 7, 9, 10, 12, 13, 14];
/** Values of characters in odd (1st, 3rd, ...) positions, for digits 0-9 and letters A-Z alike. */
const oddValues = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

/** Upper case, without spaces: how the code is stored. */
export function normaliseFiscalCode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase();
}

function valueIndex(char: string): number {
  return /[0-9]/.test(char) ? Number(char) : char.charCodeAt(0) - 65;
}

export function fiscalCodeCheckLetter(first15: string): string {
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const index = valueIndex(first15[i]!);
    sum += i % 2 === 0 ? oddValues[index]! : index;
  }
  return String.fromCharCode(65 + (sum % 26));
}

/** True for a well-formed code with a correct check letter and a possible birth day. */
export function isValidFiscalCode(value: string): boolean {
  const code = normaliseFiscalCode(value);
  if (!pattern.test(code)) return false;
  const digits = [...code]
    .map((char, i) => (omocodePositions.includes(i) && /[A-Z]/.test(char) ? String(omocodeLetters.indexOf(char)) : char))
    .join("");
  const day = Number(digits.slice(9, 11));
  if (!((day >= 1 && day <= 31) || (day >= 41 && day <= 71))) return false;
  return fiscalCodeCheckLetter(code.slice(0, 15)) === code[15];
}
