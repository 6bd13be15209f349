/**
 * The sample car seats' and strollers' specifications (docs/decisions/0101-product-specifications.md), by
 * product id, in the values their makers publish for models of that kind. Weights in grams.
 */
import type { ProductSpecs } from "#common/product-specs.ts";

const seat = (
  statureMinCm: number,
  statureMaxCm: number,
  {
    isofix,
    rotates,
    ageMonths,
    maxKg,
    r44Group = null,
  }: { isofix: boolean; rotates: boolean; ageMonths: [number, number]; maxKg: number; r44Group?: string | null },
): ProductSpecs => ({
  kind: "car_seat",
  statureMinCm,
  statureMaxCm,
  r44Group,
  hasIsofix: isofix,
  rotates360: rotates,
  ageMinMonths: ageMonths[0],
  ageMaxMonths: ageMonths[1],
  maxChildWeightGrams: maxKg * 1000,
  weightGrams: null,
  foldedLengthCm: null,
  foldedWidthCm: null,
  foldedHeightCm: null,
  isFromBirth: null,
  isCarrycotCompatible: null,
});

const stroller = (
  weightGrams: number,
  [foldedLengthCm, foldedWidthCm, foldedHeightCm]: [number, number, number],
  { fromBirth, carrycot, ageMonths, maxKg }: { fromBirth: boolean; carrycot: boolean; ageMonths: [number, number]; maxKg: number },
): ProductSpecs => ({
  kind: "stroller",
  statureMinCm: null,
  statureMaxCm: null,
  r44Group: null,
  hasIsofix: null,
  rotates360: null,
  ageMinMonths: ageMonths[0],
  ageMaxMonths: ageMonths[1],
  maxChildWeightGrams: maxKg * 1000,
  weightGrams,
  foldedLengthCm,
  foldedWidthCm,
  foldedHeightCm,
  isFromBirth: fromBirth,
  isCarrycotCompatible: carrycot,
});

export const sampleProductSpecs: Readonly<Record<number, ProductSpecs>> = {
  // seggiolini auto
  120: seat(40, 150, { isofix: true, rotates: true, ageMonths: [0, 144], maxKg: 36 }),
  121: seat(45, 87, { isofix: true, rotates: true, ageMonths: [0, 24], maxKg: 13 }),
  122: seat(40, 105, { isofix: true, rotates: true, ageMonths: [0, 48], maxKg: 18 }),
  123: seat(40, 87, { isofix: false, rotates: false, ageMonths: [0, 15], maxKg: 13 }),
  124: seat(40, 125, { isofix: true, rotates: false, ageMonths: [0, 84], maxKg: 25 }),
  125: seat(100, 150, { isofix: true, rotates: false, ageMonths: [42, 144], maxKg: 36, r44Group: "2/3" }),
  // passeggini leggeri
  24: stroller(7800, [53, 25, 65], { fromBirth: true, carrycot: false, ageMonths: [0, 48], maxKg: 22 }),
  25: stroller(5900, [32, 20, 45], { fromBirth: false, carrycot: false, ageMonths: [6, 48], maxKg: 22 }),
  26: stroller(5900, [54, 22, 46], { fromBirth: true, carrycot: false, ageMonths: [0, 48], maxKg: 22 }),
  27: stroller(7200, [56, 30, 57], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  28: stroller(6300, [54, 33, 21], { fromBirth: true, carrycot: false, ageMonths: [0, 36], maxKg: 15 }),
  // trio e duo, carrozzine
  30: stroller(8300, [58, 48, 83], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  31: stroller(11500, [55, 38, 88], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  32: stroller(10800, [53, 58, 88], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  33: stroller(9800, [60, 40, 80], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  34: stroller(11000, [62, 50, 78], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  35: stroller(11600, [60, 42, 86], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
  37: stroller(12600, [62, 57, 84], { fromBirth: true, carrycot: true, ageMonths: [0, 48], maxKg: 22 }),
};
