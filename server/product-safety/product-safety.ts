/**
 * Product safety's pure rules (GPSR, Regulation (EU) 2023/988, article 19): what an offer must show and
 * when a product lacks it. No database, environment or clock. docs/decisions/0088-product-safety-data.md.
 */

/** The 27 member states: a manufacturer established elsewhere needs an EU responsible person (GPSR article 16). */
const euCountryCodes = new Set([
  "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "IE", "IT",
  "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE",
]); // prettier-ignore

export function isEuCountry(countryCode: string): boolean {
  return euCountryCodes.has(countryCode.toUpperCase());
}

/** Manufacturer or EU responsible person, as the offer shows them. */
export type SafetyContact = { name: string; postalAddress: string; countryCode: string; email: string };

/** What the rule reads about a product: the contacts that apply to it (its own, else its brand's) and its warnings. */
export type SafetyFacts = { manufacturer: Pick<SafetyContact, "countryCode"> | null; hasResponsiblePerson: boolean; warningCount: number };

/** A missing piece of what GPSR article 19 asks an online offer to show. */
export type SafetyGap = "manufacturer" | "responsible-person" | "warnings";

export const safetyGapKinds: readonly SafetyGap[] = ["manufacturer", "responsible-person", "warnings"];

/** What the product lacks, in the order the back office lists it; empty when it is complete. */
export function findSafetyGaps(facts: SafetyFacts): SafetyGap[] {
  const gaps: SafetyGap[] = [];
  if (!facts.manufacturer) gaps.push("manufacturer");
  else if (!isEuCountry(facts.manufacturer.countryCode) && !facts.hasResponsiblePerson) gaps.push("responsible-person");
  if (facts.warningCount === 0) gaps.push("warnings");
  return gaps;
}

/** The largest manual a product may carry: a scanned manual of a car seat is a few megabytes. */
export const maxManualBytes = 10 * 1024 * 1024;

/** A PDF starts with "%PDF-" (ISO 32000-1, 7.5.2): the name or the browser's type alone prove nothing. */
export function isPdf(bytes: Uint8Array): boolean {
  const magic = [0x25, 0x50, 0x44, 0x46, 0x2d];
  return bytes.length > magic.length && magic.every((byte, index) => bytes[index] === byte);
}
