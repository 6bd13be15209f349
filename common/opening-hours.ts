/** Opening hours as the settings store them: ISO weekday (1 = Monday ... 7 = Sunday) -> slots. */
export type OpeningSlot = { opens: string; closes: string };
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export type WeeklyOpeningHours = Record<Weekday, OpeningSlot[]>;

/** Consecutive days with the same slots; `slots` is empty for closed days. */
export type OpeningDayRange = { firstDay: Weekday; lastDay: Weekday; slots: OpeningSlot[] };

const weekdays: readonly Weekday[] = [1, 2, 3, 4, 5, 6, 7];

function sameSlots(a: readonly OpeningSlot[], b: readonly OpeningSlot[]) {
  return a.length === b.length && a.every((slot, index) => slot.opens === b[index]?.opens && slot.closes === b[index]?.closes);
}

/** Groups the week for display: "Monday - Saturday 09:30-13:00, 16:30-20:00", "Sunday closed". */
export function groupOpeningHours(hours: WeeklyOpeningHours): OpeningDayRange[] {
  const ranges: OpeningDayRange[] = [];
  for (const day of weekdays) {
    const slots = hours[day];
    const last = ranges.at(-1);
    if (last && sameSlots(last.slots, slots)) last.lastDay = day;
    else ranges.push({ firstDay: day, lastDay: day, slots });
  }
  return ranges;
}

/** "09:30-13:00, 16:30-20:00" */
export function formatOpeningSlots(slots: readonly OpeningSlot[]): string {
  return slots.map((slot) => `${slot.opens}-${slot.closes}`).join(", ");
}
