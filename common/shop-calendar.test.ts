import { expect, test } from "vitest";
import {
  addDays,
  easterSundayOf,
  endOfItalianDay,
  formatShopDateTime,
  formatShopDay,
  isItalianPublicHoliday,
  isoWeekdayOf,
  italianDayOf,
  italianMidnight,
  italianTimeOf,
} from "./shop-calendar";

test("the Italian day of an instant, across midnight and the clock changes", () => {
  expect(italianDayOf(new Date("2026-03-28T23:30:00Z"))).toBe("2026-03-29"); // CET: 00:30 in Naples
  expect(italianDayOf(new Date("2026-07-10T21:59:59Z"))).toBe("2026-07-10"); // CEST: 23:59:59
  expect(italianDayOf(new Date("2026-07-10T22:00:00Z"))).toBe("2026-07-11");
});

test("midnight and end of an Italian day, in winter, in summer and on the days the clocks change", () => {
  expect(italianMidnight("2026-01-15").toISOString()).toBe("2026-01-14T23:00:00.000Z");
  expect(italianMidnight("2026-07-15").toISOString()).toBe("2026-07-14T22:00:00.000Z");
  expect(italianMidnight("2026-03-29").toISOString()).toBe("2026-03-28T23:00:00.000Z");
  expect(endOfItalianDay("2026-03-29").toISOString()).toBe("2026-03-29T21:59:59.000Z");
  expect(endOfItalianDay("2026-10-25").toISOString()).toBe("2026-10-25T22:59:59.000Z");
  expect(endOfItalianDay("2026-12-31").toISOString()).toBe("2026-12-31T22:59:59.000Z");
});

test("calendar arithmetic crosses months and years", () => {
  expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
  expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
});

test("dates and times are shown in Italy's time, in the page's language", () => {
  expect(formatShopDateTime("2026-07-10T08:42:00Z", "it")).toBe("10/07/26, 10:42");
  expect(formatShopDateTime("2026-07-10T08:42:00Z", "en", { dateStyle: "medium", timeStyle: "short" })).toBe("10 Jul 2026, 10:42");
});

test("the time of day and the weekday are Italy's", () => {
  expect(italianTimeOf(new Date("2027-11-26T18:30:00Z"))).toBe("19:30");
  expect(italianTimeOf(new Date("2027-07-06T22:05:00Z"))).toBe("00:05");
  expect(isoWeekdayOf("2027-11-26")).toBe(5);
  expect(isoWeekdayOf("2027-11-28")).toBe(7);
});

test("Italy's national holidays, Easter Monday included", () => {
  expect([2025, 2026, 2027, 2038].map(easterSundayOf)).toEqual(["2025-04-20", "2026-04-05", "2027-03-28", "2038-04-25"]);
  for (const day of [
    "2027-01-01",
    "2027-01-06",
    "2027-03-29",
    "2027-04-25",
    "2027-05-01",
    "2027-06-02",
    "2027-08-15",
    "2027-10-04",
    "2027-11-01",
    "2027-12-08",
    "2027-12-25",
    "2027-12-26",
  ]) {
    expect(isItalianPublicHoliday(day), day).toBe(true);
  }
  expect(isItalianPublicHoliday("2027-03-30")).toBe(false);
  expect(isItalianPublicHoliday("2027-12-24")).toBe(false);
  expect(isItalianPublicHoliday("2025-10-04")).toBe(false);
});

test("a delivery day reads short, in the page's language", () => {
  expect(formatShopDay("2026-12-01", "it")).toBe("mar 1 dic");
  expect(formatShopDay("2026-12-01", "en")).toBe("Tue 1 Dec");
});
