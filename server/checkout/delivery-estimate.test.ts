import { expect, test } from "vitest";
import { defaultSettings, type DeliveryTimesSettings } from "#server/settings/settings.ts";
import type { DeliveryMethod } from "#server/orders/order-methods.ts";
import { estimateDelivery } from "./delivery-estimate";

/** The seeded settings: cut-off 13:00, shipped the same day, courier 1-2 days, collection the next opening day, shop open Monday to Saturday. */
function estimate(
  at: string,
  method: DeliveryMethod = "standard",
  options: { preorderDays?: number; times?: Partial<DeliveryTimesSettings>; openingHours?: typeof defaultSettings.shop.openingHours } = {},
) {
  const result = estimateDelivery({
    now: new Date(at),
    method,
    preorderDays: options.preorderDays ?? 0,
    calendar: {
      times: { ...defaultSettings.deliveryTimes, ...options.times },
      openingHours: options.openingHours ?? defaultSettings.shop.openingHours,
    },
  });
  return result && `${result.from} ${result.to}`;
}

test("an order on a weekday morning leaves the same day and arrives in 24/48 hours", () => {
  expect(estimate("2027-11-23T10:00:00+01:00")).toBe("2027-11-24 2027-11-25"); // Tuesday
  expect(estimate("2027-11-23T10:00:00+01:00", "collection")).toBe("2027-11-24 2027-11-24");
  expect(estimate("2027-11-23T10:00:00+01:00", "local_delivery")).toBe("2027-11-24 2027-11-25");
});

test("after the cut-off the order starts the next working day", () => {
  expect(estimate("2027-11-23T12:59:00+01:00")).toBe("2027-11-24 2027-11-25");
  expect(estimate("2027-11-23T13:00:00+01:00")).toBe("2027-11-25 2027-11-26");
});

test("a Friday evening order arrives next week: the courier neither collects on Saturday nor delivers on the weekend", () => {
  expect(estimate("2027-11-26T10:00:00+01:00")).toBe("2027-11-29 2027-11-30"); // Friday morning: Monday-Tuesday
  expect(estimate("2027-11-26T19:30:00+01:00")).toBe("2027-11-30 2027-12-01"); // Friday evening: Tuesday-Wednesday
  // The shop opens on Saturday: collected the next day in the morning, on Monday in the evening.
  expect(estimate("2027-11-26T10:00:00+01:00", "collection")).toBe("2027-11-27 2027-11-27");
  expect(estimate("2027-11-26T19:30:00+01:00", "collection")).toBe("2027-11-29 2027-11-29");
  expect(estimate("2027-11-26T19:30:00+01:00", "local_delivery")).toBe("2027-11-29 2027-11-30");
});

test("a Sunday order starts on Monday", () => {
  expect(estimate("2027-11-28T10:00:00+01:00")).toBe("2027-11-30 2027-12-01");
  expect(estimate("2027-11-28T10:00:00+01:00", "collection")).toBe("2027-11-30 2027-11-30");
});

test("on the eve of the Immacolata (8 December) the holiday is skipped", () => {
  expect(estimate("2027-12-07T10:00:00+01:00")).toBe("2027-12-09 2027-12-10");
  expect(estimate("2027-12-07T10:00:00+01:00", "collection")).toBe("2027-12-09 2027-12-09");
  expect(estimate("2027-12-07T19:00:00+01:00")).toBe("2027-12-10 2027-12-13");
  expect(estimate("2027-12-07T19:00:00+01:00", "collection")).toBe("2027-12-10 2027-12-10");
});

test("on Christmas Eve, Christmas and Santo Stefano are skipped", () => {
  expect(estimate("2026-12-24T10:00:00+01:00")).toBe("2026-12-28 2026-12-29"); // Thursday: 25 and 26 closed, then Sunday
  expect(estimate("2026-12-24T10:00:00+01:00", "collection")).toBe("2026-12-28 2026-12-28");
});

test("Easter Sunday and Easter Monday are skipped, whatever year Easter falls in", () => {
  // Easter 2027 is on 28 March: a Saturday order waits for Tuesday's courier.
  expect(estimate("2027-03-27T10:00:00+01:00")).toBe("2027-03-31 2027-04-01");
  expect(estimate("2027-03-27T10:00:00+01:00", "collection")).toBe("2027-03-30 2027-03-30");
  // Easter 2026 is on 5 April (summer time): Easter Monday 6 April is no delivery day.
  expect(estimate("2026-04-03T12:30:00+02:00")).toBe("2026-04-07 2026-04-08");
});

test("the cut-off is read in Italy's time, in winter and in summer", () => {
  expect(estimate("2027-07-06T10:59:00Z")).toBe("2027-07-07 2027-07-08"); // 12:59 in Naples
  expect(estimate("2027-07-06T11:00:00Z")).toBe("2027-07-08 2027-07-09"); // 13:00 in Naples
  expect(estimate("2027-01-12T11:59:00Z")).toBe("2027-01-13 2027-01-14"); // 12:59 in Naples
});

test("a pre-order size adds its days before the usual times", () => {
  // Ordered Monday 22 November: in the shop 10 days later, Thursday 2 December, then the courier.
  expect(estimate("2027-11-22T10:00:00+01:00", "standard", { preorderDays: 10 })).toBe("2027-12-03 2027-12-06");
  // Arriving on the Immacolata, it is ready the day after.
  expect(estimate("2027-11-29T10:00:00+01:00", "collection", { preorderDays: 9 })).toBe("2027-12-10 2027-12-10");
});

test("the shop's own closures, its opening days and its times come from the settings", () => {
  const summer = { closures: [{ from: "2027-08-09", to: "2027-08-22" }] };
  expect(estimate("2027-08-06T10:00:00+02:00", "collection", { times: summer })).toBe("2027-08-07 2027-08-07");
  expect(estimate("2027-08-07T10:00:00+02:00", "collection", { times: summer })).toBe("2027-08-23 2027-08-23");
  expect(estimate("2027-08-07T10:00:00+02:00", "standard", { times: summer })).toBe("2027-08-24 2027-08-25");
  const slower = { cutoff: "18:00", preparationDays: 2, standardDays: { min: 2, max: 5 } };
  expect(estimate("2027-11-23T17:00:00+01:00", "standard", { times: slower })).toBe("2027-11-29 2027-12-02");
  const closedOnSaturday = { ...defaultSettings.shop.openingHours, 6: [] };
  expect(estimate("2027-11-26T19:30:00+01:00", "collection", { openingHours: closedOnSaturday })).toBe("2027-11-30 2027-11-30");
});

test("a shop with no open day gives no promise rather than a wrong one", () => {
  const never = { 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] };
  expect(estimate("2027-11-23T10:00:00+01:00", "standard", { openingHours: never })).toBeNull();
});
