/**
 * Integer-cents arithmetic: every sum, product and percentage of the shop goes through here,
 * with one explicit rounding (half-up, to the cent). Pure: no db, env or clock.
 */
export type Cents = number;

export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not a whole number of cents: ${value}`);
  return value;
}

/** Rounds half away from zero, to the cent: the shop's single rounding rule. */
export function roundHalfUp(value: number): Cents {
  return Math.sign(value) * Math.round(Math.abs(value));
}

export function sumCents(values: readonly Cents[]): Cents {
  return values.reduce((total, value) => total + assertCents(value), 0);
}

export function timesQuantity(unitCents: Cents, quantity: number): Cents {
  if (!Number.isSafeInteger(quantity) || quantity < 0) throw new RangeError(`Bad quantity: ${quantity}`);
  return assertCents(unitCents) * quantity;
}

/** price × (100 − percent) / 100, rounded half-up once (DECISIONS.md). */
export function applyPercentOff(priceCents: Cents, percent: number): Cents {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new RangeError(`Bad discount percent: ${percent}`);
  return roundHalfUp((assertCents(priceCents) * (100 - percent)) / 100);
}

/** The discount that applies now: none once the offer has ended. */
export function activeDiscountPercent(discountPercent: number, offerEndsAt: Date | null, now: Date): number {
  if (offerEndsAt && offerEndsAt.getTime() <= now.getTime()) return 0;
  return discountPercent;
}

/** The price a customer pays for one unit today. */
export function effectivePriceCents(product: { priceCents: Cents; discountPercent: number; offerEndsAt: Date | null }, now: Date): Cents {
  return applyPercentOff(product.priceCents, activeDiscountPercent(product.discountPercent, product.offerEndsAt, now));
}

/** Cents as a decimal amount with two decimals (1250 -> 12.5, shown as 12,50): the legacy API's prices. */
export function centsToDecimal(cents: Cents): number {
  return assertCents(cents) / 100;
}

/** Converts EUR cents to a display currency's minor units with a stored rate (display only). */
export function convertCents(eurCents: Cents, ratePerEur: number): Cents {
  return roundHalfUp(assertCents(eurCents) * ratePerEur);
}
