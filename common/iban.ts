/**
 * IBANs as people type them: spaces and lower case allowed, checked with their two check digits
 * (ISO 13616, mod 97 = 1). Browser-safe: the withdrawal form and the server check the same way.
 */

/** Upper case, no spaces: the form a bank transfer is made to. */
export function normaliseIban(raw: string): string {
  return raw.replace(/[\s-]/g, "").toUpperCase();
}

/** True for an IBAN whose check digits match (and, for Italy, whose length is 27). */
export function isValidIban(raw: string): boolean {
  const iban = normaliseIban(raw);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  if (iban.startsWith("IT") && iban.length !== 27) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
