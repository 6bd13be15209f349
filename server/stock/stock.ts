/**
 * Stock's pure rules, shared by the ledger and by checkout's first look: no db, env or clock.
 */

export type StockLine = { variantId: number; quantity: number };

/** A variant short of what is wanted, with the units it has left. */
export type Shortage = { variantId: number; available: number };

/** Quantities per variant: two lines of one variant (different personalisation) draw on the same stock. */
export function quantitiesPerVariant(lines: readonly StockLine[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(line.variantId, (sums.get(line.variantId) ?? 0) + line.quantity);
  return new Map([...sums].sort(([a], [b]) => a - b));
}

/** Variants whose summed quantity is above their stock, with what is left. */
export function shortages(wanted: ReadonlyMap<number, number>, stockOf: (variantId: number) => number): Shortage[] {
  return [...wanted]
    .filter(([variantId, quantity]) => quantity > stockOf(variantId))
    .map(([variantId]) => ({ variantId, available: Math.max(0, stockOf(variantId)) }));
}
