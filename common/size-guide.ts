/**
 * The clothing size guide (docs/decisions/0101-product-specifications.md): Italian baby sizes are the child's
 * height in centimetres, each for an age. Data in the repository, not staff-edited: the scale is the
 * trade's, and it changes with no season.
 */
export type SizeGuideRow = {
  /** The size printed on the label: the tallest child it fits, in cm. */
  size: string;
  heightMinCm: number;
  heightMaxCm: number;
  ageFromMonths: number;
  ageToMonths: number;
};

const row = (heightMinCm: number, heightMaxCm: number, ageFromMonths: number, ageToMonths: number): SizeGuideRow => ({
  size: String(heightMaxCm),
  heightMinCm,
  heightMaxCm,
  ageFromMonths,
  ageToMonths,
});

export const sizeGuide: readonly SizeGuideRow[] = [
  row(50, 56, 0, 1),
  row(57, 62, 1, 3),
  row(63, 68, 3, 6),
  row(69, 74, 6, 9),
  row(75, 80, 9, 12),
  row(81, 86, 12, 18),
  row(87, 92, 18, 24),
  row(93, 98, 24, 36),
  row(99, 104, 36, 48),
  row(105, 110, 48, 60),
  row(111, 116, 60, 72),
];

/** The heights the "which size" question takes (whole centimetres). */
export const sizeGuideHeightBounds = [40, 130] as const;

/** The size for a child of `heightCm`: the row whose range holds it; null below the first or above the last. */
export function findSizeForHeight(heightCm: number): SizeGuideRow | null {
  return sizeGuide.find((entry) => entry.heightMinCm <= heightCm && heightCm <= entry.heightMaxCm) ?? null;
}

/** The age as the guide prints it: months up to two years, then years. */
export function sizeGuideAge(entry: SizeGuideRow): { unit: "months" | "years"; from: number; to: number } {
  return entry.ageToMonths <= 24
    ? { unit: "months", from: entry.ageFromMonths, to: entry.ageToMonths }
    : { unit: "years", from: entry.ageFromMonths / 12, to: entry.ageToMonths / 12 };
}
