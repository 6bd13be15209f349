import { expect, test } from "vitest";
import { formatOpeningSlots, groupOpeningHours, type WeeklyOpeningHours } from "./opening-hours";

const shopDay = [
  { opens: "09:30", closes: "13:00" },
  { opens: "16:30", closes: "20:00" },
];

test("Monday to Saturday with the same hours form one range; Sunday is closed", () => {
  const hours: WeeklyOpeningHours = { 1: shopDay, 2: shopDay, 3: shopDay, 4: shopDay, 5: shopDay, 6: shopDay, 7: [] };
  expect(groupOpeningHours(hours)).toEqual([
    { firstDay: 1, lastDay: 6, slots: shopDay },
    { firstDay: 7, lastDay: 7, slots: [] },
  ]);
  expect(formatOpeningSlots(shopDay)).toBe("09:30-13:00, 16:30-20:00");
});

test("a different day splits the week", () => {
  const morning = [{ opens: "09:30", closes: "13:00" }];
  const hours: WeeklyOpeningHours = { 1: [], 2: shopDay, 3: shopDay, 4: morning, 5: shopDay, 6: shopDay, 7: [] };
  expect(groupOpeningHours(hours).map((range) => [range.firstDay, range.lastDay])).toEqual([
    [1, 1],
    [2, 3],
    [4, 4],
    [5, 6],
    [7, 7],
  ]);
});
