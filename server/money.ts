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

/** price × (100 − percent) / 100, rounded half-up once (docs/rules.md#money). */
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

/** The amount before VAT inside a VAT-included amount: gross × 100 / (100 + rate), rounded half-up once. */
export function netOfVatCents(grossCents: Cents, vatRatePercent: number): Cents {
  if (!Number.isInteger(vatRatePercent) || vatRatePercent < 0 || vatRatePercent > 100) throw new RangeError(`Bad VAT rate: ${vatRatePercent}`);
  return roundHalfUp((assertCents(grossCents) * 100) / (100 + vatRatePercent));
}

/**
 * Splits `totalCents` in proportion to `weights` so that the parts add up to it exactly: each part is
 * rounded down and the cents left go to the largest remainders (first ones on ties). Weights may be
 * negative (a discount among goods) but must not add up to zero unless the total is zero.
 */
export function splitInProportion(totalCents: Cents, weights: readonly Cents[]): Cents[] {
  const weightSum = BigInt(sumCents(weights));
  if (weightSum === 0n) {
    if (assertCents(totalCents) !== 0) throw new RangeError("Cannot split an amount over weights that add up to zero");
    return weights.map(() => 0);
  }
  const sign = weightSum < 0n ? -1n : 1n;
  const divisor = weightSum * sign;
  const exact = weights.map((weight) => BigInt(assertCents(totalCents)) * BigInt(weight) * sign);
  const floors = exact.map((numerator) => (numerator >= 0n ? numerator / divisor : -((-numerator + divisor - 1n) / divisor)));
  const parts = floors.map(Number);
  let left = totalCents - sumCents(parts);
  const byRemainder = exact
    .map((numerator, index) => ({ index, remainder: numerator - floors[index]! * divisor }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

/** Cents as an amount with two decimals and a point, as XML and CSV files want it: 1250 -> "12.50", -5 -> "-0.05". */
export function centsToDecimalText(cents: Cents): string {
  const abs = Math.abs(assertCents(cents));
  return `${cents < 0 ? "-" : ""}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** cents / quantity in euros with up to eight decimals (at least two), rounded half-up once: 1000 / 3 -> "3.33333333". */
export function unitAmountText(totalCents: Cents, quantity: number): string {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) throw new RangeError(`Bad quantity: ${quantity}`);
  const scaled = BigInt(Math.abs(assertCents(totalCents))) * 1_000_000n;
  const q = BigInt(quantity);
  const units = (scaled * 2n + q) / (2n * q);
  const whole = units / 100_000_000n;
  const decimals = String(units % 100_000_000n)
    .padStart(8, "0")
    .replace(/0{1,6}$/, "");
  return `${totalCents < 0 && units > 0n ? "-" : ""}${whole}.${decimals.padEnd(2, "0")}`;
}
