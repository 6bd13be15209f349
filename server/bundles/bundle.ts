/**
 * Bundles' pure rules (docs/decisions/0100-bundles.md): how a bundle's price is shared among its parts, what
 * it saves, and the part lines a bundle line becomes. No db, env or clock.
 */
import { splitInProportion, sumCents, timesQuantity, type Cents } from "#server/money.ts";

export type BundlePartPrice = {
  /** The part's own unit price today (what it costs alone). */
  unitCents: Cents;
  /** Units of the part in one bundle. */
  quantity: number;
};

/**
 * The bundle's price per unit of each part: in proportion to what the parts cost alone, each rounded down,
 * the cents left on the part with one unit per bundle (largest share first), so that the units times their
 * shares add up to the bundle's price exactly. A bundle must have a part with one unit (the back office asks it).
 */
export function sharePerUnit(bundleCents: Cents, parts: readonly BundlePartPrice[]): Cents[] {
  if (parts.length === 0) throw new RangeError("A bundle without parts has no shares");
  const weights = parts.map((part) => timesQuantity(part.unitCents, part.quantity));
  const perPart =
    sumCents(weights) === 0
      ? splitInProportion(
          bundleCents,
          parts.map((part) => part.quantity),
        )
      : splitInProportion(bundleCents, weights);
  const units = perPart.map((cents, index) => Math.floor(cents / parts[index]!.quantity));
  const left = bundleCents - sumCents(units.map((unit, index) => timesQuantity(unit, parts[index]!.quantity)));
  const carrier = parts
    .map((part, index) => ({ index, quantity: part.quantity, share: perPart[index]! }))
    .filter((part) => part.quantity === 1)
    .sort((a, b) => b.share - a.share || a.index - b.index)[0];
  if (left !== 0 && !carrier) throw new RangeError("A bundle needs a part with one unit to carry the rounding");
  if (carrier) units[carrier.index]! += left;
  return units;
}

/** What the parts cost bought alone, and what the bundle saves on that (never below zero). */
export function bundleSaving(bundleCents: Cents, parts: readonly BundlePartPrice[]): { partsCents: Cents; savedCents: Cents } {
  const partsCents = sumCents(parts.map((part) => timesQuantity(part.unitCents, part.quantity)));
  return { partsCents, savedCents: Math.max(0, partsCents - bundleCents) };
}

/** Whether the parts' quantities can carry the rounding cent (sharePerUnit). */
export function hasSinglePart(parts: readonly { quantity: number }[]): boolean {
  return parts.some((part) => part.quantity === 1);
}
